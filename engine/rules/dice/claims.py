"""Claiming a route with dice: colours are ignored, a route takes dice of its type (single or
double, D9), wilds and tokens of that type; a ferry needs a wild per locomotive (D2). A tunnel
then rolls its dice (`tunnels`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, ClaimRoute
from engine.cards import Cards, card_word, count
from engine.errors import IllegalAction
from engine.rules.dice.faces import TOKEN, TOKEN_TYPES, WILD, as_length, claim_length, face_counts, route_type
from engine.rules.dice.purse import pay_options, spend, this_turn, tokens, unused_dice
from engine.rules.dice.tunnels import begin_dice_tunnel
from engine.rules.module import RuleModule
from engine.rules.routes import blocked_reason, complete_claim, find_route, open_route_test, route_name

if TYPE_CHECKING:
    from engine.game import Game


@dataclasses.dataclass(frozen=True)
class DiceClaims(RuleModule):
    """`claim_route` with a payment of faces and tokens (`{"single": 2, "wild": 1, "token": 1}`)
    as the turn's action."""

    name: ClassVar[str] = "dice_claims"
    events: ClassVar[tuple[str, ...]] = ("dice_paid", "tunnel_dice_rolled", "tunnel_abandoned", "route_claimed")
    actions: ClassVar = {"dice_roll": (ClaimRoute,), "dice_action": (ClaimRoute,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        is_open = open_route_test(game, seat)
        trains = game.player(seat).trains
        have = face_counts(unused_dice(game, seat))
        held = tokens(game, seat)
        reach = {k: have.get(k, 0) + have.get(WILD, 0) + held.get(k, 0) for k in TOKEN_TYPES}
        # Routes of one type, length and ferry count take the same payments: work each out
        # once (this runs for every decision of every AI game).
        payments: dict[tuple[str, int, int], list[Cards]] = {}
        out: list[Action] = []
        for route in game.map.routes.values():
            n = claim_length(game, route)
            kind = route_type(game.map, route)
            if n is None or n > reach[kind] or n > trains or route.ferry_locos > have.get(WILD, 0):
                continue
            if not is_open(as_length(route, n)):
                continue
            key = (kind, n, route.ferry_locos)
            options = payments.get(key)
            if options is None:
                options = payments[key] = pay_options(game, seat, kind, n, route.ferry_locos)
            out.extend([ClaimRoute(seat, route.id, payment) for payment in options])
        return out

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, ClaimRoute)
        seat = action.player
        route = find_route(game, action.route)
        n = claim_length(game, route)
        if n is None:
            raise IllegalAction(f"{route_name(game, route)} cannot be claimed with dice.", "route_blocked")
        reason = blocked_reason(game, seat, as_length(route, n))
        if reason:
            raise IllegalAction(reason, "route_blocked")
        kind = route_type(game.map, route)
        payment = action.payment
        label = game.map.route_label(route.id)
        if count(payment) != n:
            raise IllegalAction(f"{label} takes {n} {kind} dice or tokens; you offered {count(payment)}.",
                                "bad_payment")
        other = [name for name, _ in payment if name not in (kind, WILD, TOKEN)]
        if other:
            raise IllegalAction(f"{label} is a {kind} route: {card_word(other[0])} faces cannot pay for it.",
                                "bad_payment")
        wilds = dict(payment).get(WILD, 0)
        if wilds < route.ferry_locos:
            raise IllegalAction(f"{label} is a ferry: it needs at least {route.ferry_locos} wild "
                                f"{'die' if route.ferry_locos == 1 else 'dice'}.", "bad_payment")
        spend(game, seat, payment, {kind, WILD}, kind)
        this_turn(game)["acted"] = True
        game.emit("dice_paid", player=seat, route=route.id, payment=dict(payment))
        if route.tunnel:
            begin_dice_tunnel(game, seat, route, payment)
        else:
            complete_claim(game, seat, as_length(route, n), ())
