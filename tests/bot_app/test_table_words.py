"""The words around the game in every language (issue 28): the lobby post and its option list,
the tutorial's lines, the notices, the digest, the standings and the other answers of the table
render in each language with every placeholder filled and no English word left (city, player
and board names aside)."""

from __future__ import annotations

import re

import pytest

from app import Lobby, Seat
from bot_app import lang
from bot_app.adapter import lobby
from bot_app.presentation import table_options
from bot_app.presentation import text as bot_text
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
PREFIXES = ("tutorial.", "lobby.", "plan.", "standings.", "games.", "table_option.", "autocomplete.", "notice.",
            "digest.", "vote.", "rematch.refusal.", "rematch.thread_intro", "button.hint", "button.undo",
            "button.vote_skip", "button.dms_open")


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


# --- the notices, the digest, the votes ---------------------------------------------------------

def _summary(code: str):
    from app import GameSummary

    seats = (Seat(0, 11, False, None, "Ann"), Seat(1, 12, False, None, "Bob"), Seat(2, None, True, "normal", "Cleo"))
    return GameSummary(game_id=7, guild_id=1, channel_id=2, thread_id=3, variant="usa", status="playing", seq=4,
                       your_seat=None, seats=seats, waiting_for=(0,), turn_hours=24.0, updated_at=0.0,
                       host_user_id=11, language=code)


def _delivery(kind: str, **payload):
    from app import Delivery

    return Delivery(id=1, game_id=7, seq=4, kind=kind, key="k", user_id=11, payload=payload, attempts=0,
                    message_id=None)


