"""The hard AI's blocking candidate (ai/agents/search.py, BLOCKING): a claim of the route another
player's likely network would miss most, guessed from its visible claims only."""

from __future__ import annotations

import pytest

from ai.agents import search
from ai.agents.planner import PlannerAI, seen_from_view
from ai.agents.planning import closed_groups, map_info, plan_network
from ai.agents.search import SearchAI, block_claim, likely_tickets
from ai.blunders import repair, sensible
from engine.actions import ClaimRoute
from engine.core import Turn
from engine.decisions import decision_of
from engine.game import actors, apply, legal_actions, new_game, view
from engine.state import GameState


def _blocking_turns(variant: str, seed: int) -> list[GameState]:
    """The states of a planner-against-planner game where seat 0, on its turn, has a block."""
    state, _ = new_game(variant, 2, seed, {})
    players = [PlannerAI(seed=1), PlannerAI(seed=2)]
    found = []
    while state.status != "over":
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        v = view(state, seat)
        if seat == 0 and isinstance(decision_of(state.pending), Turn) and block_claim(v, legal, seen_from_view(v)):
            found.append(state)
        state, _ = apply(state, players[seat].choose(v, legal))
    return found


@pytest.mark.parametrize("variant,seed", [("usa", 1), ("europe", 5)])
def test_the_block_claims_a_route_of_the_other_players_likely_network(variant: str, seed: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    states = _blocking_turns(variant, seed)
    assert states, "no turn with a block in the game"
    info = map_info(variant, 2, {})
    for state in states:
        v = view(state, 0)
        legal = legal_actions(state, 0)
        block = block_claim(v, legal, seen_from_view(v))
        assert isinstance(block, ClaimRoute) and block in legal
        tickets = likely_tickets(v, 1, info)
        other = state.players[1]
        closed = closed_groups(info, state.route_owner, 1, False)
        plan = plan_network(info, state.route_owner, 1, closed, tickets, other.trains, other.routes)
        assert block.route in plan.routes
    with monkeypatch.context() as m:
        m.setattr(search, "BLOCK_MIN_COST", 1000.0)
        v = view(states[0], 0)
        assert block_claim(v, legal_actions(states[0], 0), seen_from_view(v)) is None, "too cheap a loss to block"


def test_the_guess_reads_only_the_view() -> None:
    """The other player's likely tickets and the block are the same whatever it really holds."""
    state = _blocking_turns("usa", 1)[0]
    v = view(state, 0)
    info = map_info("usa", 2, {})
    before = likely_tickets(v, 1, info), block_claim(v, legal_actions(state, 0), seen_from_view(v))
    mine = set(state.players[0].tickets)
    state.players[1].tickets = [t for t in info.game_map.tickets if t not in mine][:len(state.players[1].tickets)]
    v = view(state, 0)
    assert (likely_tickets(v, 1, info), block_claim(v, legal_actions(state, 0), seen_from_view(v))) == before
    assert all(t not in mine for t in before[0])


@pytest.mark.parametrize("blocking", [False, True])
def test_the_search_compares_the_block_only_when_switched_on(blocking: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "BLOCKING", blocking)
    monkeypatch.setattr(SearchAI, "budget", 400)
    # A turn before the last ones whose block is no blunder of the list (a claim serving no
    # ticket of its own while a contested one it needs can be paid is repaired: ai/blunders.py).
    for state in _blocking_turns("usa", 1):
        v = view(state, 0)
        legal = sensible(v, legal_actions(state, 0))
        block = block_claim(v, legal, seen_from_view(v))
        if min(p.trains for p in state.players) > search.LATE_TRAINS and block and repair(v, legal, block) is block:
            break
    else:
        pytest.fail("no turn with a block that is no blunder")
    ai = SearchAI(seed=5)
    default = PlannerAI.choose(ai, v, legal)
    ai.choose(v, legal)
    if blocking and block != default:
        assert ai.report.searched and block in ai.report.candidates
    else:
        assert block not in ai.report.candidates
