"""The USSR Controller (seed [U:11, 41, 62]; AMBIGUITIES U2, U3, U6, U7, U8).

Two Controller cards are shuffled into the train deck (U2). Drawn blind a Controller is one
card like any other; turned face up it flushes the display (U3: `TrainCardDraw.flush_cards`);
it never pays for a route, a tunnel or a station (`PaymentRule` and `Stations` accept only
colours and locomotives); revealed during a tunnel check it must be matched by a locomotive
(U7: `PaymentRule.tunnel_loco_only`, or the option's other reading `tunnel_match_as_loco`).

Played from the hand as a whole turn (`PlayController`), it then goes to the discard pile and
does one of two things to any route of up to `max_length` trains, ferries and tunnels included:

- **remove** (U6): a claimed route, anyone's. Its trains go back to the owner, the owner loses
  the points recorded for it (0 if it was itself built with a Controller), and the route is
  open again. A final round already triggered stays triggered.
- **build** (U8): a route the player could claim (the double/triple-route limits and the
  trains needed apply as for any claim). No other cards, no tunnel check, no ferry
  locomotives; 0 route points. The route is the player's for everything else (tickets, the
  longest railway, the most routes/tunnels/ferries, the end trigger).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, register
from engine.errors import IllegalAction
from engine.events import Payload
from engine.maps import Route
from engine.rules.module import RuleModule
from engine.rules.routes import (
    blocked_reason,
    complete_claim,
    find_route,
    open_route_test,
    route_name,
    unclaim_route,
)

if TYPE_CHECKING:
    from engine.core import Game


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ControllerPlayed(Payload):
    kind = "controller_played"
    player: int
    mode: str  # REMOVE or BUILD
    route: str


@dataclass(frozen=True, kw_only=True)
class RouteRemoved(Payload):
    kind = "route_removed"
    player: int
    route: str
    owner: int
    points: int
    trains: int


CONTROLLER = "controller"
REMOVE = "remove"
BUILD = "build"
MODES = (REMOVE, BUILD)


@register
@dataclass(slots=True, unsafe_hash=True)
class PlayController(Action):
    """Play a Controller card: `mode` "remove" (take a claimed route off the board) or
    "build" (claim an open route for no points), on `route` (its id)."""

    TYPE: ClassVar[str] = "play_controller"
    UNDOABLE: ClassVar[bool] = True
    mode: str = ""
    route: str = ""


@dataclass(frozen=True)
class Controller(RuleModule):
    """Play a Controller card as a whole turn to remove or build a route of up to
    `max_length` trains."""

    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion
    name: ClassVar[str] = "controller"
    events: ClassVar[tuple[str, ...]] = ("controller_played", "route_removed", "route_claimed")
    actions: ClassVar = {"turn": (PlayController,)}

    card: str = CONTROLLER
    max_length: int = 4

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        if game.player(seat).hand.get(self.card, 0) < 1:
            return []
        owner = game.state.route_owner
        is_open = open_route_test(game, seat)
        short = [r for r in game.map.routes.values() if r.length <= self.max_length]
        out: list[Action] = [PlayController(seat, REMOVE, r.id) for r in short if r.id in owner]
        out.extend(PlayController(seat, BUILD, r.id) for r in short if is_open(r))
        return out

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, PlayController)
        seat = action.player
        if action.mode not in MODES:
            raise IllegalAction("Play the Controller to remove a route or to build one.", "bad_mode")
        if game.player(seat).hand.get(self.card, 0) < 1:
            raise IllegalAction("You have no Controller card.", "no_controller")
        route = find_route(game, action.route)
        if route.length > self.max_length:
            verb = "remove" if action.mode == REMOVE else "build"
            raise IllegalAction(
                f"The Controller can only {verb} a route of up to {self.max_length} trains; "
                f"{game.map.route_label(route.id)} has {route.length}.",
                "route_too_long",
            )
        if action.mode == REMOVE:
            self._remove(game, seat, route)
        else:
            self._build(game, seat, route)

    def _pay(self, game: Game, seat: int) -> None:
        """The Controller leaves the hand for the discard pile (U2)."""
        game.take_cards(seat, ((self.card, 1),))
        game.discard_cards(((self.card, 1),))

    def _remove(self, game: Game, seat: int, route: Route) -> None:
        if route.id not in game.state.route_owner:
            raise IllegalAction(f"{route_name(game, route)} is not claimed; there is nothing to remove.",
                                "route_not_claimed")
        self._pay(game, seat)
        owner, points = unclaim_route(game, route)
        game.emit(ControllerPlayed(player=seat, mode=REMOVE, route=route.id))
        game.emit(RouteRemoved(player=seat, route=route.id, owner=owner, points=points,
                               trains=route.length))
        game.end_turn()

    def _build(self, game: Game, seat: int, route: Route) -> None:
        reason = blocked_reason(game, seat, route)
        if reason:
            raise IllegalAction(reason, "route_blocked")
        game.take_cards(seat, ((self.card, 1),))
        game.emit(ControllerPlayed(player=seat, mode=BUILD, route=route.id))
        # The Controller is the whole payment: complete_claim discards it, places the trains,
        # records 0 points and ends the turn (no tunnel check, no ferry locomotives: U8).
        complete_claim(game, seat, route, ((self.card, 1),), points=0)
