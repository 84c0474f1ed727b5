"""Words for drawing tickets with dice (engine/rules/dice/tickets.py): one per station face."""

from __future__ import annotations

from bot_app.presentation.words.base import YOU, Ctx, Doing, Event, Words, deferred, plural, presents, public
from bot_app.presentation.words.dice_faces import faces_paid
from bot_app.presentation.words.tickets import announced_mix, draw_decks, mix_text, then_kept, tickets_drawn
from engine.actions import Action
from engine.cards import count
from engine.events import PRIVATE
from engine.rules.dice.tickets import DiceTickets, DrawTicketsWithDice
from engine.rules.tickets import TicketsDrawn, TicketsKept


def drawn(e: Event, c: Ctx, who: str) -> str | None:
    """A draw paid with dice names no decks (`mix` empty); one that does is the board's own
    draw (an announced opening deal), said as the tickets module says it."""
    drew = e.of(TicketsDrawn)
    if drew is None:
        return None
    if drew.mix:
        return tickets_drawn(e, c, who)
    n = drew.count
    dice = c.n("dice.die.station", n)
    if who == YOU:
        return c.n("dice.tickets_drew.you", n, dice=dice)
    return c.n("dice.tickets_drew", n, who=who, dice=dice)


def drawn_then_kept(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    drew, keep = first.of(TicketsDrawn), second.of(TicketsKept)
    if drew is None or keep is None or drew.player != keep.player or c.lang.code != "en":
        return None  # one sentence in English; two elsewhere (the verbs of the two halves differ per person)
    return f"{drawn(first, c, who)} and {then_kept(keep)}"


def label(a: Action, c: Ctx) -> str:
    """"draw 2 destination tickets (1 short and 1 long) with 1 station die and 1 wild die": where
    the mix is announced (Germany, D7) it tells apart draws paid with the same dice."""
    assert isinstance(a, DrawTicketsWithDice)
    mix = f" ({mix_text(a.mix, c)})" if a.mix else ""
    if c.lang.code == "en":
        return f"draw {plural(count(a.payment), 'destination ticket')}{mix} with {faces_paid(a.payment)}"
    return c.n("dice.tickets_label", count(a.payment), mix=mix, faces=faces_paid(a.payment, words=c.lang))


@presents(DiceTickets)
class DiceTicketWords(Words):
    # The offer reads as the board's tickets module says it (Alsace's comes with tourist cards).
    events = {"tickets_drawn": public(drawn), "tickets_offered": deferred(PRIVATE)}
    folds = {("tickets_drawn", "tickets_kept"): drawn_then_kept}
    actions = {"draw_tickets_dice": Doing(label, "Tickets", "🎫", key="button.tickets")}

    def turn_options(self, c: Ctx) -> list[str]:
        mix = announced_mix(c)
        return [c.t("rules.dice.option.tickets_mix" if mix else "rules.dice.option.tickets", decks=draw_decks(c),
                    mix=mix)]
