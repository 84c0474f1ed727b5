"""bench/bench_ai.py's experiment tools: an arm played with a search constant changed, and the
paired comparison of an arm with its base on the same deals."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ai.agents import search
from tools.tournament import GameResult, SeatResult

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_ai  # noqa: E402


@pytest.fixture
def constants(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a test changes in ai/agents/search.py is put back after it."""
    for name in ("BUDGET", "LATE_TRAINS", "CONFIDENCE", "SEARCH_OPENING_KEEP"):
        monkeypatch.setattr(search, name, getattr(search, name))
    monkeypatch.setattr(search.SearchAI, "budget", search.SearchAI.budget)


def test_a_search_constant_is_changed_with_its_own_type(constants: None) -> None:
    changed = bench_ai.set_search(["BUDGET=24000", "LATE_TRAINS=14", "CONFIDENCE=1", "SEARCH_OPENING_KEEP=off"])
    assert changed == {"BUDGET": 24000, "LATE_TRAINS": 14, "CONFIDENCE": 1.0, "SEARCH_OPENING_KEEP": False}
    assert search.SearchAI.budget == 24000 and isinstance(search.CONFIDENCE, float)
    assert search.SEARCH_OPENING_KEEP is False


@pytest.mark.parametrize("setting,words", [
    ("BUDGT=3", "not NAME=VALUE"), ("search=3", "not NAME=VALUE"), ("BUDGET", "not NAME=VALUE"),
    ("BUDGET=abc", "'abc' is not a whole number"), ("CONFIDENCE=x", "'x' is not a number"),
])
def test_a_wrong_search_setting_is_refused_in_one_sentence_and_changes_nothing(
        constants: None, setting: str, words: str) -> None:
    before = search.BUDGET, search.CONFIDENCE
    with pytest.raises(ValueError, match=words):
        bench_ai.set_search([setting])
    assert before == (search.BUDGET, search.CONFIDENCE)


def _game(seed: int, rotation: int, hard_won: bool) -> GameResult:
    seats = [SeatResult("hard", 0, 100, hard_won, False, 3, 3), SeatResult("network", 1, 90, not hard_won, False, 4, 4)]
    return GameResult(seed=seed, rotation=rotation, seats=seats, ended="end", decisions=300)


def test_an_arm_is_compared_with_its_base_on_the_games_both_played(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    name = "usa-2p-hard-vs-network"
    arm, base = tmp_path / "arm", tmp_path / "base"
    arm.mkdir(), base.mkdir()
    # Deals 0-4 both played; the arm won 0, 1, 2, 3 and the base 0, 4; deal 5 only the arm played.
    bench_ai._save(arm / f"{name}-0000.json", [_game(s, 0, s < 4) for s in range(6)])
    bench_ai._save(base / f"{name}-0000.json", [_game(s, 0, s in (0, 4)) for s in range(5)])
    bench_ai.pair(arm, base)
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith(f"| {name} ")]
    assert row == [f"| {name} | 5 | 4 (80.0 %) | 37.6–96.4 % | 2 (40.0 %) | 11.8–76.9 % | 3 / 1 | 0.62 |"]


def test_the_pairs_tickets_margins_and_times_are_read_on_the_games_both_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = "usa-2p-hard-vs-network"
    arm, base = tmp_path / "arm", tmp_path / "base"
    arm.mkdir(), base.mkdir()
    games = [_game(s, 0, True) for s in range(3)]
    games[0].seats[0].times = [0.5, 1.5]
    bench_ai._save(arm / f"{name}-0000.json", games)
    bench_ai._save(base / f"{name}-0000.json", [_game(s, 0, False) for s in range(2)])
    bench_ai.pair_figures(arm, base)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(f"| {name} ")]
    # Two games both played: hard 3 tickets, network 4, margin 100 - 90; arm times 0.5 and 1.5 s.
    assert rows == [f"| {name} | arm | 3.00 / 4.00 | +10.0 | 1.500 / 1.50 |",
                    f"| {name} | base | 3.00 / 4.00 | +10.0 | 0.000 / 0.00 |"]


def test_the_sign_test_is_two_sided() -> None:
    assert bench_ai.sign_test(0, 0) == 1.0
    assert bench_ai.sign_test(3, 1) == bench_ai.sign_test(1, 3) == 0.625
    assert bench_ai.sign_test(10, 0) == pytest.approx(2 / 1024)
