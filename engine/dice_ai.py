"""The greedy computer player's choices under the Dice Expansion (engine/rules/dice/).

Called by `GreedyAI.choose` for the dice decisions (`dice_roll`, `dice_action`, `dice_tunnel`,
`dice_token`); like the AI it sees only the view, the legal actions and the public map.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, ClaimRoute, GiveUpTunnel, Pass, PayTunnel
from engine.maps import GameMap
from engine.rules.dice import (
    DOUBLE,
    SINGLE,
    STATION,
    TOKEN,
    WILD,
    BuyToken,
    DiceView,
    DrawTicketsWithDice,
    RerollDice,
    route_type,
)
from engine.view import View

DICE_KINDS = ("dice_roll", "dice_action", "dice_tunnel", "dice_token")


def _cost(payment: Sequence[tuple[str, int]]) -> int:
    """Wilds are worth most, then tokens (kept from earlier turns), then plain faces."""
    weights = {WILD: 3, TOKEN: 2}
    return sum(n * weights.get(name, 1) for name, n in payment)


def _needed_type(game_map: GameMap, wanted: set[str]) -> str | None:
    """The token type the wanted routes need most (by spaces)."""
    need = {SINGLE: 0, DOUBLE: 0}
    for rid in wanted:
        route = game_map.routes[rid]
        need[route_type(game_map, route)] += route.length
    if not any(need.values()):
        return None
    return max(need, key=lambda k: (need[k], k == SINGLE))


def choose_dice(view: View, game_map: GameMap, legal: Sequence[Action], wanted: set[str]) -> Action:
    kind = view.pending.kind
    seat = view.you
    assert seat is not None
    me = view.players[seat]
    if kind == "dice_tunnel":
        pays = [a for a in legal if isinstance(a, PayTunnel)]
        if pays:
            return min(pays, key=lambda a: _cost(a.payment))
        return next(a for a in legal if isinstance(a, GiveUpTunnel))
    if kind == "dice_token":
        buys = [a for a in legal if isinstance(a, BuyToken)]
        target = _needed_type(game_map, wanted) or SINGLE
        buys.sort(key=lambda a: (a.token != target, _cost(a.payment)))
        return buys[0] if buys else next(a for a in legal if isinstance(a, Pass))
    claims = [a for a in legal if isinstance(a, ClaimRoute)]

    def best(options: list[ClaimRoute]) -> ClaimRoute:
        return max(options, key=lambda a: (game_map.routes[a.route].length, -_cost(a.payment), a.route))

    wanted_claims = [a for a in claims if a.route in wanted]
    if wanted_claims:
        return best(wanted_claims)
    tickets = [a for a in legal if isinstance(a, DrawTicketsWithDice)]
    if not wanted and tickets and me.trains > 12:
        # Every ticket done: draw one or two more with station faces first.
        return min(tickets, key=lambda a: (abs(sum(n for _, n in a.payment) - 2), dict(a.payment).get(WILD, 0)))
    rerolls = [a for a in legal if isinstance(a, RerollDice)]
    if rerolls:
        wanted_type = _needed_type(game_map, wanted) or (SINGLE if me.trains > 12 else None)
        part = view.part(DiceView)
        dice = list(part.unused[seat]) if part is not None else []
        keep = {wanted_type, WILD} if wanted_type else {SINGLE, DOUBLE, WILD}
        if not wanted and me.trains > 12:
            keep.add(STATION)
        kept = tuple(sorted(face for face in dice if face in keep))
        match = [a for a in rerolls if a.keep == kept]
        if match:
            return match[0]
    if claims and (not wanted or me.trains <= 12):
        return best(claims)
    return next(a for a in legal if isinstance(a, Pass))
