"""Advice on calling time (Alsace, engine/rules/call_time.py): call when further turns cannot
finish anything of the player's own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.rules import call_time
from engine.rules.call_time import CallTime

if TYPE_CHECKING:
    from ai.agents.rollout import RolloutPolicy
    from ai.greedy import GreedyAI
    from engine.state import GameState


class CallTimeAdvice(Advice):
    rule = call_time.__name__
    actions = (CallTime,)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if "call_time" not in decision.kinds:
            return None
        # Call when further turns cannot finish anything of ours (nothing wanted, or it costs
        # more wagons than are left).
        view, game_map, seat = decision.view, decision.game_map, decision.seat
        me = view.players[seat]
        wanted = ai.wanted_routes(view, game_map, seat)
        call = not wanted or min(game_map.routes[r].length for r in wanted) > me.trains
        return next(a for a in decision.legal if a.TYPE == "call_time" and getattr(a, "call", None) is call)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(legal[0], CallTime):
            return None
        # The same question, put to the playout's plan for the seat.
        plan = policy.plan(state, seat)
        trains = state.players[seat].trains
        call = not plan.routes or min(policy.info.lengths[r] for r in plan.routes) > trains
        return next(a for a in legal if isinstance(a, CallTime) and a.call is call)


ADVICE = (CallTimeAdvice(),)
