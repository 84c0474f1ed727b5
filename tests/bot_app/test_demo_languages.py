"""A whole demo game in each language reads without English words (issue 28, Done when): the
thread (log.txt) and every player's direct messages (dm-*.txt), checked against the English
catalogue by tests/english_leftovers.py; city names and player names stay as they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

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


# A small whole game per board and language (two greedy players, text only: ~1-2 s CPU each):
# the boards together have every variant's lines (Germany's passengers, Alsace's tourist cards
# and Lucky Devils, the USSR with the Dice Expansion and without it (its Controller cards), the
# Nordic Countries' ferries and locomotives, Europe's stations and tunnels).
GAMES = [
    ("germany", "de", {}), ("alsace", "fr", {}), ("ussr", "ru", {"dice": True}), ("ussr", "sv", {}),
    ("nordic", "sv", {}),
    ("europe", "de", {}), ("europe", "fr", {}), ("europe", "ru", {}), ("europe", "sv", {}),
]
PLAYERS = ["Bot 1", "Bot 2"]


def _printed_names(variant: str) -> list[str]:
    """What the board prints as it is, besides its cities: Alsace's tourist attractions (not the
    Visitor Pass and the Lucky Devil, which are said in the reader's language)."""
    from engine.maps import load_map

    return [str(card["name"]) for card in load_map(variant).extras.get("tourist_cards", ())
            if card.get("kind") == "attraction"]


@pytest.mark.parametrize(("variant", "code", "options"), GAMES, ids=[f"{v}-{c}" for v, c, _ in GAMES])
async def test_a_whole_demo_game_reads_without_english_words(tmp_path: Path, variant: str, code: str,
                                                            options: dict[str, Any]) -> None:
    out = tmp_path / "demo"
    summary = await play_demo(variant, 2, 1, out, ["greedy"], quiet=True, options={**options, "language": code},
                              pictures=False)
    assert summary["ended"]
    assert not list(out.glob("*.png")) and not list(out.glob("*.gif"))  # text only
    files = [out / "log.txt", *sorted(out.glob("dm-*.txt"))]
    assert len(files) == 3
    left = [f"{f.name} {found}" for f in files
            for found in english_leftovers(f.read_text(encoding="utf-8"), code, variant,
                                           names=[*PLAYERS, *_printed_names(variant)])]
    assert not left, f"{len(left)} English words, the first: " + "\n".join(left[:20])
