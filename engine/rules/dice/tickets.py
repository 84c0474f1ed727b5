"""Drawing destination tickets with dice: one ticket per station (or wild) face; the player
may keep any number of them, 0 included (D7: `with_dice` sets the tickets module's
`draw_keep` to 0, and that module handles the choice).

Where the board's rules have the player announce which decks a draw comes from (Germany's
short and long decks, `DestinationTickets.announced_draw`), a dice draw announces its `mix`
too: how many of its tickets come from each deck, in any combination (D7, revised). Elsewhere
the tickets come from the map's draw decks (short ones first) and `mix` stays empty."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, register
from engine.cards import Cards, cards, count
from engine.errors import IllegalAction, excerpt
from engine.rules.dice.faces import N_DICE, STATION, WILD, face_counts
from engine.rules.dice.purse import spend, this_turn, unused_dice
from engine.rules.module import RuleModule
from engine.rules.tickets import DestinationTickets, TicketsDrawn, TicketsOffered, parse_mix

if TYPE_CHECKING:
    from engine.core import Game


@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class DrawTicketsWithDice(Action):
    """Draw one destination ticket per station (or wild) face in `payment`."""

    TYPE: ClassVar[str] = "draw_tickets_dice"
    DOES: ClassVar[str] = "draw tickets with dice"
    payment: Cards = ()
    mix: tuple[tuple[str, int], ...] = ()  # announced (deck, count) pairs, where the rules ask


def ticket_decks(game: Game) -> tuple[DestinationTickets, list[str]]:
    """The tickets module and the decks a dice draw takes from, in order: the map's draw
    decks, else every deck (short ones first)."""
    tickets = game.rules.module("tickets")
    assert isinstance(tickets, DestinationTickets)
    order = [name for name, _ in tickets.draw] or sorted(game.state.ticket_decks, key=lambda d: (d != "short", d))
    return tickets, order


# The dice ticket draws per (seat, station faces, wild faces, mix announced, deck sizes).
_DRAWS: dict[tuple[int, int, int, bool, tuple[tuple[str, int], ...]], list[Action]] = {}


@dataclasses.dataclass(frozen=True)
class DiceTickets(RuleModule):
    """`draw_tickets_dice` as the turn's action; the offer then waits in `choose_tickets`."""

    name: ClassVar[str] = "dice_tickets"
    events: ClassVar[tuple[str, ...]] = ("tickets_drawn", "tickets_offered")
    actions: ClassVar = {"dice_roll": (DrawTicketsWithDice,), "dice_action": (DrawTicketsWithDice,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        tickets, order = ticket_decks(game)
        decks = game.state.ticket_decks
        have = face_counts(unused_dice(game, seat))
        announced = tickets.announced_draw is not None
        # What the listing depends on, with deck sizes clipped at the 5 dice: the draws are
        # made once per key and reused (actions are values; this runs at every decision).
        sizes = tuple((d, min(len(decks[d]), N_DICE)) for d in (sorted(decks) if announced else order) if d in decks)
        key = (seat, have.get(STATION, 0), have.get(WILD, 0), announced, sizes)
        hit = _DRAWS.get(key)
        if hit is None:
            left = sum(n for _, n in sizes)
            hit = []
            for st in range(have.get(STATION, 0) + 1):
                for w in range(have.get(WILD, 0) + 1):
                    if 1 <= st + w <= left:
                        payment = cards({STATION: st, WILD: w})
                        if announced:
                            hit.extend(DrawTicketsWithDice(seat, payment, mix)
                                       for mix in tickets.draw_mixes(game, st + w))
                        else:
                            hit.append(DrawTicketsWithDice(seat, payment))
            _DRAWS[key] = hit
        return list(hit)

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, DrawTicketsWithDice)
        seat = action.player
        n = count(action.payment)
        if n < 1 or any(name not in (STATION, WILD) for name, _ in action.payment):
            raise IllegalAction("Draw tickets with one or more station (or wild) dice.", "bad_payment")
        tickets, order = ticket_decks(game)
        decks = game.state.ticket_decks
        if sum(len(decks.get(d, [])) for d in order) < n:
            raise IllegalAction("There are not that many destination tickets left to draw.", "no_tickets")
        plan = self._plan(game, tickets, order, action, n)
        spend(game, seat, action.payment, {STATION, WILD}, None)
        this_turn(game)["acted"] = True
        offer: list[str] = []
        for deck, k in plan:
            offer.extend(tickets._take(game, deck, k))
        offers: list[list[str] | None] = [None] * game.n_players
        offers[seat] = offer
        game.emit(TicketsDrawn(player=seat, count=len(offer), mix=[list(m) for m in plan] if action.mix else []))
        game.tell(seat, TicketsOffered(tickets=list(offer), keep=0))
        game.set_pending("choose_tickets", offers=offers, setup=False)

    @staticmethod
    def _plan(game: Game, tickets: DestinationTickets, order: list[str], action: DrawTicketsWithDice,
              n: int) -> list[tuple[str, int]]:
        """The (deck, count) pairs to draw: the announced mix, or the draw decks in order."""
        decks = game.state.ticket_decks
        if tickets.announced_draw is None:
            if action.mix:
                raise IllegalAction("In this game you cannot choose which ticket deck a dice draw comes from.",
                                    "bad_mix")
            plan = []
            wanted = n
            for deck in order:
                k = min(wanted, len(decks.get(deck, [])))
                if k:
                    plan.append((deck, k))
                    wanted -= k
            return plan
        names = " and ".join(sorted(d for d in decks if decks[d]))
        if not action.mix:
            raise IllegalAction(f"Say how many of your {n} ticket{'' if n == 1 else 's'} come from each deck "
                                f"({names}).", "bad_mix")
        mix = parse_mix(action.mix)
        if mix not in tickets.draw_mixes(game, n):
            raise IllegalAction(_mix_refusal(decks, mix, n, names), "bad_mix")
        return list(mix)


def _mix_refusal(decks: dict[str, list[str]], mix: tuple[tuple[str, int], ...], n: int, names: str) -> str:
    for deck, k in mix:
        if deck not in decks:
            return f"There is no {excerpt(deck)} ticket deck."
        if k > len(decks[deck]):
            have = len(decks[deck])
            return f"The {deck} deck has only {have} ticket{'' if have == 1 else 's'} left."
    return f"Announce {n} ticket{'' if n == 1 else 's'} in all, one per die, from the {names} decks."
