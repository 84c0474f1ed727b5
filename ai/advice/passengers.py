"""Advice on Germany's passengers (engine/rules/passengers.py): take the passenger whose colour
gains the most majority points now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.rules import passengers
from engine.rules.passengers import PassengersView, TakePassenger, majority_points

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


class PassengersAdvice(Advice):
    rule = passengers.__name__
    actions = (TakePassenger,)

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


ADVICE = (PassengersAdvice(),)
