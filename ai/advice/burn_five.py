"""Advice on Alsace's "burn 5" (engine/rules/burn_five.py): rarely, only with a hoard of
colours no wanted route needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.core import Turn
from engine.rules import burn_five
from engine.rules.burn_five import BurnFive

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


class BurnFiveAdvice(Advice):
    rule = burn_five.__name__
    actions = (BurnFive,)

    def instead_of_drawing(self, ai: GreedyAI, decision: Decision, wanted: set[str]) -> Action | None:
        view, game_map, seat = decision.view, decision.game_map, decision.seat
        if "burn_five" not in decision.kinds or not isinstance(view.pending.decision, Turn) \
                or view.players[seat].hand_size < 24:
            return None
        needed = {game_map.routes[r].color for r in wanted}
        burns = [a for a in decision.legal if isinstance(a, BurnFive)
                 and not any(name in needed or name == "loco" for name, _ in a.payment)]
        return burns[0] if burns else None


ADVICE = (BurnFiveAdvice(),)
