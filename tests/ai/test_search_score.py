"""How the hard AI's search scores a playout (ai/agents/search.py `score`, `evaluate`): the
margin by default, exactly as before; a bonus for the win and a saturated margin behind their
switches (WIN_BONUS, WIN_SCALE), both in points."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from ai.agents import search
from ai.agents.search import SearchAI, evaluate, score
from engine.game import actors, legal_actions, new_game, view
from engine.state import GameState


@pytest.fixture
def switches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a test changes of the scoring is put back after it."""
    for name in ("WIN_BONUS", "WIN_SCALE"):
        monkeypatch.setattr(search, name, getattr(search, name))


def _finished(totals: dict[int, int]) -> GameState:
    """A stand-in for a finished game: the only part `evaluate` reads of one, its score sheets."""
    sheets = [{"seat": seat, "total": total} for seat, total in totals.items()]
    return cast(GameState, SimpleNamespace(result={"sheets": sheets}, players=[]))


def test_by_default_a_playout_scores_its_margin_exactly() -> None:
    assert search.WIN_BONUS == 0 and search.WIN_SCALE == 0
    for margin in range(-80, 81):
        value = score(margin)
        assert value == float(margin) and type(value) is float
    assert evaluate(_finished({0: 101, 1: 95, 2: 110}), 0) == -9.0
    assert evaluate(_finished({0: 101, 1: 95, 2: 110}), 2) == 9.0


def test_the_win_bonus_is_added_for_a_win_and_taken_for_a_loss(switches: None) -> None:
    search.WIN_BONUS = 20.0
    assert score(5) == 25.0 and score(-3) == -23.0 and score(1) == 21.0
    assert score(0) == 0.0  # a tie of totals is neither
    assert evaluate(_finished({0: 100, 1: 99}), 0) == 21.0
    assert evaluate(_finished({0: 100, 1: 99}), 1) == -21.0


def test_the_saturated_margin_counts_a_point_near_an_even_game_and_little_past_its_scale(
        switches: None) -> None:
    search.WIN_SCALE = 15.0
    assert score(0) == 0.0
    assert score(1) == pytest.approx(1.0, abs=0.01) and score(-1) == -score(1)
    assert score(15) == pytest.approx(15 * math.tanh(1.0))
    assert 14.0 < score(40) < score(60) < 15.0
    values = [score(m) for m in range(-60, 61)]
    assert values == sorted(values) and len(set(values)) == len(values)
    search.WIN_BONUS = 20.0  # both: saturated, then the bonus
    assert score(15) == pytest.approx(15 * math.tanh(1.0) + 20) and score(-40) < -34.0


@pytest.mark.parametrize("setting", [("WIN_BONUS", 20.0), ("WIN_SCALE", 15.0)])
def test_the_search_plays_the_same_playouts_whatever_it_scores(switches: None, monkeypatch: pytest.MonkeyPatch,
                                                               setting: tuple[str, float]) -> None:
    """The opening keep searched with a small budget: the score changes only the values
    compared (the same samples and playouts: counted work, not a clock), and the decision is
    replayed exactly."""
    monkeypatch.setattr(SearchAI, "budget", 400)
    state, _ = new_game("usa", 2, 1001, {}, first_player=0)
    seat = actors(state)[0]

    def decide() -> tuple[object, search.SearchReport]:
        ai = SearchAI(7)
        action = ai.choose(view(state, seat), legal_actions(state, seat))
        return action, ai.report

    _, margin = decide()
    setattr(search, *setting)
    first, scored = decide()
    again, replay = decide()
    assert first == again and scored == replay
    assert scored.samples == margin.samples and scored.moves == margin.moves
    assert scored.candidates == margin.candidates and scored.values != margin.values
    for by_score, by_margin in zip(scored.values, margin.values, strict=True):
        if setting[0] == "WIN_BONUS":  # the mean moves by the bonus times (wins - losses) / samples
            assert abs(by_score - by_margin) <= 20.0
        else:
            assert abs(by_score) < 15.0


def test_the_bench_plays_an_arm_with_either_switch(switches: None) -> None:
    """`bench/bench_ai.py targets --search WIN_BONUS=20` (the switches are numbers: 0 is off)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_ai

    assert bench_ai.set_search(["WIN_BONUS=20", "WIN_SCALE=15"]) == {"WIN_BONUS": 20.0, "WIN_SCALE": 15.0}
    assert search.WIN_BONUS == 20.0 and search.WIN_SCALE == 15.0
