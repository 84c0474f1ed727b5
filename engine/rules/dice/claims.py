"""Claiming a route with dice: colours are ignored, a route takes dice of its type (single or
double, D9), wilds and tokens of that type; a ferry needs a wild per locomotive (D2). A tunnel
then rolls its dice (`tunnels`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, ClaimRoute
from engine.cards import Cards, card_word, count
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.dice.faces import (
    DOUBLE,
    MAX_LENGTH,
    SINGLE,
    TOKEN,
    TOKEN_TYPES,
    WILD,
    as_length,
    claim_length,
    face_counts,
    route_type,
)
from engine.rules.dice.purse import payments, spend, this_turn, tokens, unused_dice
from engine.rules.dice.tunnels import begin_dice_tunnel
from engine.rules.module import RuleModule
from engine.rules.routes import blocked_reason, closed_routes, complete_claim, find_route, route_name

if TYPE_CHECKING:
    from engine.core import Game


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class DicePaid(Payload):
    kind = "dice_paid"
    player: int
    route: str
    payment: dict[str, int]  # dice faces and tokens



# Per map and table of dice lengths: the routes dice can pay for, in groups that take the same
# payments — (type, dice length, ferry wilds, the group's routes as (place in map order, id)) —
# and the number of routes in map order.
_Groups = tuple[tuple[tuple[str, int, int, tuple[tuple[int, str], ...]], ...], int]
_GROUPS: dict[tuple[str, tuple[tuple[str, int], ...]], _Groups] = {}

# The claim actions made, per (seat, serial number of a list of payments), per route id, and
# per map and lengths, seat, trains and dice and tokens of each type, the groups within reach,
# each with its routes and the claim actions made for them. Both are bounded (a long-running
# bot meets every map and hand): about 100,000 actions and plans, 10 MB, then they start again.
_CLAIMS: dict[tuple[int, int], dict[str, list[Action]]] = {}
_Plan = list[tuple[tuple[tuple[int, str], ...], dict[str, list[Action]], tuple[Cards, ...]]]
_PLANS: dict[tuple[Any, ...], _Plan] = {}
_KEPT = 100_000  # claim actions and plans; then start again
_kept = [0]


def _forget() -> None:
    _CLAIMS.clear()
    _PLANS.clear()
    _kept[0] = 0


def _dice_groups(game: Game) -> _Groups:
    key = (game.map.id, tuple(game.rules.route_lengths.items()))
    hit = _GROUPS.get(key)
    if hit is None:
        groups: dict[tuple[str, int, int], list[tuple[int, str]]] = {}
        place = 0
        for route in game.map.routes.values():
            n = claim_length(game, route)
            if n is not None:
                groups.setdefault((route_type(game.map, route), n, route.ferry_locos), []).append((place, route.id))
                place += 1
        hit = _GROUPS[key] = (tuple((*k, tuple(v)) for k, v in groups.items()), place)
    return hit


def _claims_made(seat: int, serial: int) -> dict[str, list[Action]]:
    made = _CLAIMS.get((seat, serial))
    if made is None:
        made = _CLAIMS[(seat, serial)] = {}
    return made


def _plan(game: Game, seat: int, trains: int, have: dict[str, int], held: dict[str, int]) -> _Plan:
    """The groups of routes a player with these dice, tokens and trains can reach."""
    n_wild = have.get(WILD, 0)
    lengths = game.rules.route_lengths
    key = (game.map.id, tuple(lengths.items()) if lengths else (), seat, min(trains, MAX_LENGTH), n_wild,
           have.get(SINGLE, 0), held.get(SINGLE, 0), have.get(DOUBLE, 0), held.get(DOUBLE, 0))
    plan = _PLANS.get(key)
    if plan is None:
        if _kept[0] >= _KEPT:
            _forget()
        reach = {k: have.get(k, 0) + n_wild + held.get(k, 0) for k in TOKEN_TYPES}
        plan = []
        for kind, n, ferry, members in _dice_groups(game)[0]:
            if n > reach[kind] or n > trains or ferry > n_wild:
                continue
            serial, options = payments(kind, n, ferry, have.get(kind, 0), n_wild, held.get(kind, 0))
            plan.append((members, _claims_made(seat, serial), options))
        _kept[0] += 1 + len(plan)
        _PLANS[key] = plan
    return plan


@dataclasses.dataclass(frozen=True)
class DiceClaims(RuleModule):
    """`claim_route` with a payment of faces and tokens (`{"single": 2, "wild": 1, "token": 1}`)
    as the turn's action."""

    name: ClassVar[str] = "dice_claims"
    events: ClassVar[tuple[str, ...]] = ("dice_paid", "tunnel_dice_rolled", "tunnel_abandoned", "route_claimed")
    actions: ClassVar = {"dice_roll": (ClaimRoute,), "dice_action": (ClaimRoute,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        # This runs for every decision of every dice game (most of a dice game's time), so
        # the routes come in groups that take the same payments, worked out once per rule
        # set; which groups are within reach is worked out once per seat, trains, dice and
        # tokens (`_plan`); the payments once per process (`purse.payments`); and the
        # actions for one route and one list of payments are made once and reused (actions
        # are values). Claims are listed in map order, like every listing of routes.
        closed = closed_routes(game, seat)
        plan = _plan(game, seat, game.player(seat).trains, face_counts(unused_dice(game, seat)), tokens(game, seat))
        slots: list[list[Action] | None] = [None] * _dice_groups(game)[1]
        for members, made, options in plan:
            for place, route_id in members:
                if route_id in closed:
                    continue
                actions = made.get(route_id)
                if actions is None:
                    actions = made[route_id] = [ClaimRoute(seat, route_id, payment) for payment in options]
                    _kept[0] += len(actions)
                slots[place] = actions
        out: list[Action] = []
        for actions in slots:
            if actions:
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
        game.emit(DicePaid(player=seat, route=route.id, payment=dict(payment)))
        if route.tunnel:
            begin_dice_tunnel(game, seat, route, payment)
        else:
            complete_claim(game, seat, as_length(route, n), ())
