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
from engine.maps import Route
from engine.rules.dice.faces import TOKEN, TOKEN_TYPES, WILD, as_length, claim_length, face_counts, route_type
from engine.rules.dice.purse import payments, spend, this_turn, tokens, unused_dice
from engine.rules.dice.tunnels import begin_dice_tunnel
from engine.rules.module import RuleModule
from engine.rules.routes import blocked_reason, complete_claim, find_route, open_route_test, route_name

if TYPE_CHECKING:
    from engine.game import Game


# Per map and table of dice lengths: the routes dice can pay for, in map order, each as (route
# as dice see it, dice length, type, group), and the groups: (type, length, ferry wilds) — the
# routes of one group take the same payments.
_Routes = tuple[tuple[tuple[Route, int, str, int], ...], tuple[tuple[str, int, int], ...]]
_ROUTES: dict[tuple[str, tuple[tuple[str, int], ...]], _Routes] = {}

# The claim actions made, per (seat, serial number of a list of payments), per route id.
_CLAIMS: dict[tuple[int, int], dict[str, list[Action]]] = {}
_CLAIMS_KEPT = 5_000  # lists of payments; then start again (a long-running bot sees many hands)


def _dice_routes(game: Game) -> _Routes:
    key = (game.map.id, tuple(game.rules.route_lengths.items()))
    hit = _ROUTES.get(key)
    if hit is None:
        routes = []
        groups: dict[tuple[str, int, int], int] = {}
        for route in game.map.routes.values():
            n = claim_length(game, route)
            if n is not None:
                kind = route_type(game.map, route)
                group = groups.setdefault((kind, n, route.ferry_locos), len(groups))
                routes.append((as_length(route, n), n, kind, group))
        hit = _ROUTES[key] = (tuple(routes), tuple(groups))
    return hit


def _claims_made(seat: int, serial: int) -> dict[str, list[Action]]:
    made = _CLAIMS.get((seat, serial))
    if made is None:
        if len(_CLAIMS) >= _CLAIMS_KEPT:
            _CLAIMS.clear()
        made = _CLAIMS[(seat, serial)] = {}
    return made


@dataclasses.dataclass(frozen=True)
class DiceClaims(RuleModule):
    """`claim_route` with a payment of faces and tokens (`{"single": 2, "wild": 1, "token": 1}`)
    as the turn's action."""

    name: ClassVar[str] = "dice_claims"
    actions: ClassVar = {"dice_roll": (ClaimRoute,), "dice_action": (ClaimRoute,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        # This runs for every decision of every dice game (most of a dice game's time), so
        # the routes come with their dice length and type worked out once per rule set, the
        # payments once per process (`purse.payments`), and the actions for one route and
        # one list of payments are made once and reused (actions are values).
        is_open = open_route_test(game, seat)
        trains = game.player(seat).trains
        have = face_counts(unused_dice(game, seat))
        held = tokens(game, seat)
        n_wild = have.get(WILD, 0)
        reach = {k: have.get(k, 0) + n_wild + held.get(k, 0) for k in TOKEN_TYPES}
        routes, groups = _dice_routes(game)
        # Per group of routes: the claim actions already made for its payments, by route id.
        made: list[tuple[dict[str, list[Action]], tuple[Cards, ...]] | None] = [None] * len(groups)
        out: list[Action] = []
        for route, n, kind, group in routes:
            if n > reach[kind] or n > trains or not is_open(route):
                continue
            ready = made[group]
            if ready is None:
                _, _, ferry = groups[group]
                if ferry > n_wild:
                    continue
                serial, options = payments(kind, n, ferry, have.get(kind, 0), n_wild, held.get(kind, 0))
                ready = made[group] = (_claims_made(seat, serial), options)
            actions = ready[0].get(route.id)
            if actions is None:
                actions = ready[0][route.id] = [ClaimRoute(seat, route.id, payment) for payment in ready[1]]
            out.extend(actions)
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
