"""Words for destination tickets (engine/rules/tickets.py): the opening choice, drawing more,
announcing a mix (Germany), what a hand holds, and the tickets revealed at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot_app.presentation.words.base import (
    YOU,
    Ctx,
    Doing,
    Event,
    Words,
    hidden,
    joined,
    plural,
    presents,
    private,
    public,
)
from engine.actions import Action, DrawTickets, KeepTickets
from engine.rules.tickets import (
    BOX,
    SHUFFLE,
    ChooseTickets,
    DestinationTickets,
    TicketsBoxed,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TicketsOffered,
)


def mix_text(mix: Any, c: Ctx | None = None) -> str:
    """An announced mix: "2 short and 2 long" (in `c`'s language, else English)."""
    if c is None or c.lang.code == "en":
        return joined(f"{n} {deck}" for deck, n in (mix or ()) if isinstance(n, int) and n)
    return c.joined(c.t("tickets.mix_part", n=n, deck=deck_word(c, deck)) for deck, n in (mix or ())
                    if isinstance(n, int) and n)


def tickets_drawn(e: Event, c: Ctx, who: str) -> str | None:
    drew = e.of(TicketsDrawn)
    if drew is None:
        return None
    n, mix = drew.count, drew.mix or []
    detail = f" ({mix_text(mix, c)})" if len([m for m in mix if m and m[1]]) > 1 else ""
    if who == YOU:
        return c.n("tickets.drew.you", n, detail=detail)
    return c.n("tickets.drew", n, who=who, detail=detail)


def kept_text(kept: int, returned: int, what: str = "ticket") -> str:
    if not kept:
        return f"kept no {what}s" + (f" and returned {returned}" if returned else "")
    if not returned:
        return f"kept {'all ' if kept > 1 else ''}{plural(kept, what)}" if kept > 1 else f"kept {plural(kept, what)}"
    return f"kept {plural(kept, what)} and returned {returned}"


def tickets_kept(e: Event, c: Ctx, who: str) -> str | None:
    keep = e.of(TicketsKept)
    if keep is None:
        return None
    kept, returned = keep.kept, keep.returned
    you = ".you" if who == YOU else ""
    if not kept:
        return c.t(("tickets.kept_none_returned" if returned else "tickets.kept_none") + you, who=who,
                   returned=returned)
    if not returned:
        return c.n("tickets.kept_all" + you, kept, who=who)
    return c.n("tickets.kept_returned" + you, kept, who=who, returned=returned)


def drawn_then_kept(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    drew, keep = first.of(TicketsDrawn), second.of(TicketsKept)
    if drew is None or keep is None or drew.player != keep.player or c.lang.code != "en":
        return None  # one sentence in English; two elsewhere (the verbs of the two halves differ per person)
    return f"{tickets_drawn(first, c, who)} and {then_kept(keep)}"


def then_kept(keep: TicketsKept) -> str:
    """How a draw ended: "kept 2 (returned 1)", "kept them all", "kept none"."""
    kept, returned = keep.kept, keep.returned
    if not kept:
        then = "kept none"
    elif not returned:
        then = "kept them all" if kept > 1 else "kept it"
    else:
        then = f"kept {kept} (returned {returned})"
    return then


def keep_words(n: int, total: int) -> str:
    if n <= 0:
        return "keep any of them, or none"
    if n >= total:
        return "keep them all"
    return f"keep at least {n}"


def tickets_offered(e: Event, c: Ctx, who: str) -> str | None:
    offer = e.of(TicketsOffered)
    if offer is None:
        return None
    tickets, keep = offer.tickets, offer.keep or 0
    listed = "; ".join(c.ticket(t) for t in tickets)
    return c.t("tickets.offered", tickets=listed, keep=keep_in(c, keep, len(tickets)))


def keep_in(c: Ctx, n: int, total: int) -> str:
    """`keep_words` in the reader's language."""
    if n <= 0:
        return c.t("tickets.keep_any")
    if n >= total:
        return c.t("tickets.keep_all")
    return c.t("tickets.keep_at_least", n=n)


def tickets_chosen(e: Event, c: Ctx, who: str) -> str | None:
    choice = e.of(TicketsChosen)
    if choice is None:
        return None
    kept = "; ".join(c.ticket(t) for t in choice.kept)
    returned = "; ".join(c.ticket(t) for t in choice.returned or [])
    key = "tickets.chose" if kept else "tickets.chose_none"
    return c.say(key + ("_returned" if returned else ""), who, kept=kept, returned=returned)


def deck_word(c: Ctx, deck: str) -> str:
    """A ticket deck's name ("short", "long") in the reader's language, where converted."""
    return c.t(f"tickets.deck.{deck}") if c.lang.has(f"tickets.deck.{deck}") else deck


def tickets_boxed(e: Event, c: Ctx, who: str) -> str | None:
    boxed = e.of(TicketsBoxed)
    if boxed is None:
        return None
    n, deck = boxed.count, boxed.deck
    if c.lang.code != "en" and deck != "main":  # one deck: English for now
        return c.n("tickets.boxed", n, deck=deck_word(c, deck))
    kind = f"{deck} " if deck != "main" else ""
    return f"The {plural(n, kind + 'ticket')} nobody was dealt went back in the box"


def draw_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, DrawTickets)
    if a.mix:
        return c.t("tickets.draw_mix_label", mix=mix_text(a.mix, c))
    module = c.rules.module("tickets")
    n = sum(k for _, k in getattr(module, "draw", ())) or 3
    return c.n("tickets.draw_label", n)


def keep_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, KeepTickets)
    if not a.keep:
        return c.t("tickets.keep_none_label")
    return c.t("tickets.keep_label", tickets="; ".join(c.ticket(t) for t in a.keep))


