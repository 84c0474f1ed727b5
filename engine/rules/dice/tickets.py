"""Drawing destination tickets with dice: one ticket per station (or wild) face; the player
may keep any number of them, 0 included (D7: `with_dice` sets the tickets module's
`draw_keep` to 0, and that module handles the choice)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, register
from engine.cards import Cards, cards, count
from engine.errors import IllegalAction
from engine.rules.dice.faces import STATION, WILD, face_counts
from engine.rules.dice.purse import spend, this_turn, unused_dice
from engine.rules.module import RuleModule
from engine.rules.tickets import DestinationTickets

if TYPE_CHECKING:
    from engine.game import Game


@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class DrawTicketsWithDice(Action):
    """Draw one destination ticket per station (or wild) face in `payment`."""

    TYPE: ClassVar[str] = "draw_tickets_dice"
    DOES: ClassVar[str] = "draw tickets with dice"
    payment: Cards = ()


def ticket_decks(game: Game) -> tuple[DestinationTickets, list[str]]:
    """The tickets module and the decks a dice draw takes from, in order: the map's draw
    decks, else every deck (short ones first)."""
    tickets = game.rules.module("tickets")
    assert isinstance(tickets, DestinationTickets)
    order = [name for name, _ in tickets.draw] or sorted(game.state.ticket_decks, key=lambda d: (d != "short", d))
    return tickets, order


@dataclasses.dataclass(frozen=True)
class DiceTickets(RuleModule):
    """`draw_tickets_dice` as the turn's action; the offer then waits in `choose_tickets`."""

    name: ClassVar[str] = "dice_tickets"
    events: ClassVar[tuple[str, ...]] = ("tickets_drawn", "tickets_offered")
    actions: ClassVar = {"dice_roll": (DrawTicketsWithDice,), "dice_action": (DrawTicketsWithDice,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        _, order = ticket_decks(game)
        left = sum(len(game.state.ticket_decks.get(d, [])) for d in order)
        have = face_counts(unused_dice(game, seat))
        out: list[Action] = []
        for st in range(have.get(STATION, 0) + 1):
            for w in range(have.get(WILD, 0) + 1):
                if 1 <= st + w <= left:
                    out.append(DrawTicketsWithDice(seat, cards({STATION: st, WILD: w})))
        return out

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
        spend(game, seat, action.payment, {STATION, WILD}, None)
        this_turn(game)["acted"] = True
        offer: list[str] = []
        for deck in order:
            offer.extend(tickets._take(game, deck, n - len(offer)))
        offers: list[Any] = [None] * game.n_players
        offers[seat] = offer
        game.emit("tickets_drawn", player=seat, count=len(offer), mix=[])
        game.tell(seat, "tickets_offered", tickets=list(offer), keep=0)
        game.set_pending("choose_tickets", offers=offers, setup=False)
