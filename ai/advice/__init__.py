"""The computer players' advice on the rules that not every game has, one module per rule,
composed the way the rules are.

An `Advice` is keyed by the rule module it advises on (`rule`: e.g. "engine.rules.controller")
and says what the greedy player does about that rule: a decision the rule opens (`decide`),
a move of the rule's own on a turn with no wanted route to claim (`instead_of_drawing`), the
routes the rule's goals want (`wanted`). `advice_for(rules)` is the advice of a rule set's
modules, in the rule set's order: the greedy player loops over it and knows no variant.

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

from engine.actions import Action
from engine.maps import GameMap
from engine.rulesets import build_ruleset
from engine.view import View

if TYPE_CHECKING:
    from ai.greedy import GreedyAI
    from engine.ruleset import RuleSet


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
    """The greedy player's play of one rule; every hook does nothing unless overridden.

    `actions` names the action types this advice chooses among, so that a player with plans
    of its own (the baseline agents, the planner) can leave a decision that offers one of them
    to the advice."""

    rule: ClassVar[str] = ""  # the rule module advised on (its __name__)
    actions: ClassVar[tuple[type[Action], ...]] = ()

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        """The move for a decision this rule opened (None: not this rule's decision)."""
        return None

    def instead_of_drawing(self, ai: GreedyAI, decision: Decision, wanted: set[str]) -> Action | None:
        """A move of this rule's own on a turn where no wanted route can be claimed, before
        the player would draw cards (None: none worth it)."""
        return None

    def wanted(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        """The routes this rule's goals want claimed (beyond the tickets')."""
        return set()


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


_BY_TABLE: dict[tuple[object, ...], tuple[Advice, ...]] = {}


def advice_of_view(view: View) -> tuple[Advice, ...]:
    """The advice for the rule set of the game `view` shows (the rules are public)."""
    try:
        key = (view.variant, len(view.players), tuple(view.options.items()))
        return _BY_TABLE[key]
    except KeyError:
        advice = _BY_TABLE[key] = advice_for(build_ruleset(view.variant, len(view.players), view.options))
        return advice
    except TypeError:  # an option value that cannot be a dict key
        return advice_for(build_ruleset(view.variant, len(view.players), view.options))