def _choose_waiting(c: Ctx, who: str) -> str:
    pending = c.v.pending
    if isinstance(pending.decision, ChooseTickets) and pending.decision.setup and pending.decision.announce:
        return c.t("waiting.announce_tickets", who=who)
    if pending.setup:
        return c.t("waiting.opening_tickets", who=who)
    return c.t("waiting.keep_tickets", who=who)


def returns_text(c: Ctx, where: str) -> str:
    """Where returned tickets go ("go back in the box"), after "Returned tickets"."""
    return c.t({BOX: "rules.tickets.return_box", SHUFFLE: "rules.tickets.return_shuffle"}.get(
        where, "rules.tickets.return_under"))


def decks_text(c: Ctx, decks: Sequence[str]) -> str:
    """"long and short": ticket decks by name, in the reader's language."""
    return c.joined(deck_word(c, deck) for deck in decks)


def one_of_each(c: Ctx, decks: Sequence[str]) -> str:
    """"one long and one short": a ticket of each deck."""
    return c.joined(c.t(f"rules.tickets.one.{deck}") if c.lang.has(f"rules.tickets.one.{deck}")
                    else c.t("rules.tickets.one", deck=deck) for deck in decks)


def announced_mix(c: Ctx) -> str:
    """"you say first how many long and how many short" where a ticket draw announces its mix
    (Germany, G5), with cards or with dice (D7); empty elsewhere."""
    tickets = c.rules.module("tickets")
    if getattr(tickets, "announced_draw", None) is None:
        return ""
    return c.t("rules.tickets.mix", decks=c.joined(c.t("rules.tickets.how_many", deck=deck_word(c, deck))
                                                   for deck in sorted(c.gmap.deck_names())))


def draw_decks(c: Ctx) -> str:
    """" from the short deck" where a board has several ticket decks and a draw takes from some
    of them only (Europe, USSR); empty elsewhere."""
    tickets = c.rules.module("tickets")
    drawn = [deck for deck, _ in getattr(tickets, "draw", ())]
    if not drawn or set(drawn) >= set(c.gmap.deck_names()):
        return ""
    return c.n("rules.tickets.from_decks", len(drawn), decks=decks_text(c, drawn))


