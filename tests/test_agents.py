"""The computer players of engine/agents: every agent finishes a game on every variant, with and
without dice, keeping every invariant; the hard AI is deterministic and never reads a secret;
the tournament prints its JSON; the levels a host chooses reach `make_ai`."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

import pytest

from engine import tournament
from engine.actions import KeepTickets
from engine.agents import AGENTS, make_agent
from engine.agents.baseline import BaselineAI
from engine.agents.search import SearchAI
from engine.ai import AI_LEVELS, OFFERED_LEVELS, GreedyAI, RandomAI, make_ai
from engine.game import actors, apply, legal_actions, new_game, replay, view
from engine.state import GameState
from engine.variants import available_variants
from tests.test_selfplay_invariants import InvariantChecker

BASELINES = ("route_focus", "destination_hungry", "one_step", "long_route")
AGENT_NAMES = (*BASELINES, "planner", "search")
PLAYERS = {"usa": 2, "europe": 2, "nordic": 2, "germany": 3, "ussr": 3, "alsace": 3}
GAMES = [(agent, variant, dice) for agent in AGENT_NAMES for variant in available_variants() for dice in (False, True)]


@pytest.fixture
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard AI with a tenth of its search budget: the same decisions searched, fewer
    playouts each (the suite plays many games)."""
    monkeypatch.setattr(SearchAI, "budget", 800)


@pytest.mark.parametrize("agent,variant,dice", GAMES,
                         ids=[f"{a}-{v}{'-dice' if d else ''}" for a, v, d in GAMES])
def test_each_agent_plays_every_variant_to_the_end(agent: str, variant: str, dice: bool, quick_search: None) -> None:
    players = PLAYERS[variant]
    options = {"dice": True} if dice else {}
    seats = [agent, "greedy", "random"][:players]
    checker = InvariantChecker(variant, players)
    result = tournament.play(variant, players, 17, seats, options, check=checker, keep_actions=True)
    assert result.ended == "end", f"{agent} on {variant}: the game ended by {result.ended}"
    # The moves the agents chose replay to the same final state.
    again = replay(variant, players, 17, result.actions, options, first_player=0)
    assert again.game_over and again.result is not None
    assert [s["total"] for s in again.result["sheets"]] == [s.score for s in result.seats]


def test_every_variant_is_covered() -> None:
    assert {v for _, v, _ in GAMES} == set(available_variants()) == set(PLAYERS)


def test_the_registry_builds_every_agent() -> None:
    for name in AGENTS:
        agent = make_agent(name, 3)
        assert callable(agent.choose)
    for name in BASELINES:
        assert isinstance(make_agent(name), BaselineAI)
    with pytest.raises(ValueError):
        make_agent("grandmaster")


# --- the hard AI ---------------------------------------------------------------------------


def _opening(variant: str = "europe", seed: int = 4) -> GameState:
    state, _ = new_game(variant, 2, seed, first_player=0)
    return state


def _mid_game(seed: int = 8) -> GameState:
    """A 2-player USA game a few turns in, at a turn of seat 0, whose tickets are done (it
    holds none): whether to take more is a choice the hard AI searches."""
    state, _ = new_game("usa", 2, seed, first_player=0)
    n = 0
    while n < 30 or state.pending.get("kind") != "turn" or actors(state) != [0]:
        seat = actors(state)[0]
        state, _ = apply(state, make_ai("greedy", n).choose(view(state, seat), legal_actions(state, seat)))
        n += 1
    state.players[0].tickets = []
    return state


def test_the_hard_ai_searches_the_opening_choice_of_tickets() -> None:
    state = _opening()
    ai = SearchAI(5)
    move = ai.choose(view(state, 0), legal_actions(state, 0))
    assert isinstance(move, KeepTickets)
    assert ai.report.searched and ai.report.samples >= 2 and len(ai.report.candidates) >= 2
    assert move in ai.report.candidates


def test_the_hard_ai_makes_the_same_move_with_the_same_seed() -> None:
    state = _opening()
    first = SearchAI(11)
    second = SearchAI(11)
    a = first.choose(view(state, 0), legal_actions(state, 0))
    b = second.choose(view(state, 0), legal_actions(state, 0))
    assert a == b
    assert first.report.values == second.report.values and first.report.moves == second.report.moves


