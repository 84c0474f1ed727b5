"""Advice on the USSR Controller (engine/rules/controller.py): build a route a ticket needs
that cards would make dear (a tunnel, a ferry, or 3-4 trains), the longest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from engine.actions import Action
from engine.maps import Route
from engine.rules import controller
from engine.rules.controller import PlayController

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


class ControllerAdvice(Advice):
    rule = controller.__name__
    actions = (PlayController,)

    def instead_of_drawing(self, ai: GreedyAI, decision: Decision, wanted: set[str]) -> Action | None:
        routes = decision.game_map.routes
        builds = [a for a in decision.legal if isinstance(a, PlayController) and a.mode == "build"
                  and a.route in wanted and _dear(routes[a.route])]
        if builds:
            return max(builds, key=lambda a: (routes[a.route].length, a.route))
        return None


def _dear(route: Route) -> bool:
    """A route worth a Controller rather than cards."""
    return route.tunnel or route.is_ferry or route.length >= 3


ADVICE = (ControllerAdvice(),)