NOTICES = [("dm_closed", {"seat": 0}), ("reminder", {"seat": 0, "due_at": 1e9}), ("reminder", {"seat": 0}),
           ("notice", {"notice": "stand_in", "seat": 1}), ("host_notice", {}),
           ("notice", {"notice": "replaced", "seat": 1, "was_ai": True, "stand_in": True}),
           ("notice", {"notice": "replaced", "seat": 1}), ("notice", {"notice": "vote", "seat": 0, "votes": 1,
                                                                      "needed": 2}),
           ("notice", {"notice": "skipped", "seat": 0, "keeps": True}), ("notice", {"notice": "skipped", "seat": 0})]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_threads_notices_read_in_the_tables_language(code):
    from bot_app.presentation import player_posts, posts

    summary = _summary(code)
    for kind, payload in NOTICES:
        d = _delivery(kind, **payload)
        message = player_posts.notice(d, summary) or posts.notice(d, summary)
        assert_translated(message.content, code)
        labels = [item.label for item in message.view.children] if message.view else []
        for label in labels:
            assert_translated(label, code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_digest_and_a_taken_back_turn_read_in_the_readers_language(code):
    from bot_app.presentation import player_posts

    summary = _summary("en")  # a table in English: the reader's own language still wins
    with lang.reading(lang.language(code)):
        for waiting in ([(summary, 1e9), (summary, None)], [(summary, None)], []):
            text = player_posts.digest(_delivery("digest"), waiting).content
            assert_translated(text, code, "usa", (*PLAYERS, bot_text.variant_title("usa")))
        taken = player_posts.taken_back(_delivery("taken_back", by=1), summary).content
        assert_translated(taken, code)


# --- the standings and /ttr games ----------------------------------------------------------------

def _board(standings: tuple, rate_ai: bool = False, ended: float | None = None):
    from app.standings import Leaderboard
    from store.standings import Season

    return Leaderboard(guild_id=1, season=Season(2, 0.0, ended), seasons=2, variant=None, rate_ai_games=rate_ai,
                       games=3, standings=standings)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_leaderboard_the_card_and_the_games_list_read_in_the_readers_language(code):
    from app.ratings import Standing
    from app.standings import PlayerCard
    from bot_app.presentation.standings_text import card_text, games_text, leaderboard_text

    words = lang.language(code)
    rows = tuple(Standing(f"user:{i}", f"Ann{'a' * i}", 30.0 - i, 2.0, games=3, wins=1, points=300)
                 for i in range(17)) + (Standing("ai:greedy", "greedy", 20.0, 1.0, games=1),)
    names = tuple(r.name for r in rows)
    for board in (_board(rows, True, 5.0), _board(rows), _board((), True), _board(())):
        assert_translated(leaderboard_text(board, you=16, words=words), code, names=names)
    card = PlayerCard(user_id=1, name="Ann", season=2, rating=None, rank=None, games=1, wins=0, average_score=50.0,
                      ticket_rate=0.5, favourite_routes=(("Oslo – Stockholm (4 yellow)", 2),),
                      favourite_cities=(("Oslo", 3),))
    assert_translated(card_text(card, words).replace("(4 yellow)", ""), code, "nordic")
    summary = _summary(code)
    lobby_row = type(summary)(**{**{f: getattr(summary, f) for f in summary.__dataclass_fields__}, "status": "lobby"})
    listed = games_text([summary, lobby_row], words)
    assert_translated(listed, code, names=(*PLAYERS, bot_text.variant_title("usa")))
    assert_translated(games_text([], words), code)


def test_the_leaderboard_reads_in_english_as_before():
    from app.ratings import Standing
    from bot_app.presentation.standings_text import leaderboard_text

    board = _board((Standing("user:1", "Ann", 60.0, 1.0, games=2, wins=1, points=200),
                    Standing("ai:greedy", "greedy", 20.0, 1.0, games=1, points=90)))
    assert leaderboard_text(board, words=lang.english()).splitlines() == [
        "🏆 **Leaderboard** — every variant, season 2",
        "🥇 **2280** Ann — 2 games, 1 win, average 100",
        "🥈 **680** 🤖 AI (greedy) — 1 game, 0 wins, average 90",
        "-# 3 rated games; OpenSkill rating (mu − 3σ, ×40; a newcomer shows 0); games with AI players do not count."]


# --- the plans ----------------------------------------------------------------------------------

CONDITIONS = [dict(kind="always"), dict(kind="route_free", route="denver-omaha"),
              dict(kind="route_free", route="denver-omaha", negate=True), dict(kind="face_up", colour="red"),
              dict(kind="face_up", colour="loco", at_least=2), dict(kind="cards", colour="blue", at_most=3),
              dict(kind="cards", at_least=1, at_most=4), dict(kind="tickets_left", at_least=5),
              dict(kind="trains_left", whose="me", at_most=6), dict(kind="trains_left", whose="anyone", at_least=2,
                                                                    at_most=2, negate=True)]


@pytest.fixture(scope="module")
def usa_view():
    from engine.game import new_game, view

    state, _ = new_game("usa", 2, 3)
    return view(state, 1)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_plan_reads_in_its_players_language(code, usa_view):
    from app.plans import Condition, Plan, PlanBook, PlanMove, Step
    from bot_app.presentation.plan_words import book_text, condition_words

    blind, red = PlanMove({"type": "draw_card"}), PlanMove({"type": "draw_card", "colour": "red"})
    with lang.reading(lang.language(code)):
        for cond in CONDITIONS:
            assert_translated(condition_words(Condition(**cond), usa_view), code, "usa")
        steps = tuple(Step(Condition(**c), (red, blind)) for c in CONDITIONS[:3])
        book = PlanBook((Plan(steps, (blind, blind)), Plan((), ())))
        assert_translated(book_text(book, usa_view, 7), code, "usa")
        assert_translated(book_text(PlanBook(()), usa_view, 7), code, "usa")


def test_a_plan_syntax_refusal_reads_in_the_readers_language():
    from bot_app.presentation.answers import Refusal, refusal_text
    from bot_app.presentation.plan_syntax import parse
    from engine.maps import load_map

    with pytest.raises(Refusal) as caught:
        parse("if free Denver - Omaha claim", load_map("usa"))
    with lang.reading(lang.language("de")):
        assert refusal_text(caught.value) == \
            "Setz einen `:` zwischen Bedingung und Züge in “if free Denver - Omaha claim”."
    assert refusal_text(caught.value).startswith("Put a `:` between")
