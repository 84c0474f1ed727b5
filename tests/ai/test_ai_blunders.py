"""The blunder list as an invariant of self-play (ai/blunders.py, judged by tools/blunders.py):
the normal and hard levels make none of the list; the easy level, weak as it may be, never an
absurd one (tickets drawn in the final round or with too few trains, the same tunnel given up
twice with the same hand). Seeded games on every variant, with and without dice."""

from __future__ import annotations

from collections import Counter

import pytest

from ai.agents.search import SearchAI
from engine.rulesets import available_variants
from tools.blunders import BLUNDERS, Judge
from tools.selfplay import play_game

ABSURD = ("tunnel_retry", "late_tickets")
TABLES = [(variant, dice) for variant in available_variants() for dice in (False, True)]


def _blunders(variant: str, levels: tuple[str, ...], seed: int, dice: bool) -> dict[str, Counter[str]]:
    judge = Judge()
    record = play_game(variant, len(levels), seed, levels, {"dice": True} if dice else {}, judge.check)
    assert record.ended != "stalled"
    judge.finish(record.state)
    return {level: judge.of_seat(seat) for seat, level in enumerate(levels)}


@pytest.mark.parametrize("variant,dice", TABLES, ids=[f"{v}{'-dice' if d else ''}" for v, d in TABLES])
def test_the_normal_level_makes_no_blunder_and_easy_no_absurd_one(variant: str, dice: bool) -> None:
    found = _blunders(variant, ("normal", "easy"), 11, dice)
    assert found["normal"] == Counter(), f"normal blundered: {dict(found['normal'])}"
    assert {b: found["easy"][b] for b in ABSURD} == dict.fromkeys(ABSURD, 0)


def test_the_hard_level_makes_no_blunder(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small search budget: the same decisions searched (and their candidates sifted for
    # blunders), fewer playouts each. Europe: tunnels, stations and doubles.
    monkeypatch.setattr(SearchAI, "budget", 300)
    found = _blunders("europe", ("hard", "normal"), 12, False)
    assert found["hard"] == Counter(), f"hard blundered: {dict(found['hard'])}"
    assert found["normal"] == Counter()


def test_the_list_is_five_blunders() -> None:
    assert BLUNDERS == ("tunnel_retry", "late_tickets", "hoarding", "station_lost", "aimless_claim")