@presents(DestinationTickets)
class TicketWords(Words):
    events = {
        "shuffle": hidden(),
        "tickets_offered": private(tickets_offered),
        "tickets_boxed": public(tickets_boxed),
        "tickets_drawn": public(tickets_drawn),
        "tickets_kept": public(tickets_kept),
        "tickets_chosen": private(tickets_chosen),
    }
    folds = {("tickets_drawn", "tickets_kept"): drawn_then_kept,
             # told to the player: which tickets says more than how many
             ("tickets_kept", "tickets_chosen"): lambda first, second, c, who: tickets_chosen(second, c, who)}
    actions = {
        "draw_tickets": Doing(draw_label, "Tickets", "🎫", key="button.tickets"),
        "keep_tickets": Doing(keep_label, "Choose tickets", "🎫", "primary", key="button.choose_tickets"),
    }
    waiting = {"choose_tickets": _choose_waiting}

    @property
    def r(self) -> DestinationTickets:
        assert isinstance(self.module, DestinationTickets)
        return self.module

    def status(self, c: Ctx, seat: int) -> list[str]:
        return [c.n("status.tickets", c.v.players[seat].ticket_count)]

    def table(self, c: Ctx) -> list[str]:
        decks = {k: n for k, n in c.v.ticket_decks.items() if n}
        if not decks:
            return [c.t("status.tickets_left", left=c.t("cards.none_held"))]
        if len(c.v.ticket_decks) == 1:
            return [c.t("status.tickets_left", left=c.lang.number(sum(decks.values())))]
        return [c.t("status.tickets_left", left=", ".join(f"{c.lang.number(n)} {deck_word(c, k)}"
                                                         for k, n in sorted(decks.items(), reverse=True)))]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        lines = self.ticket_lines(c, me.tickets or (), me.completed)
        offer = self.offered(c)
        return lines + offer

    def ticket_lines(self, c: Ctx, tickets: Sequence[str], done: frozenset[str] | set[str]) -> list[str]:
        if not tickets:
            return [c.t("hand.no_tickets")]
        finished = sum(1 for t in tickets if t in done)
        lines = [c.t("hand.tickets", done=finished, total=len(tickets))]
        for t in tickets:
            lines.append(f"  {'✅' if t in done else '⬜'} {c.ticket(t)}")
        return lines

    def minimum(self, c: Ctx, offer: Sequence[str]) -> int:
        setup = c.v.pending.setup
        return min(self.r.setup_keep if setup else self.r.draw_keep, len(offer))

    def offered(self, c: Ctx) -> list[str]:
        offer = c.v.pending.offer_of(c.v.you)
        if not offer:
            return []
        listed = [f"  • {c.ticket(t)}" for t in offer]
        return [c.t("hand.offered", keep=keep_in(c, self.minimum(c, offer), len(offer))), *listed]

    def turn_options(self, c: Ctx) -> list[str]:
        if c.dice:
            return []
        r = self.r
        if r.announced_draw:
            return [c.n("rules.tickets.option_announced", r.announced_draw,
                        decks=decks_text(c, sorted(c.gmap.deck_names())), keep=r.draw_keep)]
        n = sum(k for _, k in r.draw)
        return [c.n("rules.tickets.option", n, decks=draw_decks(c), keep=r.draw_keep)]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        r = self.r
        decks = c.gmap.deck_names()
        if r.setup_announced:
            deal = c.n("rules.tickets.deal_announced", r.setup_announced, decks=decks_text(c, sorted(decks)),
                       keep=r.setup_keep)
        else:
            if r.setup_keep_each and r.setup_keep <= len(r.setup_keep_each):
                keep = c.t("rules.tickets.keep_each", each=one_of_each(c, r.setup_keep_each))
            elif r.setup_keep_each:
                keep = c.t("rules.tickets.keep_with", n=r.setup_keep, each=one_of_each(c, r.setup_keep_each))
            else:
                keep = c.t("rules.tickets.keep_least", n=r.setup_keep)
            if len(decks) > 1:
                dealt = c.joined(c.n(f"rules.tickets.dealt.{deck}", n) if c.lang.has(f"rules.tickets.dealt.{deck}")
                                 else c.n("rules.tickets.dealt_part", n, deck=deck) for deck, n in r.setup_deal)
                deal = c.t("rules.tickets.deal_decks", dealt=dealt, keep=keep)
            else:
                deal = c.n("rules.tickets.deal", sum(n for _, n in r.setup_deal), keep=keep)
        if r.setup_returns == r.draw_returns:
            returns = c.t("rules.tickets.returns", where=returns_text(c, r.draw_returns))
        else:
            returns = c.t("rules.tickets.returns_setup", start=returns_text(c, r.setup_returns),
                          later=returns_text(c, r.draw_returns))
        text = [deal + " " + c.t("rules.tickets.at_once"), returns]
        boxed = [deck for deck in r.boxed_after_deal if deck in decks]
        if boxed:
            text.append(c.t("rules.tickets.boxed", decks=decks_text(c, boxed)))
        if c.dice:
            mix = announced_mix(c)
            text.append(c.t("rules.tickets.dice_mix" if mix else "rules.tickets.dice", decks=draw_decks(c), mix=mix))
        else:
            text.extend(self.turn_options(c))
        text.append(c.t("rules.tickets.scoring"))
        if c.gmap.country_ids:
            text.append(c.t("rules.tickets.countries"))
        return {"tickets": text}

    def sheet(self, c: Ctx, sheet: Mapping[str, Any]) -> list[str]:
        rows = sheet.get("tickets") or []
        if not rows:
            return []
        shown = " · ".join(("✅ " if t.get("completed") else "❌ ") + c.ticket(t.get("id")) for t in rows)
        lines = [f"🎫 {shown}"]
        loans = sheet.get("station_loans") or {}
        if loans:
            lines.append(c.t("tickets.stations_lent", routes="; ".join(
                c.t("tickets.lent_at", route=c.route(route), city=c.city(city)) for city, route in loans.items())))
        return lines
