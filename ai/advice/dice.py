"""Advice on the Dice Expansion (engine/rules/dice/): the dice turn (`dice_roll`,
`dice_action`: roll, re-roll, claim, buy a token, draw tickets), the tunnel dice
(`dice_tunnel`), the token bought after the action (`dice_token`) and the end of a turn whose
tunnel failed (`dice_discard`). Like every computer player it sees only the view, the legal
actions and the public map.

The search AI searches dice games too. Everything of the dice is public once rolled (the view's
`DiceView`, this turn's bookkeeping included), so a sampled game copies it (`sample`); the dice
still to be rolled are the game's chance, which a sampled game draws from its own generator
(the search's, seeded from the decision: never the real game's). In a playout each dice
decision is this advice's, fed with the playout's plan (`playout`). `search_candidates` says
which dice-turn decisions are worth the search's time: the last turns, the turn after the
plan is done (more tickets?), and a turn where the dice offer a real choice (claim a short
planned route now or re-roll for a longer one; which of several planned routes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action, ClaimRoute, GiveUpTunnel, Pass, PayTunnel
from engine.decisions import decision_of
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
    from ai.agents.planner import Seen
    from ai.agents.rollout import RolloutPolicy
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


def _enabling_buy(game_map: GameMap, buys: list[BuyToken], wanted: set[str], dice: Sequence[str],
                  held: Mapping[str, int], trains: int) -> BuyToken | None:
    """A token bought before the action that lets a wanted route be claimed at once (D8): the
    route is one space short, and two dice that could not pay for it buy the missing token."""
    if not buys:
        return None
    have: dict[str, int] = {}
    for face in dice:
        have[face] = have.get(face, 0) + 1
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


# A claim is searched against this many rivals at most (the search's own cap is larger).
MAX_DICE_CANDIDATES = 5


def _best_claim(game_map: GameMap, options: Sequence[ClaimRoute]) -> ClaimRoute:
    """The longest route, paid with the cheapest dice."""
    routes = game_map.routes
    longest = max(routes[a.route].length for a in options)
    # Only the longest are priced (playouts ask this at every dice turn).
    return max((a for a in options if routes[a.route].length == longest),
               key=lambda a: (-_cost(a.payment), a.route))


def _cheapest(options: Sequence[ClaimRoute]) -> ClaimRoute:
    return min(options, key=lambda a: (_cost(a.payment), a.payment))


def _ticket_draw(tickets: Sequence[DrawTicketsWithDice]) -> DrawTicketsWithDice:
    """One or two more tickets, station faces first; where a mix is announced (Germany), short
    tickets: easier to finish late in the game."""
    return min(tickets, key=lambda a: (abs(sum(n for _, n in a.payment) - 2), dict(a.payment).get(WILD, 0),
                                       -dict(a.mix).get("short", 0)))


def _reroll(game_map: GameMap, rerolls: Sequence[RerollDice], wanted: set[str], dice: Sequence[str],
            trains: int) -> RerollDice | None:
    """Keep the faces the wanted routes need (and wilds) and re-roll the rest."""
    if not rerolls:
        return None
    wanted_type = _needed_type(game_map, wanted) or (SINGLE if trains > 12 else None)
    keep = {wanted_type, WILD} if wanted_type else {SINGLE, DOUBLE, WILD}
    if not wanted and trains > 12:
        keep.add(STATION)
    kept = tuple(sorted(face for face in dice if face in keep))
    return next((a for a in rerolls if a.keep == kept), None)


def dice_turn(game_map: GameMap, legal: Sequence[Action], wanted: set[str], dice: Sequence[str],
              held: Mapping[str, int], trains: int) -> Action:
    """A dice turn: claim a wanted route, else buy the token that lets one be claimed, else
    draw tickets when every ticket is done, else re-roll for the faces wanted, else claim
    anything late in the game, else pass. `dice` are the player's unused dice, `held` its
    tokens, `trains` its trains left (read from a view, or from a playout's state)."""
    claims = [a for a in legal if isinstance(a, ClaimRoute)]
    wanted_claims = [a for a in claims if a.route in wanted]
    if wanted_claims:
        return _best_claim(game_map, wanted_claims)
    enabling = _enabling_buy(game_map, [a for a in legal if isinstance(a, BuyToken)], wanted, dice, held, trains)
    if enabling is not None:
        return enabling
    tickets = [a for a in legal if isinstance(a, DrawTicketsWithDice)]
    if not wanted and tickets and trains > 12:
        return _ticket_draw(tickets)
    reroll = _reroll(game_map, [a for a in legal if isinstance(a, RerollDice)], wanted, dice, trains)
    if reroll is not None:
        return reroll
    if claims and (not wanted or trains <= 12):
        return _best_claim(game_map, claims)
    return next(a for a in legal if isinstance(a, Pass))


def dice_turn_candidates(view: View, legal: Sequence[Action], default: Action, seen: Seen,
                         late: bool) -> list[Action]:
    """The moves of a dice turn worth playing out against the advice's own (`default`, first).
    In the last turns (`late`) and once the plan is done: the claims that score most now, more
    tickets, the re-roll. Mid-game only where the dice offer a real choice: several planned
    routes to claim, or a short planned route now against a re-roll for a longer one. Else
    only `default` (not searched)."""
    game_map = seen.info.game_map
    seat = view.you or 0
    part = view.part(DiceView)
    dice = part.unused[seat] if part is not None else ()
    plan = seen.plan()
    wanted = set(plan.routes)
    out: list[Action] = [default]

    def add(action: Action | None) -> None:
        if action is not None and action not in out and len(out) < MAX_DICE_CANDIDATES:
            out.append(action)

    claims: dict[str, list[ClaimRoute]] = {}
    for a in legal:
        if isinstance(a, ClaimRoute):
            claims.setdefault(a.route, []).append(a)
    rerolls = [a for a in legal if isinstance(a, RerollDice)]
    tickets = [a for a in legal if isinstance(a, DrawTicketsWithDice)]
    plan_done = (not plan.routes and bool(tickets) and seen.my_trains >= 10 and view.final_turns_left is None)
    if late or plan_done:
        if tickets and plan_done:
            add(_ticket_draw(tickets))
        for rid in seen.best_claims(claims)[:3]:
            add(_cheapest(claims[rid]))
        add(_reroll(game_map, rerolls, wanted, dice, seen.my_trains))
        return out
    planned = sorted((r for r in claims if r in wanted), key=lambda r: (-game_map.routes[r].length, r))
    for rid in planned[:3]:
        add(_cheapest(claims[rid]))
    if isinstance(default, ClaimRoute) and rerolls and plan.routes:
        longest = max(game_map.routes[r].length for r in plan.routes)
        if longest > game_map.routes[default.route].length:
            add(_reroll(game_map, rerolls, wanted, dice, seen.my_trains))
    return out


class DiceTurnAdvice(Advice):
    """A dice turn: claim a wanted route, else buy the token that lets one be claimed, else
    draw tickets when every ticket is done, else re-roll for the faces wanted, else claim
    anything late in the game, else pass."""

    rule = roll.__name__
    actions = (RerollDice, ClaimRoute, BuyToken, DrawTicketsWithDice, Pass)
    part = DiceView
    # The search's work units count a dice turn's dearer moves already (three playout moves a
    # turn, every dice claim listed); searched dice decisions were about 0.6-0.75 of a card
    # game's in units (7,000 against 12,000; 21,000 against 28,000 for the opening tickets),
    # and this share keeps them there.
    budget_share = 0.65

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, ChooseReroll | DiceAction):
            return None
        view, game_map, seat = decision.view, decision.game_map, decision.seat
        part = view.part(DiceView)
        dice = part.unused[seat] if part is not None else ()
        held = part.tokens[seat] if part is not None else {}
        wanted = ai.wanted_routes(view, game_map, seat)
        return dice_turn(game_map, decision.legal, wanted, dice, held, view.players[seat].trains)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(decision_of(state.pending), ChooseReroll | DiceAction):
            return None
        p = state.players[seat]
        wanted = set(policy.plan(state, seat).routes)
        return dice_turn(policy.info.game_map, legal, wanted, p.public.get("dice", ()),
                         p.public.get("tokens", {}), p.trains)

    def search_candidates(self, view: View, legal: Sequence[Action], default: Action, seen: Seen,
                          late: bool) -> list[Action] | None:
        if not isinstance(view.pending.decision, ChooseReroll | DiceAction):
            return None
        return dice_turn_candidates(view, legal, default, seen, late)

    def sample(self, state: GameState, part: object, view: View, rng: Rng, game_map: GameMap) -> None:
        # All public: copied as shown. The dice to come are rolled by the sampled game's own
        # generator (drawn from the search's `rng`), never the real game's.
        assert isinstance(part, DiceView)
        data = state.extra.setdefault("dice", {})
        data["supply"] = dict(part.supply)
        data["idle_turns"] = part.idle_turns
        if part.turn is None:
            data.pop("turn", None)
        else:
            data["turn"] = {k: list(v) if isinstance(v, list | tuple) else v for k, v in part.turn.items()}
        for p, unused, held in zip(state.players, part.unused, part.tokens, strict=True):
            p.public["dice"] = list(unused)
            p.public["tokens"] = dict(held)


