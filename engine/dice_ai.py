"""The greedy computer player's choices under the Dice Expansion (engine/rules/dice/).

Called by `GreedyAI.choose` for the dice decisions (`dice_roll`, `dice_action`, `dice_tunnel`,
`dice_token`, `dice_discard`); like the AI it sees only the view, the legal actions and the public map.
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

DICE_KINDS = ("dice_roll", "dice_action", "dice_tunnel", "dice_token", "dice_discard")


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


def _enabling_buy(view: View, game_map: GameMap, buys: list[BuyToken], wanted: set[str]) -> BuyToken | None:
    """A token bought before the action that lets a wanted route be claimed at once (D8): the
    route is one space short, and two dice that could not pay for it buy the missing token."""
    part = view.part(DiceView)
    seat = view.you
    if not buys or part is None or seat is None:
        return None
    have: dict[str, int] = {}
    for face in part.unused[seat]:
        have[face] = have.get(face, 0) + 1
    held = part.tokens[seat]
    trains = view.players[seat].trains
    for rid in sorted(wanted, key=lambda r: (-game_map.routes[r].length, r)):
        route = game_map.routes[rid]
        kind = route_type(game_map, route)
        reach = have.get(kind, 0) + have.get(WILD, 0) + held.get(kind, 0)
        if reach + 1 != route.length or route.length > trains or route.ferry_locos > have.get(WILD, 0):
            continue
        spare = [a for a in buys if a.token == kind and all(face not in (kind, WILD) for face, _ in a.payment)]
        if spare:
            return min(spare, key=lambda a: _cost(a.payment))
    return None


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
    if kind == "dice_discard":  # a token kept is a space paid later: never throw one away
        return next(a for a in legal if isinstance(a, Pass))
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
    enabling = _enabling_buy(view, game_map, [a for a in legal if isinstance(a, BuyToken)], wanted)
    if enabling is not None:
        return enabling
    tickets = [a for a in legal if isinstance(a, DrawTicketsWithDice)]
    if not wanted and tickets and me.trains > 12:
        # Every ticket done: draw one or two more with station faces first.
        # Where a mix is announced (Germany), short tickets: easier to finish late in the game.
        return min(tickets, key=lambda a: (abs(sum(n for _, n in a.payment) - 2), dict(a.payment).get(WILD, 0),
                                           -dict(a.mix).get("short", 0)))
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
