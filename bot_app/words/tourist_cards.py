"""Words for Alsace's tickets and tourist cards (engine/rules/tourist_cards.py): both dealt and
drawn together, the Lucky Devil, the tourist cards in a hand (attraction, town, value, visited
or not yet) and at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_app.words.base import (
    Ctx,
    Doing,
    Event,
    count_of,
    data,
    hidden,
    joined,
    plural,
    presents,
    private,
    public,
    their,
    tourist_card,
)
from bot_app.words.tickets import TicketWords, tickets_boxed
from engine.actions import Action, DrawTickets, KeepTickets
from engine.rules.tourist_cards import PlayLuckyDevil, TouristCards, TouristView


def _is_tourist(c: Ctx, card_id: Any) -> bool:
    return tourist_card(c.gmap, card_id) is not None


def _setup_now(c: Ctx, n_tickets: int) -> bool:
    """Whether an offer of this size is the opening one (the view says so while it waits)."""
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    if c.view is not None and c.view.pending.kind == "choose_tickets":
        return c.view.pending.setup
    return n_tickets > sum(n for _, n in module.draw)


def _minimums(c: Ctx, n_tickets: int, n_tourist: int) -> tuple[int, int]:
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    if _setup_now(c, n_tickets):
        return min(module.setup_keep, n_tickets), min(module.setup_tourist_keep, n_tourist)
    return min(module.draw_keep, n_tickets), min(module.draw_tourist_keep, n_tourist)


def keep_both(c: Ctx, n_tickets: int, n_tourist: int) -> str:
    t, k = _minimums(c, n_tickets, n_tourist)
    parts = []
    if n_tickets and t:
        parts.append(plural(t, "ticket"))
    if n_tourist and k:
        parts.append(plural(k, "tourist card"))
    if not parts:
        return "keep any of them, or none"
    return "keep at least " + joined(parts)


def offered(e: Event, c: Ctx, who: str) -> str:
    tickets = data(e, "tickets") or []
    tourist = data(e, "tourist") or []
    devils = count_of(data(e, "devils"))
    parts = []
    if tickets:
        parts.append("Tickets offered to you: " + "; ".join(c.ticket(t) for t in tickets) + ".")
    if tourist:
        parts.append("Tourist cards offered to you: " + "; ".join(c.ticket(t) for t in tourist) + ".")
    if devils:
        one = devils == 1
        parts.append(f"{plural(devils, 'Lucky Devil')} came with them: play {'it' if one else 'them'} first ("
                     f"{'it' if one else 'each'} may throw away one attraction card, with no penalty).")
    if not parts:
        return "Nothing was offered to you."
    return " ".join(parts) + f" {keep_both(c, len(tickets), len(tourist)).capitalize()}."


def drawn(e: Event, c: Ctx, who: str) -> str:
    n = count_of(data(e, "count"))
    tourist = count_of(data(e, "tourist"))
    return f"{who} drew {plural(n, 'destination ticket')} and {plural(tourist, 'tourist card')}"


def _some(kept: int, returned: int, what: str) -> str:
    text = plural(kept, what) if kept else f"no {what}s"
    return text + (f" ({returned} returned)" if returned else "")


def kept(e: Event, c: Ctx, who: str) -> str:
    tickets = _some(count_of(data(e, "kept")), count_of(data(e, "returned")), "ticket")
    tourist = _some(count_of(data(e, "tourist_kept")), count_of(data(e, "tourist_returned")), "tourist card")
    return f"{who} kept {tickets} and {tourist}"


def drawn_then_kept(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "player") != data(second, "player"):
        return None
    return f"{drawn(first, c, who)}, then {kept(second, c, who).removeprefix(who + ' ')}"


def chosen(e: Event, c: Ctx, who: str) -> str:
    tickets = [c.ticket(t) for t in data(e, "kept") or []]
    tourist = [c.ticket(t) for t in data(e, "tourist") or []]
    return (f"{who} kept " + ("tickets " + "; ".join(tickets) if tickets else "no tickets")
            + " and " + ("tourist cards " + "; ".join(tourist) if tourist else "no tourist cards"))


def devil_played(e: Event, c: Ctx, who: str) -> str:
    if data(e, "discarded"):
        return f"{who} played a Lucky Devil and threw away an attraction card"
    return f"{who} played a Lucky Devil and kept every card"


def devil_resolved(e: Event, c: Ctx, who: str) -> str:
    gone = data(e, "discarded")
    if gone:
        return f"{who} played {their(who)} Lucky Devil: {c.ticket(gone)} is out of the game, with no penalty"
    return f"{who} played {their(who)} Lucky Devil and kept every card"


def devil_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PlayLuckyDevil)
    if not a.discard:
        return "play the Lucky Devil and keep every card"
    return f"play the Lucky Devil: throw away {c.ticket(a.discard)}"


def keep_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, KeepTickets)
    tickets = [c.ticket(t) for t in a.keep if not _is_tourist(c, t)]
    tourist = [c.ticket(t) for t in a.keep if _is_tourist(c, t)]
    return ("keep " + ("tickets " + "; ".join(tickets) if tickets else "no tickets") + " and "
            + ("tourist cards " + "; ".join(tourist) if tourist else "no tourist cards"))


def draw_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, DrawTickets)
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    n = sum(k for _, k in module.draw)
    return f"draw {plural(n, 'destination ticket')} and {plural(module.draw_tourist, 'tourist card')}"


def card_text(c: Ctx, card_id: str) -> str:
    """A tourist card: "Zoo (Mulhouse, 3 points)", "Visitor Pass (any attraction town, 10 points)"."""
    card = tourist_card(c.gmap, card_id) or {}
    if card.get("kind") == "visitor_pass":
        return f"Visitor Pass (any attraction town, {card.get('points', 10)} points)"
    return f"{card.get('name', 'a tourist card')} ({c.city(card.get('city'))}, {card.get('points', 0)} points)"


def card_line(c: Ctx, card_id: str, done: bool) -> str:
    """One tourist card in a hand: what it is, where, its value, and visited or not yet."""
    return f"{card_text(c, card_id)}: {'visited' if done else 'not yet'}"


@presents(TouristCards)
class TouristWords(TicketWords):
    events = {
        "shuffle": hidden(),
        "tickets_offered": private(offered),
        "tickets_boxed": public(tickets_boxed),
        "lucky_devil_played": public(devil_played),
        "lucky_devil_resolved": private(devil_resolved),
        "tickets_drawn": public(drawn),
        "tickets_kept": public(kept),
        "tickets_chosen": private(chosen),
    }
    folds = {("tickets_drawn", "tickets_kept"): drawn_then_kept,
             # told to the player: the cards by name
             ("tickets_kept", "tickets_chosen"): lambda first, second, c, who: chosen(second, c, who),
             ("lucky_devil_played", "lucky_devil_resolved"): lambda first, second, c, who: devil_resolved(
                 second, c, who)}
    actions = {
        "draw_tickets": Doing(draw_label, "Tickets", "🎫"),
        "keep_tickets": Doing(keep_label, "Choose cards", "🎫", "primary"),
        "play_lucky_devil": Doing(devil_label, "Lucky Devil", "😈", "primary"),
    }

    def status(self, c: Ctx, seat: int) -> list[str]:
        part = c.v.part(TouristView)
        counts = part.counts if part is not None else ()
        n = counts[seat] if seat < len(counts) else 0
        return [*super().status(c, seat), plural(n, "tourist card")]

    def table(self, c: Ctx) -> list[str]:
        part = c.v.part(TouristView)
        if part is None:
            return super().table(c)
        return [f"{super().table(c)[0]} · tourist cards left: {part.deck}"]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        lines = self.ticket_lines(c, me.tickets or (), me.completed)
        part = c.v.part(TouristView)
        mine = list(part.mine or ()) if part is not None else []
        done = part.completed if part is not None else frozenset()
        if mine:
            lines.append(f"🏰 Tourist cards ({sum(1 for x in mine if x in done)} of {len(mine)} visited):")
            lines += [f"  {'✅' if x in done else '⬜'} {card_line(c, x, x in done)}" for x in mine]
        else:
            lines.append("🏰 Tourist cards: none yet")
        return lines + self.offered(c)

    def offered(self, c: Ctx) -> list[str]:
        pending = c.v.pending
        mine = pending.offers[c.v.you] if pending.offers is not None and c.v.you is not None \
            and c.v.you < len(pending.offers) else None
        if not isinstance(mine, Mapping):
            return super().offered(c)
        tickets, tourist, devils = (list(mine.get(k) or ()) for k in ("tickets", "tourist", "devils"))
        if not (tickets or tourist or devils):
            return []
        lines = [f"🎫 Offered to you now ({keep_both(c, len(tickets), len(tourist))}):"]
        lines += [f"  • ticket {c.ticket(t)}" for t in tickets]
        lines += [f"  • tourist card {card_text(c, t)}" for t in tourist]
        if devils:
            lines.append(f"  • {plural(len(devils), 'Lucky Devil')}: play it first (it may throw away one attraction "
                         "card, with no penalty)")
        return lines

    def turn_options(self, c: Ctx) -> list[str]:
        module = self.module
        assert isinstance(module, TouristCards)
        if c.dice:
            return []
        n = sum(k for _, k in module.draw)
        return [c.t("rules.tourist.option", tickets=c.n("rules.tourist.destination_tickets", n),
                    cards=c.n("rules.tourist.cards", module.draw_tourist), keep=module.draw_keep)]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        module = self.module
        assert isinstance(module, TouristCards)
        tickets = [
            c.t("rules.tourist.deal", tickets=c.n("rules.tourist.tickets", sum(n for _, n in module.setup_deal)),
                cards=c.n("rules.tourist.cards", module.setup_tourist), keep=module.setup_keep),
            *self.turn_options(c), c.t("rules.tourist.ticket_scoring")]
        if c.dice:
            tickets.append(c.t("rules.tourist.dice"))
        tourist = [c.t("rules.tourist.what"), c.t("rules.tourist.visitor_pass"), c.t("rules.tourist.lucky_devil"),
                   c.t("rules.tourist.hand")]
        return {"tickets": tickets, "tourist": tourist}

    def overview(self, c: Ctx) -> list[str]:
        return [c.t("rules.overview.tourist")]

    def sheet(self, c: Ctx, sheet: Mapping[str, Any]) -> list[str]:
        lines = super().sheet(c, sheet)
        rows = sheet.get("tourist") or []
        if rows:
            lines.append("🏰 " + " · ".join(("✅ " if r.get("completed") else "❌ ") + c.ticket(r.get("id"))
                                            for r in rows))
        return lines
