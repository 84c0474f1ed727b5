"""Taking no action: under dice the action is optional (D12), so `pass` is always legal in
`dice_roll` and `dice_action`. When a whole round has gone by idly and nobody can claim, draw
a ticket or build a station any more, nothing can ever change again: the game ends (X4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, Pass
from engine.core import DEADLOCK, Deadlock, Passed
from engine.rules.dice.faces import as_length, claim_length
from engine.rules.dice.purse import dice_data
from engine.rules.dice.stations import board_stations
from engine.rules.dice.tickets import ticket_decks
from engine.rules.module import RuleModule
from engine.rules.routes import open_route_test
from engine.rules.stations import _station_cities

if TYPE_CHECKING:
    from engine.core import Game


@dataclasses.dataclass(frozen=True)
class DiceNoAction(RuleModule):
    """`pass` instead of the turn's action; ends a game nobody can move in."""

    name: ClassVar[str] = "dice_no_action"
    events: ClassVar[tuple[str, ...]] = ("passed", "deadlock")
    actions: ClassVar = {"dice_roll": (Pass,), "dice_action": (Pass,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        return [Pass(seat)]

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, Pass)
        game.emit(Passed(player=action.player))
        if _deadlocked(game):
            game.emit(Deadlock(text=DEADLOCK))
            game.state.passes_in_a_row = game.n_players
            game.finish_game()
            return
        game.end_turn()


def _deadlocked(game: Game) -> bool:
    """Nothing can ever change: no player can claim, draw tickets or build (X4)."""
    # Checked only after a round of idle turns: the full check walks every route per seat.
    if dice_data(game).get("idle_turns", 0) + 1 < game.n_players:
        return False
    _, order = ticket_decks(game)
    if any(game.state.ticket_decks.get(d) for d in order):
        return False
    stations = board_stations(game)
    free_city = stations is not None and any(c not in game.state.stations for c in _station_cities(game))
    for seat in range(game.n_players):
        if free_city and game.player(seat).stations > 0:
            return False
        is_open = open_route_test(game, seat)
        for route in game.map.routes.values():
            n = claim_length(game, route)
            if n is not None and is_open(as_length(route, n)):
                return False
    return True
