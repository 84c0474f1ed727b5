"""The words around the game in every language (issue 28): the lobby post and its option list,
the tutorial's lines, the notices, the digest, the standings and the other answers of the table
render in each language with every placeholder filled and no English word left (city, player
and board names aside)."""

from __future__ import annotations

import re

import pytest

from app import Lobby, Seat
from bot_app import lang, lobby, table_options
from bot_app import text as bot_text
from tests.english_leftovers import english_leftovers

LANGUAGES = [c for c in lang.codes() if c != lang.ENGLISH]
PLAYERS = ("Ann", "Bob", "Cleo")
UNFILLED = re.compile(r"\{[a-z_]+\}")


def assert_translated(text: str, code: str, map_id: str | None = None, names: tuple[str, ...] = PLAYERS) -> None:
    """`text` has no placeholder left unfilled and no English word (for a reader of `code`)."""
    assert not UNFILLED.search(text), text
    left = english_leftovers(text, code, map_id, names)
    assert not left, "\n".join(map(str, left))


def _lobby(code: str, variant: str, options: dict, status: str = "lobby") -> Lobby:
    seats = (Seat(0, 11, False, None, "Ann"), Seat(1, None, True, "normal", "Bob"))
    return Lobby(game_id=5, guild_id=1, channel_id=2, thread_id=3, host_user_id=11, variant=variant,
                 options={**options, lang.LANGUAGE_OPTION: code}, seats_wanted=3, turn_hours=24, status=status,
                 seats=seats)


# Every option the lobby may list, at a table where it applies.
OPTION_TABLES = [("ussr", {"ussr_controller_tunnel_payment": "as_locomotive_reveal", "undo": False,
                           "plans_ahead": 2, "hints": True, "first_player": 1, "stand_in_level": "hard"}),
                 ("alsace", {"alsace_stations": True}),
                 ("nordic", {"dice": True, "dice_token_exchanges_per_turn": 2, "tunnel_die_faces": 3,
                             "dice_nordic_9_route": "disabled"})]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_lobby_post_and_its_options_read_in_the_tables_language(code):
    # The board's title is the rule set's (translated with the thread's words: not this file's).
    for variant, options in OPTION_TABLES:
        text = lobby.lobby_text(_lobby(code, variant, options), 24)
        assert_translated(text, code, variant, (*PLAYERS, bot_text.variant_title(variant)))
    for status in ("cancelled", "playing"):
        assert_translated(lobby.lobby_text(_lobby(code, "usa", {}, status), 24), code, "usa",
                          (*PLAYERS, bot_text.variant_title("usa")))


def test_every_option_value_has_its_words_in_the_catalogues():
    english = lang.english()
    for option in table_options.OPTIONS:
        assert english.has(f"table_option.title.{option.key}"), option.key
        for value, words in option.values:
            assert option.said(value, english) == words, (option.key, value)  # English unchanged


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_option_list_is_in_the_tables_language(code):
    words = table_options.option_lines({"alsace_stations": False, lang.LANGUAGE_OPTION: code})
    assert words[0] == lang.language(code).t("table_option.chosen",
                                             title=lang.language(code).t("table_option.title.alsace_stations"),
                                             value=lang.language(code).t("table_option.value.alsace_stations.false"))
    assert words[0] != "stations: no stations"


# The catalogue entries of the table's words (their section of each catalogue).
PREFIXES = ("tutorial.", "lobby.", "table_option.", "autocomplete.", "button.hint")


def _table_keys() -> list[str]:
    english = lang.english()
    catalog = english._tr._catalog  # type: ignore[attr-defined]
    keys = {k if isinstance(k, str) else k[0] for k in catalog if k and k != ("", 0)}
    return sorted(k for k in keys if k.startswith(PREFIXES))


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_entry_of_the_tables_words_is_translated_with_every_placeholder(code):
    words = lang.language(code)
    keys = _table_keys()
    assert len(keys) > 50
    for key in keys:
        plural = lang.english()._tr.ngettext(key, key, 2) != key
        forms = lang.english()._tr.ngettext(key, key, 2) if plural else lang.english().raw(key)
        values = {name: "<v>" for name in lang.placeholders(forms) if name != "n" or not plural}
        for n in (1, 2, 5) if plural else (None,):
            text = words.n(key, n, **values) if n is not None else words.t(key, **values)
            assert_translated(text, code)
