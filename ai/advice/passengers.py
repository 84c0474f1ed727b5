"""Advice on Germany's passengers (engine/rules/passengers.py): take the passenger whose colour
gains the most majority points now; in a playout, the first one offered. The passengers are
public, so a sampled game copies them from the view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.rules import passengers
from engine.rules.passengers import PassengersView, TakePassenger, majority_points

if TYPE_CHECKING:
    from ai.agents.rollout import RolloutPolicy
    from ai.greedy import GreedyAI
    from engine.maps import GameMap
    from engine.rng import Rng
    from engine.state import GameState
    from engine.view import View


class PassengersAdvice(Advice):
    rule = passengers.__name__
    actions = (TakePassenger,)
    part = PassengersView

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if "take_passenger" not in decision.kinds:
            return None
        seat = decision.seat
        options = [a for a in decision.legal if isinstance(a, TakePassenger)]
        part = decision.view.part(PassengersView)
        counts = list(part.held) if part is not None else [{} for _ in decision.view.players]

        def gain(option: TakePassenger) -> int:
            before = [c.get(option.colour, 0) for c in counts]
            after = list(before)
            after[seat] += 1
            return majority_points(after, 20, 10).get(seat, 0) - majority_points(before, 20, 10).get(seat, 0)

        return max(options, key=gain)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        return legal[0] if isinstance(legal[0], TakePassenger) else None

    def sample(self, state: GameState, part: object, view: View, rng: Rng, game_map: GameMap) -> None:
        assert isinstance(part, PassengersView)
        state.extra["passengers"] = {space: dict(colours) for space, colours in part.waiting.items()}
        for p, held in zip(state.players, part.held, strict=True):
            p.public["passengers"] = dict(held)


ADVICE = (PassengersAdvice(),)