def _scrambled(state: GameState, seat: int, seed: int) -> GameState:
    """The same game with every secret of `seat`'s opponents and decks shuffled: the other
    hands redrawn from the deck (same sizes), the other tickets swapped with undrawn ones,
    the deck and ticket decks reordered, another generator."""
    rng = random.Random(seed)
    s = state.clone()
    pool = list(s.deck)
    for p in s.players:
        if p.seat != seat:
            pool += [c for c, n in p.hand.items() for _ in range(n)]
    rng.shuffle(pool)
    for p in s.players:
        if p.seat != seat:
            size = p.hand_size()
            hand: dict[str, int] = {}
            for card in pool[:size]:
                hand[card] = hand.get(card, 0) + 1
            del pool[:size]
            p.hand = hand
    s.deck = pool
    for p in s.players:
        if p.seat != seat:
            for deck in s.ticket_decks.values():
                swap = min(len(deck), len(p.tickets))
                if swap:
                    p.tickets[:swap], deck[:swap] = deck[:swap], p.tickets[:swap]
                    break
    for deck in s.ticket_decks.values():
        rng.shuffle(deck)
    s.rng = rng.getrandbits(64)
    s.seed = rng.getrandbits(32)
    return s


@pytest.mark.parametrize("where", ["opening", "mid-game"])
def test_the_hard_ai_never_reads_the_secrets(where: str) -> None:
    state = _opening() if where == "opening" else _mid_game()
    other = _scrambled(state, 0, 99)
    # The scrambled game really is another game, which seat 0 sees exactly as before.
    assert other.to_canonical() != state.to_canonical()
    assert other.players[1].hand != state.players[1].hand or other.players[1].tickets != state.players[1].tickets
    assert view(other, 0) == view(state, 0)
    assert legal_actions(other, 0) == legal_actions(state, 0)
    ai, twin = SearchAI(21), SearchAI(21)
    move = ai.choose(view(state, 0), legal_actions(state, 0))
    assert twin.choose(view(other, 0), legal_actions(other, 0)) == move
    assert ai.report.searched and ai.report.values == twin.report.values


def test_the_hard_ai_searches_whether_to_take_more_tickets() -> None:
    """With its tickets done and trains to spare, taking more tickets is one of the moves it
    plays out."""
    state = _mid_game()
    ai = SearchAI(2)
    ai.choose(view(state, 0), legal_actions(state, 0))
    assert ai.report.searched
    assert any(a.TYPE == "draw_tickets" for a in ai.report.candidates)


# --- the tournament ------------------------------------------------------------------------


def test_the_tournament_prints_one_json_object() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert tournament.main(["--variant", "usa", "--players", "2", "--games", "2", "--ai", "one_step,greedy",
                                "--seed", "3", "--json"]) == 0
    report = json.loads(out.getvalue())
    assert set(report["agents"]) == {"one_step", "greedy"}
    for figures in report["agents"].values():
        assert {"games", "wins", "win_rate", "mean_score", "decision_p50_s", "decision_p95_s"} <= set(figures)
        assert figures["games"] == 2
        assert 0.0 <= figures["win_rate"] <= 1.0
        low, high = figures["win_rate_95"]
        assert 0.0 <= low <= figures["win_rate"] <= high <= 1.0
        assert figures["decision_p50_s"] <= figures["decision_p95_s"]
    assert report["games"] == 2


def test_the_tournament_swaps_seats_between_games() -> None:
    assert tournament.seating(["hard", "greedy"], 2, 0) == ["hard", "greedy"]
    assert tournament.seating(["hard", "greedy"], 2, 1) == ["greedy", "hard"]
    assert tournament.seating(["hard", "greedy"], 4, 1) == ["greedy", "hard", "greedy", "hard"]
    # Every deal is played once per rotation.
    assert tournament.schedule(4, 2, 10) == [(10, 0), (10, 1), (11, 0), (11, 1)]


def test_the_tournament_replays_the_same_games() -> None:
    first = tournament.run("usa", 2, 2, ["long_route", "one_step"], seed=5)
    again = tournament.run("usa", 2, 2, ["long_route", "one_step"], seed=5)
    assert [[s.score for s in g.seats] for g in first] == [[s.score for s in g.seats] for g in again]


def test_the_wilson_interval() -> None:
    low, high = tournament.wilson(60, 100)
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691
    assert tournament.wilson(0, 0) == (0.0, 1.0)


# --- levels --------------------------------------------------------------------------------


def test_the_levels_a_host_chooses_reach_make_ai() -> None:
    assert OFFERED_LEVELS == ("easy", "normal", "hard")
    assert type(make_ai("easy", 1)).__name__ == "OneStepAI"
    assert type(make_ai("normal", 1)) is GreedyAI
    assert isinstance(make_ai("hard", 1), SearchAI)
    # Levels stored by games older than the offered levels still load.
    assert type(make_ai("greedy", 1)) is GreedyAI
    assert type(make_ai("random", 1)) is RandomAI
    assert set(OFFERED_LEVELS) | {"random", "greedy"} == set(AI_LEVELS)
    # The tournament's agents by name, too.
    assert type(make_ai("long_route", 1)).__name__ == "LongRouteAI"
    with pytest.raises(ValueError, match="easy, normal, hard"):
        make_ai("expert")
