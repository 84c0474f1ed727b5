"""Words for Alsace's tickets and tourist cards (engine/rules/tourist_cards.py): both dealt and
drawn together, the Lucky Devil, the tourist cards in a hand (attraction, town, value, visited
or not yet) and at the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_app.presentation.words.base import (
    Ctx,
    Doing,
    Event,
    hidden,
    presents,
    private,
    public,
    tourist_card,
)
from bot_app.presentation.words.tickets import TicketWords, tickets_boxed
from engine.actions import Action, DrawTickets, KeepTickets
from engine.rules.tickets import ChooseTickets, TicketsChosen, TicketsDrawn, TicketsKept, TicketsOffered
from engine.rules.tourist_cards import LuckyDevilPlayed, LuckyDevilResolved, PlayLuckyDevil, TouristCards, TouristView


def _is_tourist(c: Ctx, card_id: Any) -> bool:
    return tourist_card(c.gmap, card_id) is not None


def _setup_now(c: Ctx, n_tickets: int) -> bool:
    """Whether an offer of this size is the opening one (the view says so while it waits)."""
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    if c.view is not None and isinstance(c.view.pending.decision, ChooseTickets):
        return c.view.pending.decision.setup
    return n_tickets > sum(n for _, n in module.draw)


def _minimums(c: Ctx, n_tickets: int, n_tourist: int) -> tuple[int, int]:
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    if _setup_now(c, n_tickets):
        return min(module.setup_keep, n_tickets), min(module.setup_tourist_keep, n_tourist)
    return min(module.draw_keep, n_tickets), min(module.draw_tourist_keep, n_tourist)


def upper_first(text: str) -> str:
    """The text with its first letter a capital (the rest as it is: German nouns keep theirs)."""
    return text[:1].upper() + text[1:]


def keep_both(c: Ctx, n_tickets: int, n_tourist: int) -> str:
    t, k = _minimums(c, n_tickets, n_tourist)
    parts = []
    if n_tickets and t:
        parts.append(c.n("tourist.n_tickets", t))
    if n_tourist and k:
        parts.append(c.n("tourist.n_cards", k))
    if not parts:
        return c.t("tickets.keep_any")
    return c.t("tourist.keep_at_least", what=c.joined(parts))


def offered(e: Event, c: Ctx, who: str) -> str | None:
    offer = e.of(TicketsOffered)
    if offer is None:
        return None
    tickets, tourist, devils = offer.tickets, offer.tourist or [], offer.devils or 0
    parts = []
    if tickets:
        parts.append(c.t("tourist.offered_tickets", tickets="; ".join(c.ticket(t) for t in tickets)))
    if tourist:
        parts.append(c.t("tourist.offered_cards", cards="; ".join(c.ticket(t) for t in tourist)))
    if devils:
        parts.append(c.n("tourist.devils_came", devils))
    if not parts:
        return c.t("tourist.nothing_offered")
    return " ".join(parts) + f" {upper_first(keep_both(c, len(tickets), len(tourist)))}."


def drawn(e: Event, c: Ctx, who: str) -> str | None:
    drew = e.of(TicketsDrawn)
    if drew is None:
        return None
    return c.say("tourist.drew", who, tickets=c.n("tourist.n_destination", drew.count),
                 cards=c.n("tourist.n_cards", drew.tourist or 0))


def _some(c: Ctx, kept: int, returned: int, what: str) -> str:
    """"2 tickets (1 returned)", "no tourist cards" (`what`: "tickets" or "cards")."""
    text = c.n(f"tourist.n_{what}", kept) if kept else c.t(f"tourist.no_{what}")
    return c.t("tourist.returned", what=text, n=returned) if returned else text


def kept(e: Event, c: Ctx, who: str) -> str | None:
    keep = e.of(TicketsKept)
    if keep is None:
        return None
    tickets = _some(c, keep.kept, keep.returned, "tickets")
    tourist = _some(c, keep.tourist_kept or 0, keep.tourist_returned or 0, "cards")
    return c.say("tourist.kept", who, tickets=tickets, cards=tourist)


def drawn_then_kept(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    drew, keep = first.of(TicketsDrawn), second.of(TicketsKept)
    if drew is None or keep is None or drew.player != keep.player or c.lang.code != "en":
        return None  # one sentence in English; two elsewhere (the verbs of the two halves differ per person)
    return f"{drawn(first, c, who)}, then {(kept(second, c, who) or '').removeprefix(who + ' ')}"


def _named(c: Ctx, cards: list[str], what: str) -> str:
    """"tickets A; B", "no tourist cards" (`what`: "tickets" or "cards")."""
    return c.t(f"tourist.{what}_named", names="; ".join(cards)) if cards else c.t(f"tourist.no_{what}")


def chosen(e: Event, c: Ctx, who: str) -> str | None:
    choice = e.of(TicketsChosen)
    if choice is None:
        return None
    tickets = [c.ticket(t) for t in choice.kept]
    tourist = [c.ticket(t) for t in choice.tourist or []]
    return c.say("tourist.kept", who, tickets=_named(c, tickets, "tickets"), cards=_named(c, tourist, "cards"))


def devil_played(e: Event, c: Ctx, who: str) -> str | None:
    play = e.of(LuckyDevilPlayed)
    if play is None:
        return None
    return c.say("tourist.devil_threw" if play.discarded else "tourist.devil_kept", who)


def devil_resolved(e: Event, c: Ctx, who: str) -> str | None:
    devil = e.of(LuckyDevilResolved)
    if devil is None:
        return None
    gone = devil.discarded
    if gone:
        return c.say("tourist.devil_gone", who, card=c.ticket(gone))
    return c.say("tourist.devil_spared", who)


def devil_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PlayLuckyDevil)
    if not a.discard:
        return c.t("tourist.devil_keep_label")
    return c.t("tourist.devil_throw_label", card=c.ticket(a.discard))


def keep_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, KeepTickets)
    tickets = [c.ticket(t) for t in a.keep if not _is_tourist(c, t)]
    tourist = [c.ticket(t) for t in a.keep if _is_tourist(c, t)]
    return c.t("tourist.keep_label", tickets=_named(c, tickets, "tickets"), cards=_named(c, tourist, "cards"))


def draw_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, DrawTickets)
    module = c.rules.module("tickets")
    assert isinstance(module, TouristCards)
    n = sum(k for _, k in module.draw)
    return c.t("tourist.draw_label", tickets=c.n("tourist.n_destination", n),
               cards=c.n("tourist.n_cards", module.draw_tourist))


def card_text(c: Ctx, card_id: str) -> str:
    """A tourist card: "Zoo (Mulhouse, 3 points)", "Visitor Pass (any attraction town, 10 points)"."""
    card = tourist_card(c.gmap, card_id) or {}
    if card.get("kind") == "visitor_pass":
        return c.t("tourist.pass_text", points=c.n("tourist.points", int(card.get("points", 10))))
    return c.t("tourist.card_text", name=card.get("name") or c.t("tourist.a_card"), city=c.city(card.get("city")),
               points=c.n("tourist.points", int(card.get("points", 0))))


def card_line(c: Ctx, card_id: str, done: bool) -> str:
    """One tourist card in a hand: what it is, where, its value, and visited or not yet."""
    return f"{card_text(c, card_id)}: {c.t('tourist.visited' if done else 'tourist.not_yet')}"


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
        "draw_tickets": Doing(draw_label, "Tickets", "🎫", key="button.tickets"),
        "keep_tickets": Doing(keep_label, "Choose cards", "🎫", "primary", key="button.choose_cards"),
        "play_lucky_devil": Doing(devil_label, "Lucky Devil", "😈", "primary", key="button.lucky_devil"),
    }

    def status(self, c: Ctx, seat: int) -> list[str]:
        part = c.v.part(TouristView)
        counts = part.counts if part is not None else ()
        n = counts[seat] if seat < len(counts) else 0
        return [*super().status(c, seat), c.n("tourist.status_cards", n)]

    def table(self, c: Ctx) -> list[str]:
        part = c.v.part(TouristView)
        if part is None:
            return super().table(c)
        return [f"{super().table(c)[0]} · {c.t('tourist.deck_left', n=part.deck)}"]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        lines = self.ticket_lines(c, me.tickets or (), me.completed)
        part = c.v.part(TouristView)
        mine = list(part.mine or ()) if part is not None else []
        done = part.completed if part is not None else frozenset()
        if mine:
            lines.append(c.t("tourist.hand_head", done=sum(1 for x in mine if x in done), n=len(mine)))
            lines += [f"  {'✅' if x in done else '⬜'} {card_line(c, x, x in done)}" for x in mine]
        else:
            lines.append(c.t("tourist.hand_none"))
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
        lines = [c.t("tourist.offer_head", keep=keep_both(c, len(tickets), len(tourist)))]
        lines += [f"  • {c.t('tourist.offer_ticket', ticket=c.ticket(t))}" for t in tickets]
        lines += [f"  • {c.t('tourist.offer_card', card=card_text(c, t))}" for t in tourist]
        if devils:
            lines.append(f"  • {c.n('tourist.offer_devils', len(devils))}")
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
