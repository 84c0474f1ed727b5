"""The tournament command (tools/tournament.py): seats swap between games, every deal is played
with each rotation, the same seed plays the same games, `--json` prints exactly one JSON
object of the promised shape, and the text report names every agent's figures."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

from tools import tournament

TIMINGS = ("decision_p50_s", "decision_p95_s", "decision_max_s")


def _main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = tournament.main(list(argv))
    return code, out.getvalue()


def _json(seed: int) -> dict[str, Any]:
    code, text = _main("--variant", "usa", "--players", "2", "--games", "2", "--ai", "one_step,greedy",
                       "--seed", str(seed), "--json")
    assert code == 0
    report: dict[str, Any] = json.loads(text)
    return report


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    agents = {name: {k: v for k, v in figures.items() if k not in TIMINGS}
              for name, figures in report["agents"].items()}
    return {**{k: v for k, v in report.items() if k != "seconds"}, "agents": agents}


def test_json_prints_exactly_one_object_of_the_promised_shape() -> None:
    code, text = _main("--variant", "usa", "--players", "2", "--games", "2", "--ai", "one_step,greedy",
                       "--seed", "3", "--json")
    assert code == 0
    assert len(text.strip().splitlines()) == 1  # one object, on one line, nothing else
    report = json.loads(text)
    assert set(report["agents"]) == {"one_step", "greedy"}
    for figures in report["agents"].values():
        assert {"games", "wins", "win_rate", "mean_score", "decision_p50_s", "decision_p95_s"} <= set(figures)
        assert isinstance(figures["games"], int) and isinstance(figures["wins"], int)
        assert figures["games"] == 2
        assert figures["win_rate"] == figures["wins"] / figures["games"]
        low, high = figures["win_rate_95"]
        assert 0.0 <= low <= figures["win_rate"] <= high <= 1.0
        assert 0.0 <= figures["decision_p50_s"] <= figures["decision_p95_s"]
    assert report["games"] == 2
    # Two players, two games: at least one winner per game.
    assert sum(f["wins"] for f in report["agents"].values()) >= 2


def test_the_text_report_names_each_agent_and_its_figures() -> None:
    code, text = _main("--variant", "europe", "--players", "3", "--games", "3", "--ai", "long_route,greedy,random",
                       "--seed", "2")
    assert code == 0
    for word in ("wins", "win rate", "95 % interval", "score", "tickets", "p50 s", "p95 s"):
        assert word in text
    rows = {line.split()[0]: line.split() for line in text.splitlines()[2:] if line.split()
            and line.split()[0] in ("long_route", "greedy", "random")}
    assert set(rows) == {"long_route", "greedy", "random"}
    assert all(row[1] == "3" for row in rows.values())  # each agent played every game


def test_seats_rotate_between_games() -> None:
    assert tournament.seating(["hard", "greedy"], 2, 0) == ["hard", "greedy"]
    assert tournament.seating(["hard", "greedy"], 2, 1) == ["greedy", "hard"]
    assert tournament.seating(["hard", "greedy"], 4, 1) == ["greedy", "hard", "greedy", "hard"]
    # Every deal is played once per rotation, and a tournament played in parts keeps the order.
    assert tournament.schedule(4, 2, 10) == [(10, 0), (10, 1), (11, 0), (11, 1)]
    assert tournament.schedule(2, 2, 10, first=2) == [(11, 0), (11, 1)]


def test_each_agent_plays_each_seat_of_the_same_deal() -> None:
    games = tournament.run("usa", 2, 4, ["one_step", "long_route"], seed=7)
    assert [(g.seed, g.rotation) for g in games] == [(7, 0), (7, 1), (8, 0), (8, 1)]
    for first, second in (games[0:2], games[2:4]):
        assert [s.agent for s in first.seats] == ["one_step", "long_route"]
        assert [s.agent for s in second.seats] == ["long_route", "one_step"]
        assert first.seed == second.seed
    assert all(g.ended == "end" for g in games)


def test_the_same_seed_plays_the_same_tournament() -> None:
    first, again = _json(5), _json(5)
    assert _without_timings(first) == _without_timings(again)
    other = _json(6)
    assert _without_timings(other)["agents"] != _without_timings(first)["agents"]


def test_the_same_games_whatever_the_number_of_worker_processes() -> None:
    alone = tournament.run("usa", 2, 2, ["long_route", "one_step"], seed=5)
    pooled = tournament.run("usa", 2, 2, ["long_route", "one_step"], seed=5, jobs=2)
    assert [[(s.agent, s.score) for s in g.seats] for g in alone] == [[(s.agent, s.score) for s in g.seats]
                                                                       for g in pooled]


def test_an_unknown_agent_is_refused_in_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        tournament.main(["--ai", "grandmaster,greedy"])
    assert "unknown AI level 'grandmaster'" in capsys.readouterr().err


def test_the_wilson_interval() -> None:
    low, high = tournament.wilson(60, 100)
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691
    assert tournament.wilson(0, 0) == (0.0, 1.0)
