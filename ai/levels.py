"""The levels of computer player a seat may carry, and how one is built: `make_ai(level,
seed)`; `decision_seed` makes each decision replay exactly.

Every computer player sees only what a person in its seat sees: `view` and `legal_actions`
(and the public map); it never reads the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ai.greedy import GreedyAI
from ai.random_player import RandomAI
from engine.actions import Action
from engine.decisions import decision_of, kind_of
from engine.rng import Rng, seed_state
from engine.state import GameState
from engine.view import View


class ComputerPlayer(Protocol):
    """What every computer player offers: `choose` one of the legal actions from the view
    (`uses_view` False: it never looks, so callers may pass None)."""

    level: str
    uses_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...


def _agent(name: str) -> Callable[[int], ComputerPlayer]:
    """A factory for an agent of ai/agents (imported when first built)."""

    def build(seed: int = 0) -> ComputerPlayer:
        from ai.agents import make_agent

        return make_agent(name, seed)

    return build


# The levels a host chooses from (/ttr admin addai, the stand-in for absent players): easy is
# a baseline agent of the 2017 playtesting study, normal the greedy AI, hard the search AI.
OFFERED_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
# Each offered level in one line, as /ttr admin addai shows it.
LEVEL_DESCRIPTIONS: dict[str, str] = {
    "easy": "a beginner's opponent: the best-looking move right now, no plan",
    "normal": "works toward its tickets by their shortest paths; quick",
    "hard": "one plan for all its tickets, key choices tested by playing the game out",
}
EASY_AGENT = "one_step"
# Every level name a seat may carry: the offered ones, then "random" and "greedy", which
# games stored before the levels existed still name.
AI_LEVELS: dict[str, Callable[[int], ComputerPlayer]] = {
    "easy": _agent(EASY_AGENT),
    "normal": GreedyAI,
    "hard": _agent("search"),
    "random": RandomAI,
    "greedy": GreedyAI,
}


def decision_seed(state: GameState, seat: int) -> int:
    """The seed of an AI's decision for `seat`, derived from the game's own seed and where the
    game stands (turn, generator, piles, what is pending): the same game and moment give the
    same seed, so the AI's choice — and the game — replay exactly. The caller derives it; the
    AI sees only the number and the view, never the state."""
    parts = (state.seed, state.rng, state.turn, seat, len(state.deck), len(state.discard),
             sum(len(d) for d in state.ticket_decks.values()), len(state.route_owner),
             *(p.hand_size() * 64 + len(p.tickets) for p in state.players),
             *(ord(c) for c in kind_of(decision_of(state.pending))))
    rng = Rng(seed_state(0x5EED))
    for part in parts:
        rng = Rng(seed_state(rng.next_u64() ^ part))
    return rng.next_u64() & 0xFFFFFFFF


def make_ai(level: str, seed: int = 0) -> ComputerPlayer:
    """An AI player by level name, or by the name of an agent of ai/agents (the
    tournament's baselines)."""
    factory = AI_LEVELS.get(level)
    if factory is not None:
        return factory(seed)
    from ai.agents import AGENTS

    if level in AGENTS:
        return _agent(level)(seed)
    raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(OFFERED_LEVELS)}")
