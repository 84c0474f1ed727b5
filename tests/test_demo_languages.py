"""A whole demo game in each language reads without English words (issue 28, Done when): the
thread (log.txt) and every player's direct messages (dm-*.txt), checked against the English
catalogue by tests/english_leftovers.py; city names and player names stay as they are."""

from __future__ import annotations

from pathlib import Path

from bot_app.demo import play_demo
from tests.english_leftovers import english_leftovers


def test_an_english_line_in_a_german_thread_is_found_with_its_line() -> None:
    text = "• Bot 1 zog 4 Zielkarten\n• Bot 1 drew 2 cards from the deck"
    found = english_leftovers(text, "de", "germany", names=["Bot 1"])
    assert [(f.line_no, f.word) for f in found] == [(2, "drew"), (2, "cards"), (2, "from"), (2, "the")]


def test_words_the_target_catalogue_also_uses_are_not_english_leftovers() -> None:
    assert english_leftovers("Tunnel Lokomotive Bonus", "de") == []


def test_city_names_in_any_spelling_and_player_names_are_not_english_leftovers() -> None:
    # "city" and "new" are English catalogue words; Salt Lake City and New York are cities.
    assert [f.word for f in english_leftovers("Salt Lake City · New York · Red", "de")] == ["City", "New", "Red"]
    assert english_leftovers("Salt Lake City · New York · Red Baron", "de", "usa", names=["Red Baron"]) == []
    assert english_leftovers("Munich · Vienna · Moscow · Berlin", "fr", "europe") == []


def test_the_maps_title_is_not_a_city_name() -> None:
    assert [f.word for f in english_leftovers("Spiel #1 · Germany", "de", "germany")] == ["Germany"]


async def test_a_text_only_demo_writes_the_thread_and_the_messages_in_the_tables_language(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    summary = await play_demo("usa", 2, 5, out, ["greedy"], quiet=True, options={"language": "de"}, pictures=False)
    assert summary["ended"]
    assert sorted(p.name for p in out.iterdir()) == ["dm-bot-1.txt", "dm-bot-2.txt", "game-log.json", "game-log.txt",
                                                    "log.txt"]
    thread = (out / "log.txt").read_text(encoding="utf-8")
    assert thread.startswith("── Beitrag 1 ──\n") and "der Spielplan vorgelesen: " in thread
    dms = (out / "dm-bot-1.txt").read_text(encoding="utf-8")
    assert "[Direktnachricht, Zug 0]" in dms and "[Antwort auf deinen Zug " in dms
