"""The computer players beyond random and greedy, one module per agent.

- `route_focus`, `destination_hungry`, `one_step`, `long_route`: the four baseline agents of de
  Mesentier Silva, Lee, Togelius and Nealen, "AI-based Playtesting of Contemporary Board
  Games" (FDG 2017), adapted to every variant's actions;
- `planner`: a network planner (the search AI's policy when it does not search);
- `network`: the joint-network planner, a strong opponent to measure the hard AI against;
- `search`: the "hard" AI, a determinised Monte Carlo search under hidden information.

Like every AI here they read only `view` and `legal_actions`. `make_agent(name, seed)` builds
one by name; `ai.levels.make_ai` maps the levels players choose (easy, normal, hard) onto them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.levels import ComputerPlayer

# name -> (module, class); imported on first use.
AGENTS: dict[str, tuple[str, str]] = {
    "random": ("ai.random_player", "RandomAI"),
    "greedy": ("ai.greedy", "GreedyAI"),
    "route_focus": ("ai.agents.route_focus", "RouteFocusAI"),
    "destination_hungry": ("ai.agents.destination_hungry", "DestinationHungryAI"),
    "one_step": ("ai.agents.one_step", "OneStepAI"),
    "long_route": ("ai.agents.long_route", "LongRouteAI"),
    "planner": ("ai.agents.planner", "PlannerAI"),
    "network": ("ai.agents.network", "NetworkAI"),
    "search": ("ai.agents.search", "SearchAI"),
}


def agent_class(name: str) -> Callable[[int], ComputerPlayer]:
    """The class of the agent called `name` (ValueError if there is none)."""
    try:
        module, cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}") from None
    # Looked up by name, so that an agent's module is imported only when it plays.
    factory: Callable[[int], ComputerPlayer] = getattr(import_module(module), cls)
    return factory


def make_agent(name: str, seed: int = 0) -> ComputerPlayer:
    """An agent by name, seeded."""
    return agent_class(name)(seed)
