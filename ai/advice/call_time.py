"""Advice on calling time (Alsace, engine/rules/call_time.py): call when further turns cannot
finish anything of the player's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.rules import call_time
from engine.rules.call_time import CallTime

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


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


ADVICE = (CallTimeAdvice(),)