class DiceTunnelsAdvice(Advice):
    """The tunnel dice asked for more: pay with the cheapest faces, or give the tunnel up."""

    rule = tunnels.__name__
    actions = (PayTunnel, GiveUpTunnel)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceTunnel):
            return None
        return _pay_or_give_up(decision.legal)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(decision_of(state.pending), DiceTunnel):
            return None
        return _pay_or_give_up(legal)


def _pay_or_give_up(legal: Sequence[Action]) -> Action:
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    if pays:
        return min(pays, key=lambda a: _cost(a.payment))
    return next(a for a in legal if isinstance(a, GiveUpTunnel))


class DiceTokensAdvice(Advice):
    """After the action: buy the token of the type the wanted routes need most."""

    rule = tokens.__name__
    actions = (BuyToken, Pass)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceToken):
            return None
        wanted = ai.wanted_routes(decision.view, decision.game_map, decision.seat)
        return _token(decision.game_map, decision.legal, wanted)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(decision_of(state.pending), DiceToken):
            return None
        return _token(policy.info.game_map, legal, set(policy.plan(state, seat).routes))


def _token(game_map: GameMap, legal: Sequence[Action], wanted: set[str]) -> Action:
    buys = [a for a in legal if isinstance(a, BuyToken)]
    target = _needed_type(game_map, wanted) or SINGLE
    buys.sort(key=lambda a: (a.token != target, _cost(a.payment)))
    return buys[0] if buys else next(a for a in legal if isinstance(a, Pass))


class DiceDiscardAdvice(Advice):
    """The end of a turn whose tunnel failed or was given up: keep every token."""

    rule = discard.__name__
    actions = (Pass,)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if not isinstance(decision.view.pending.decision, DiceDiscard):
            return None
        # A token kept is a space paid later: never throw one away.
        return next(a for a in decision.legal if isinstance(a, Pass))

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(decision_of(state.pending), DiceDiscard):
            return None
        return next(a for a in legal if isinstance(a, Pass))


ADVICE = (DiceTurnAdvice(), DiceTunnelsAdvice(), DiceTokensAdvice(), DiceDiscardAdvice())
