"""The computer players' per-rule advice (ai/advice/): keyed by the rule module, composed for a
game's rule set the way its rules are — by the greedy player, the search AI's sampler and its
playouts — and no variant named anywhere in ai/."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from ai.advice import Advice, advice_for, advice_of_view, can_search, registered
from ai.advice.burn_five import BurnFiveAdvice
from ai.advice.call_time import CallTimeAdvice
from ai.advice.controller import ControllerAdvice
from ai.advice.dice import DiceDiscardAdvice, DiceTokensAdvice, DiceTunnelsAdvice, DiceTurnAdvice
from ai.advice.passengers import PassengersAdvice
from ai.advice.stations import DiceStationsAdvice, StationsAdvice
from ai.advice.tourist_cards import TouristCardsAdvice
from ai.advice.tunnels import TunnelsAdvice
from ai.agents.determinize import sample_state
from ai.agents.planning import map_info
from ai.agents.rollout import new_policy
from ai.greedy import GreedyAI
from engine.game import actors, apply, legal_actions, new_game, view
from engine.rng import Rng, seed_state
from engine.rules.call_time import CallTime
from engine.rules.dice import DiceView
from engine.rules.module import RuleModule
from engine.rules.passengers import PassengersView
from engine.rules.tourist_cards import TOURIST, TouristView
from engine.rulesets import available_variants, build_ruleset
from engine.state import GameState
from engine.view import View
from tools.selfplay import play_game

ROOT = Path(__file__).resolve().parents[2]


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
    assert _kinds(build_ruleset("ussr", 3)) == [TunnelsAdvice, StationsAdvice, ControllerAdvice]
    assert _kinds(build_ruleset("europe", 3)) == [TunnelsAdvice, StationsAdvice]
    assert _kinds(build_ruleset("germany", 3)) == [PassengersAdvice]
    alsace = _kinds(build_ruleset("alsace", 3))
    assert alsace == [TunnelsAdvice, BurnFiveAdvice, TouristCardsAdvice, CallTimeAdvice]
    # The Dice Expansion drops the card tunnels and brings its own advice, dice first.
    dice = _kinds(build_ruleset("ussr", 3, {"dice": True}))
    assert dice[:5] == [DiceTurnAdvice, DiceTunnelsAdvice, DiceStationsAdvice, DiceTokensAdvice, DiceDiscardAdvice]
    assert TunnelsAdvice not in dice and ControllerAdvice not in dice


def test_the_advice_of_a_rule_set_is_built_once():
    rules = build_ruleset("alsace", 4)
    assert advice_for(rules) is advice_for(rules)


TABLES = [(variant, dice) for variant in available_variants() for dice in (False, True)]


@pytest.mark.parametrize("variant,dice", TABLES, ids=[f"{v}{'-dice' if d else ''}" for v, d in TABLES])
def test_every_part_of_a_searched_view_is_sampled_by_its_rules_advice(variant: str, dice: bool):
    """The search AI rebuilds each rule's part of the view through that rule's advice, and can
    search every rule set, the Dice Expansion's included: the dice are public, so a sampled
    game shows them (and this turn's bookkeeping) exactly as the view does."""
    state, _ = new_game(variant, 3, 4, {"dice": True} if dice else {})
    seen = view(state, 0)
    samplers = {a.part for a in advice_of_view(seen) if a.part is not None}
    assert {type(part) for part in seen.parts} <= samplers
    assert can_search(seen)
    if dice:
        # At the first roll (after the opening tickets, played by greedy players).
        while state.pending.get("kind") != "dice_roll":
            seat = actors(state)[0]
            state, _ = apply(state, GreedyAI(seat).choose(view(state, seat), legal_actions(state, seat)))
        seat = actors(state)[0]
        seen = view(state, seat)
        sample = sample_state(seen, Rng(seed_state(3)), map_info(variant, 3, seen.options))
        shown = seen.part(DiceView)
        assert shown is not None and shown.turn is not None and shown.unused[seat]
        assert view(sample, seat).part(DiceView) == shown


def _alsace_mid_game() -> tuple[GameState, View]:
    """An Alsace game on seat 0's turn, a dozen turns in, played by greedy players."""
    state, _ = new_game("alsace", 3, 8)
    players = [GreedyAI(seat) for seat in range(3)]
    while state.turn < 12 or actors(state) != [0] or state.pending.get("kind") != "turn":
        seat = actors(state)[0]
        state, _ = apply(state, players[seat].choose(view(state, seat), legal_actions(state, seat)))
    return state, view(state, 0)


def test_a_sampled_alsace_game_deals_the_tourist_cards_the_view_leaves_possible():
    _, seen = _alsace_mid_game()
    part = seen.part(TouristView)
    assert part is not None
    sample = sample_state(seen, Rng(seed_state(5)), map_info("alsace", 3, {}))
    assert sample.players[0].private[TOURIST] == list(part.mine or ())
    dealt = [c for p in sample.players for c in p.private[TOURIST]]
    assert len(dealt) == len(set(dealt)), "a tourist card was dealt twice"
    for p, count in zip(sample.players, part.counts, strict=True):
        assert len(p.private[TOURIST]) == count == p.public["tourist_cards"]
    # The sample is a guess: it sees what seat 0 sees, and its own cards are seat 0's.
    assert view(sample, 0).part(TouristView) == part


def test_a_sampled_germany_game_copies_the_passengers_from_the_view():
    state, _ = new_game("germany", 3, 2)
    seen = view(state, 1)
    sample = sample_state(seen, Rng(seed_state(1)), map_info("germany", 3, {}))
    assert view(sample, 1).part(PassengersView) == seen.part(PassengersView)


def test_a_playout_asks_the_rules_advice_for_the_rules_own_decisions():
    """Calling time in an Alsace playout is the call-time advice's answer, read from the
    playout's plan: the rollout itself knows no rule beyond the turn and the tickets."""
    record = play_game("alsace", 2, 7, ("greedy",))
    state, _ = new_game("alsace", 2, 7)
    for action in record.actions:
        if state.pending.get("kind") == "call_time":
            break
        state, _ = apply(state, action)
    assert state.pending.get("kind") == "call_time", "the game never asked to call time"
    seat = actors(state)[0]
    policy = new_policy(state, map_info("alsace", 2, {}))
    move = policy.other(state, seat)
    assert isinstance(move, CallTime)
    expected = CallTimeAdvice().playout(policy, state, seat, legal_actions(state, seat))
    assert move == expected
    source = (ROOT / "ai" / "agents" / "rollout.py").read_text(encoding="utf-8")
    # The turn's own rules only: claiming a route (its payments listed by route) and the cards.
    assert re.findall(r"^from engine\.rules\.(\w+)", source, re.M) == ["claim_route", "train_cards"]


@pytest.mark.parametrize("path", sorted((ROOT / "ai").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_computer_player_names_a_variant(path: Path):
    """Variants are rule sets the players loop over: the AI asks for rule modules' advice, never
    for a variant by name, nor for a table option's value (a rule's business)."""
    source = path.read_text(encoding="utf-8")
    named = [v for v in available_variants() if re.search(rf"""["']{v}["']""", source)]
    assert named == []
    assert ".variant ==" not in source and "variant in (" not in source
    assert ".options.get(" not in source and ".options[" not in source
