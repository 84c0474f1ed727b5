"""Advice on the Dice Expansion (engine/rules/dice/): the dice turn (`dice_roll`,
`dice_action`: roll, re-roll, claim, buy a token, draw tickets), the tunnel dice
(`dice_tunnel`), the token bought after the action (`dice_token`) and the end of a turn whose
tunnel failed (`dice_discard`). Like every computer player it sees only the view, the legal
actions and the public map.

The search AI does not search a dice game: a dice turn keeps bookkeeping the view does not
show (what was bought, whether the player acted), so a sampled game could not go on from it;
the search plays its planner's move there (`searchable`), and no playout reaches a dice turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from ai.sampling import CannotSample
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
    discard,
    roll,
    route_type,
    tokens,
    tunnels,
)
from engine.rules.dice.discard import DiceDiscard
from engine.rules.dice.roll import ChooseReroll, DiceAction
from engine.rules.dice.tokens import DiceToken
from engine.rules.dice.tunnels import DiceTunnel
from engine.view import View

if TYPE_CHECKING:
    from ai.greedy import GreedyAI
    from engine.rng import Rng
    from engine.state import GameState


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


class DiceTurnAdvice(Advice):
    """A dice turn: claim a wanted route, else buy the token that lets one be claimed, else
    draw tickets when every ticket is done, else re-roll for the faces wanted, else claim
    anything late in the game, else pass."""

    rule = roll.__name__
    actions = (RerollDice, ClaimRoute, BuyToken, DrawTicketsWithDice, Pass)
    part = DiceView
    searchable = False

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, ChooseReroll | DiceAction):
            return None
        view, game_map, legal, seat = decision.view, decision.game_map, decision.legal, decision.seat
        wanted = ai.wanted_routes(view, game_map, seat)
        me = view.players[seat]
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

    def sample(self, state: GameState, part: object, view: View, rng: Rng, game_map: GameMap) -> None:
        raise CannotSample("the Dice Expansion")


class DiceTunnelsAdvice(Advice):
    """The tunnel dice asked for more: pay with the cheapest faces, or give the tunnel up."""

    rule = tunnels.__name__
    actions = (PayTunnel, GiveUpTunnel)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceTunnel):
            return None
        pays = [a for a in decision.legal if isinstance(a, PayTunnel)]
        if pays:
            return min(pays, key=lambda a: _cost(a.payment))
        return next(a for a in decision.legal if isinstance(a, GiveUpTunnel))


class DiceTokensAdvice(Advice):
    """After the action: buy the token of the type the wanted routes need most."""

    rule = tokens.__name__
    actions = (BuyToken, Pass)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceToken):
            return None
        wanted = ai.wanted_routes(decision.view, decision.game_map, decision.seat)
        buys = [a for a in decision.legal if isinstance(a, BuyToken)]
        target = _needed_type(decision.game_map, wanted) or SINGLE
        buys.sort(key=lambda a: (a.token != target, _cost(a.payment)))
        return buys[0] if buys else next(a for a in decision.legal if isinstance(a, Pass))


class DiceDiscardAdvice(Advice):
    """The end of a turn whose tunnel failed or was given up: keep every token."""

    rule = discard.__name__
    actions = (Pass,)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceDiscard):
            return None
        # A token kept is a space paid later: never throw one away.
        return next(a for a in decision.legal if isinstance(a, Pass))


ADVICE = (DiceTurnAdvice(), DiceTunnelsAdvice(), DiceTokensAdvice(), DiceDiscardAdvice())
