"""The rollout policy of the hard AI's search (ai/agents/rollout.py): its shortcuts pick the
moves the plain listing would (the search's choices are those of the slower listing)."""

from __future__ import annotations

import pytest

from ai.agents.planning import map_info
from ai.agents.rollout import RolloutPolicy, new_policy
from ai.agents.search import BUDGET, MAX_SAMPLES, OPENING_BUDGET, PLAN_WORK, SearchAI, work_units
from engine.actions import Action, ClaimRoute, DrawCard, Pass
from engine.cards import Cards
from engine.core import Turn
from engine.decisions import decision_of
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, legal_actions_of, new_game, view
from engine.rulesets import available_variants
from engine.state import GameState

TABLES = [(variant, dice) for variant in available_variants() for dice in (False, True)]


def listed_fallback(state: GameState, seat: int) -> Action:
    """The fallback as it was: every legal move listed, the first card draw taken."""
    legal = legal_actions(state, seat)
    draws = [a for a in legal if isinstance(a, DrawCard)]
    return (draws or legal or [Pass(seat)])[0]


@pytest.mark.parametrize("variant,dice", TABLES, ids=[f"{v}{'-dice' if d else ''}" for v, d in TABLES])
def test_the_fallback_takes_the_move_the_whole_listing_would(variant: str, dice: bool) -> None:
    """The fallback asks for the card draws alone first; at every state of a played-out game
    (the policy playing every seat, 3 players: Germany's big hands and a deck run dry) it picks
    the move the whole listing's first draw (or first move) would."""
    options = {"dice": True} if dice else {}
    state, _ = new_game(variant, 3, 5, options)
    policy: RolloutPolicy = new_policy(state, map_info(variant, 3, options))
    compared = drawn = 0
    while state.status != "over" and compared < 2000:
        seat = actors(state)[0]
        expected = listed_fallback(state, seat)
        assert policy.fallback(state, seat) == expected, f"turn {state.turn}: {expected}"
        compared += 1
        drawn += isinstance(expected, DrawCard)
        try:
            state, _ = apply(state, policy.choose(state, seat))
        except IllegalAction:
            state, _ = apply(state, expected)
    assert state.status == "over", f"{variant}: the playout did not end in {compared} moves"
    # Dice games have no card draws (the dice buy the cards): their fallback is the first move.
    assert drawn > 0 or dice, "no state where the fallback draws a card was compared"


@pytest.mark.parametrize("variant", available_variants())
def test_the_turn_lists_claims_cheaply_and_takes_the_same_move(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a turn the playout asks the claim rule for each route's payments (no action per
    payment) and skips the listing where the planner takes tickets whatever it could claim;
    at every turn of a played-out game it takes the move the whole listing gives."""
    state, _ = new_game(variant, 3, 11, {})
    info = map_info(variant, 3, {})
    policy = new_policy(state, info)
    listing = new_policy(state, info)
    listing.claimer = None  # every claim from `legal_actions_of`, an action per payment
    turns = 0
    while state.status != "over":
        seat = actors(state)[0]
        if isinstance(decision_of(state.pending), Turn):
            grouped: dict[str, list[Cards]] = {}
            for a in legal_actions_of(state, seat, ClaimRoute):
                grouped.setdefault(a.route, []).append(a.payment)
            assert {r: list(o) for r, o in policy.every_claim(state, seat).items()} == grouped
            assert list(policy.every_claim(state, seat)) == list(grouped), "not in the listing's order"
            with monkeypatch.context() as m:
                m.setattr("ai.agents.rollout.takes_tickets", lambda seen: False)
                expected = listing.turn(state, seat, second=False)
            assert policy.turn(state, seat, second=False) == expected, f"turn {state.turn}"
            turns += 1
        try:
            state, _ = apply(state, policy.choose(state, seat))
        except IllegalAction:
            state, _ = apply(state, policy.fallback(state, seat))
    assert turns > 20 and policy.listed > 0


def test_the_search_stops_at_its_work_budget_counting_more_than_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening keep: the search spends its budget in work units (moves, plans made,
    playouts ended, claims listed), so it stops once the units reach the budget (within a
    sample), and its units are more than its moves."""
    monkeypatch.setattr(SearchAI, "budget", 600)
    state, _ = new_game("usa", 2, 1001, {}, first_player=0)
    seat = actors(state)[0]
    ai = SearchAI(7)
    ai.choose(view(state, seat), legal_actions(state, seat))
    report = ai.report
    budget = 600 * OPENING_BUDGET // BUDGET
    assert report.searched and 2 <= report.samples < MAX_SAMPLES
    assert report.work == work_units(report.moves, report.listed, report.plans, report.samples * len(report.candidates))
    assert budget <= report.work < budget + 2 * report.work // report.samples
    assert report.work > report.moves + report.plans * PLAN_WORK
