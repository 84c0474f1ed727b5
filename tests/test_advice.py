"""The computer players' per-rule advice (ai/advice/): keyed by the rule module, composed for a
game's rule set the way its rules are, and no variant named anywhere in ai/."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from ai.advice import Advice, advice_for, registered
from ai.advice.burn_five import BurnFiveAdvice
from ai.advice.call_time import CallTimeAdvice
from ai.advice.controller import ControllerAdvice
from ai.advice.dice import DiceTokensAdvice, DiceTunnelsAdvice, DiceTurnAdvice
from ai.advice.passengers import PassengersAdvice
from ai.advice.tourist_cards import TouristCardsAdvice
from ai.advice.tunnels import TunnelsAdvice
from engine.rules.module import RuleModule
from engine.rulesets import available_variants, build_ruleset

ROOT = Path(__file__).resolve().parent.parent


def _kinds(rules) -> list[type]:
    return [type(a) for a in advice_for(rules)]


def test_every_advice_names_a_rule_module_with_a_rule_in_it():
    assert registered(), "no advice was found"
    for rule, advice in registered().items():
        module = importlib.import_module(rule)
        assert any(issubclass(c, RuleModule) and c is not RuleModule and c.__module__ == rule
                   for _, c in inspect.getmembers(module, inspect.isclass)), rule
        assert all(isinstance(a, Advice) and a.rule == rule for a in advice)


def test_a_rule_sets_advice_is_its_modules_advice_in_its_order():
    assert _kinds(build_ruleset("usa", 2)) == [TunnelsAdvice]
    assert _kinds(build_ruleset("ussr", 3)) == [TunnelsAdvice, ControllerAdvice]
    assert _kinds(build_ruleset("germany", 3)) == [PassengersAdvice]
    alsace = _kinds(build_ruleset("alsace", 3))
    assert alsace == [TunnelsAdvice, BurnFiveAdvice, TouristCardsAdvice, CallTimeAdvice]
    # The Dice Expansion drops the card tunnels and brings its own advice, dice first.
    dice = _kinds(build_ruleset("ussr", 3, {"dice": True}))
    assert dice[:3] == [DiceTurnAdvice, DiceTunnelsAdvice, DiceTokensAdvice]
    assert TunnelsAdvice not in dice and ControllerAdvice not in dice


def test_the_advice_of_a_rule_set_is_built_once():
    rules = build_ruleset("alsace", 4)
    assert advice_for(rules) is advice_for(rules)


@pytest.mark.parametrize("path", sorted((ROOT / "ai").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_computer_player_names_a_variant(path: Path):
    """Variants are rule sets the players loop over: the AI asks for rule modules' advice, never
    for a variant by name."""
    source = path.read_text(encoding="utf-8")
    named = [v for v in available_variants() if re.search(rf"""["']{v}["']""", source)]
    assert named == []
    assert ".variant ==" not in source and "variant in (" not in source
