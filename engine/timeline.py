"""A finished game as the table saw it, move by move: the public views a replay is drawn from.

A game is its seed plus its actions, so replaying them gives every state the game went through.
`public_timeline` keeps one public view (`view(state, None)`: no hand, no ticket, no deck) per
claim, station or route removed — taken when the turn that made it is over, so a claim's
passengers (Germany) or a tunnel's payment are settled in the picture — plus the board before
the first of them and the final board. A move taken back (`move_undone`) drops its picture: the
replay shows the game that was played. The seed never leaves this function.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.chance import ChanceSource
from engine.core import GameOver, MoveUndone, TurnStarted
from engine.events import PUBLIC, Payload
from engine.game import apply, new_game, view
from engine.rules.controller import RouteRemoved
from engine.rules.routes import RouteClaimed
from engine.rules.stations import StationBuilt
from engine.view import View

# The events after which the turn that made a move is over (the next one began, or the game ended).
SETTLED = (TurnStarted, GameOver)


def _marked(payload: Payload) -> tuple[str, str, int] | None:
    """What a public event marks on the replay's board (a route or a city), and by whom."""
    match payload:
        case RouteClaimed(route=route, player=seat) | RouteRemoved(route=route, player=seat):
            return "route", route, seat
        case StationBuilt(city=city, player=seat):
            return "city", city, seat
    return None


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """One picture of a replay: the public view after a move, the routes and cities the move
    marked (empty for the first and the final picture), and who made it (None: nobody)."""

    view: View
    routes: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    seat: int | None = None


def public_timeline(variant: str, players: int, seed: int, actions: Iterable[Action | Mapping[str, Any]],
                    options: Mapping[str, Any] | None = None, names: Sequence[str] | None = None,
                    chance: ChanceSource | None = None) -> list[TimelineStep]:
    """The public pictures of a game replayed from its seed and actions (see the module's
    docstring): the board before the first move shown, one step per claim, station or removed
    route, and the final board. Only public views are returned."""
    state, _ = new_game(variant, players, seed, options, names=names, chance=chance)
    steps: list[TimelineStep] = []
    marks: list[tuple[str, str, int | None]] = []  # (kind, id, seat) waiting for their turn to end
    for action in actions:
        before = state
        state, events = apply(state, action, chance)
        for e in events:
            if isinstance(e.payload, MoveUndone):
                marks.clear()
                if len(steps) > 1:
                    steps.pop()
            mark = _marked(e.payload) if e.visibility == PUBLIC else None
            if mark is not None:
                if not steps:
                    steps.append(TimelineStep(view(before, None)))
                marks.append(mark)
        if marks and (state.status == "over" or any(isinstance(e.payload, SETTLED) for e in events)):
            steps.append(TimelineStep(
                view(state, None),
                routes=tuple(i for f, i, _ in marks if f == "route"),
                cities=tuple(i for f, i, _ in marks if f == "city"),
                seat=marks[0][2]))
            marks.clear()
    if marks:  # a game cut short mid-turn still shows its last move
        steps.append(TimelineStep(view(state, None), tuple(i for f, i, _ in marks if f == "route"),
                                  tuple(i for f, i, _ in marks if f == "city"), marks[0][2]))
    steps.append(TimelineStep(view(state, None)))
    if len(steps) == 1:  # nothing was ever claimed: the board as the game began, and as it ended
        steps.insert(0, TimelineStep(view(new_game(variant, players, seed, options, names=names,
                                                   chance=chance)[0], None)))
    return steps
