"""Claiming a route: check it is open, check the payment, then place it or start a tunnel."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, ClaimRoute
from engine.cards import Cards, count
from engine.errors import IllegalAction
from engine.rules.module import RuleModule
from engine.rules.routes import blocked_reason, closed_routes, complete_claim, find_route
from engine.rules.tunnels import begin_tunnel

if TYPE_CHECKING:
    from engine.core import Game


@dataclass(frozen=True)
class ClaimRoutes(RuleModule):
    """Claim one route per turn with a set of cards; tunnels ask for more after a reveal."""

    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion
    name: ClassVar[str] = "claim_route"
    events: ClassVar[tuple[str, ...]] = ("tunnel_revealed", "route_claimed")
    actions: ClassVar = {"turn": (ClaimRoute,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        by_route = self.payments_by_route(game, seat)
        return [ClaimRoute(seat, rid, cards) for rid, options in by_route for cards in options]

    def payments_by_route(self, game: Game, seat: int) -> list[tuple[str, tuple[Cards, ...]]]:
        """Each route `seat` may claim now with its payments, in `legal_actions`' order (the
        same claims, without an action per payment: a playout on a big hand asks this)."""
        hand = game.player(seat).hand
        payment = game.rules.payment
        closed = closed_routes(game, seat)  # `open_route_test` without a call per route
        trains = game.player(seat).trains
        routes = [r for r in payment.candidate_routes(game.map, hand) if r.id not in closed and r.length <= trains]
        return [(route.id, options) for route, options in payment.claim_options_by_route(game.map, routes, hand)]

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, ClaimRoute)
        seat = action.player
        route = find_route(game, action.route)
        reason = blocked_reason(game, seat, route)
        if reason:
            raise IllegalAction(reason, "route_blocked")
        if count(action.payment) == 0:
            raise IllegalAction(f"Say which cards pay for {game.map.route_label(route.id)}.", "bad_payment")
        game.rules.payment.check_claim(game.map, route, game.player(seat).hand, action.payment)
        game.take_cards(seat, action.payment)
        if route.tunnel:
            begin_tunnel(game, seat, route, action.payment)
        else:
            complete_claim(game, seat, route, action.payment)
