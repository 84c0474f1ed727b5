"""The computer players' advice on the rules that not every game has, one module per rule,
composed the way the rules are.

An `Advice` is keyed by the rule module it advises on (`rule`: e.g. "engine.rules.controller")
and says what the computer players do about that rule: a decision the rule opens (`decide`),
a move of the rule's own on a turn with no wanted route to claim (`instead_of_drawing`), the
routes the rule's goals want (`wanted`); for the search AI, the rule's move in a playout of a
sampled game (`playout`), the moves worth searching for a decision the rule opened
(`search_candidates`), how to rebuild the rule's part of the view in a sampled game (`part`,
`sample`), and whether a game under the rule can be searched at all (`searchable`).
`advice_for(rules)` is the advice of a rule set's modules, in the rule set's order: the players
loop over it and know no variant.

Each module of this package declares `ADVICE`, a tuple of its advice; the registry finds them
with `pkgutil` the first time it is asked. Adding a rule's advice is adding its module here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ai.sampling import CannotSample
from engine.actions import Action
from engine.maps import GameMap
from engine.rulesets import build_ruleset
from engine.view import View

if TYPE_CHECKING:
    from ai.agents.planner import Seen
    from ai.agents.rollout import RolloutPolicy
    from ai.greedy import GreedyAI
    from engine.rng import Rng
    from engine.ruleset import RuleSet
    from engine.state import GameState


@dataclass(frozen=True)
class Decision:
    """One decision put to a computer player: what it sees and what it may do."""

    view: View
    game_map: GameMap
    legal: Sequence[Action]
    seat: int
    kinds: frozenset[str] = field(init=False)  # the TYPE of every legal action

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", frozenset(a.TYPE for a in self.legal))


class Advice:
    """The computer players' play of one rule; every hook does nothing unless overridden.

    `actions` names the action types this advice chooses among, so that a player with plans
    of its own (the baseline agents, the planner) can leave a decision that offers one of them
    to the advice. `part` is the type of the rule's own part of the view (`RuleModule.view_part`)
    that `sample` rebuilds; `searchable` is False for a rule under which the search AI plays its
    planner's move without searching (the view lacks what a sampled game would need)."""

    rule: ClassVar[str] = ""  # the rule module advised on (its __name__)
    actions: ClassVar[tuple[type[Action], ...]] = ()
    part: ClassVar[type | None] = None
    searchable: ClassVar[bool] = True
    # The share of the search's budget of moves played out that a decision gets under this
    # rule: below 1 where a playout move costs more CPU than a plain one (so the time a
    # decision takes stays within the hard level's budget). Still counted in moves, never in
    # seconds, so replays stay exact.
    budget_share: ClassVar[float] = 1.0

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        """The move for a decision this rule opened (None: not this rule's decision)."""
        return None

    def instead_of_drawing(self, ai: GreedyAI, decision: Decision, wanted: set[str]) -> Action | None:
        """A move of this rule's own on a turn where no wanted route can be claimed, before
        the player would draw cards (None: none worth it)."""
        return None

    def before_turn(self, ai: GreedyAI, decision: Decision) -> Action | None:
        """A move of this rule's own worth more than any plain move of the turn (a station
        that saves a ticket), asked first on a plain turn (None: none)."""
        return None

    def withholds(self, view: View, game_map: GameMap, action: Action) -> bool:
        """Whether a legal move is one a computer player should not make under this rule
        (a tunnel tried without the cards its extra may ask for)."""
        return False

    def wanted(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        """The routes this rule's goals want claimed (beyond the tickets')."""
        return set()

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        """The move in a playout of a sampled game (ai/agents/rollout.py, reading the state)
        for a decision this rule opened (None: not this rule's decision)."""
        return None

    def search_candidates(self, view: View, legal: Sequence[Action], default: Action, seen: Seen,
                          late: bool) -> list[Action] | None:
        """For the search AI, the moves worth playing out for a decision this rule opened,
        `default` (the player's own move) first; `late`: the last turns of the game. None: not
        this rule's decision; `[default]`: not worth searching."""
        return None

    def sample(self, state: GameState, part: object, view: View, rng: Rng, game_map: GameMap) -> None:
        """Write this rule's data into a sampled state (ai/agents/determinize.py) from its part
        of the view (of type `part`), dealing what the view does not show at random; raise
        `CannotSample` where it cannot be guessed."""
        raise CannotSample(f"no sampler for {type(part).__name__}")


@cache
def _registry() -> dict[str, tuple[Advice, ...]]:
    found: dict[str, list[Advice]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        advice = getattr(module, "ADVICE", None)
        if not isinstance(advice, tuple) or not all(isinstance(a, Advice) and a.rule for a in advice):
            raise TypeError(f"{module.__name__} declares no ADVICE (a tuple of Advice, each naming its rule)")
        for a in advice:
            found.setdefault(a.rule, []).append(a)
    return {rule: tuple(advice) for rule, advice in found.items()}


def registered() -> dict[str, tuple[Advice, ...]]:
    """Every advice, by the rule module it advises on."""
    return dict(_registry())


_BY_RULES: dict[int, tuple[RuleSet, tuple[Advice, ...]]] = {}


def advice_for(rules: RuleSet) -> tuple[Advice, ...]:
    """The advice on the rule modules of `rules`, in the rule set's order (each rule module's
    advice once, however many modules of the rule set it made)."""
    kept = _BY_RULES.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    registry = _registry()
    rules_seen = dict.fromkeys(type(module).__module__ for module in rules.modules)
    advice = tuple(a for rule in rules_seen for a in registry.get(rule, ()))
    _BY_RULES[id(rules)] = (rules, advice)
    return advice


_BY_TABLE: dict[tuple[object, ...], tuple[RuleSet, tuple[Advice, ...]]] = {}


def _table(view: View) -> tuple[RuleSet, tuple[Advice, ...]]:
    try:
        key = (view.variant, len(view.players), tuple(view.options.items()))
        return _BY_TABLE[key]
    except KeyError:
        rules = build_ruleset(view.variant, len(view.players), view.options)
        kept = _BY_TABLE[key] = (rules, advice_for(rules))
        return kept
    except TypeError:  # an option value that cannot be a dict key
        rules = build_ruleset(view.variant, len(view.players), view.options)
        return rules, advice_for(rules)


def advice_of_view(view: View) -> tuple[Advice, ...]:
    """The advice for the rule set of the game `view` shows (the rules are public)."""
    return _table(view)[1]


def rules_of_view(view: View) -> RuleSet:
    """The rule set of the game `view` shows (the rules are public)."""
    return _table(view)[0]


def can_search(view: View) -> bool:
    """Whether the search AI may search a game under the rules `view` shows."""
    return all(a.searchable for a in advice_of_view(view))


def budget_share(view: View) -> float:
    """The share of its move budget the search AI spends on a decision under the rules `view`
    shows (the smallest of the rules' `budget_share`)."""
    return min((a.budget_share for a in advice_of_view(view)), default=1.0)
