"""Bounded input and quiet logs: every text option declares its length to Discord and is
checked again on arrival; digits are ASCII digits; refusals quote a short excerpt; at DEBUG the
log holds no interaction or bot token."""

from __future__ import annotations

import contextlib
import io
import logging
import re

from bot_app.logs import TOKEN_LOGGERS, configure_logging, redact
from bot_app.presentation.inputs import DEFAULT_CHARS, excerpt, is_number, limit_of, too_long
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _text_options(command: dict) -> list[dict]:
    out = []
    for opt in command.get("options", []):
        if opt["type"] in (1, 2):
            out += _text_options(opt)
        elif opt["type"] == 3:
            out.append(opt)
    return out


async def test_every_text_option_declares_its_limit_to_discord(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    running = await start_bot(fake, tmp_path / "opts.sqlite3", renderer=StubRenderer())
    try:
        ttr = next(c for c in fake.commands if c["name"] == "ttr")
        texts = _text_options(ttr)
        assert len(texts) > 20
        for opt in texts:
            if opt.get("choices"):
                continue  # Discord only accepts the listed values
            assert opt.get("max_length") == limit_of(opt["name"]), opt
    finally:
        await running.stop()
        await fake.stop()


def test_too_long_finds_the_first_long_option_in_subcommands():
    options = [{"type": 1, "name": "claim", "options": [
        {"type": 3, "name": "route", "value": "x" * 100}, {"type": 3, "name": "payment", "value": "y" * 101}]}]
    assert too_long(options) == ("payment", 101, DEFAULT_CHARS)
    assert too_long([{"type": 1, "name": "draw", "options": [{"type": 3, "name": "card", "value": "1" * 21}]}]) \
        == ("card", 21, 20)
    assert too_long([{"type": 3, "name": "route", "value": "ok"}, {"type": 4, "name": "seats", "value": 9}]) is None
    assert too_long(None) is None
    # A flood of nested options is not walked to the end.
    deep: list = [{"type": 3, "name": "route", "value": "x" * 500}]
    for _ in range(10_000):
        deep = [{"type": 1, "name": "sub", "options": deep}]
    assert too_long(deep) is None


def test_numbers_are_ascii_digits_and_excerpts_are_short():
    assert is_number("12") and not is_number("²") and not is_number("٣") and not is_number("") \
        and not is_number("1" * 10)
    assert excerpt("Paris") == "“Paris”"
    long = excerpt("x" * 5000)
    assert len(long) <= 42 and long.endswith("…”")
    assert "\n" not in excerpt("a\nb")


async def test_a_superscript_digit_and_an_overlong_route_are_refused_in_words(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "words.sqlite3", renderer=StubRenderer())
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = running.bot.desk
        for _ in range(2):
            await table.play_one([alice, bob])
        summary = await table.summary()
        mover = alice if summary.seats[summary.waiting_for[0]].user_id == alice.id else bob
        before = (await table.summary()).seq
        it = await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="²"))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        reply = fake.reply_messages(it)[-1]["content"]
        assert reply.startswith("🚫") and "draw that card" in reply
        it = await fake.answered(await fake.slash(mover, "claim", channel_id=table.thread_id, route="1 red " * 1000))
        reply = fake.reply_messages(it)[-1]["content"]
        assert reply == "🚫 That route is too long (6000 characters; at most 100). Pick one from the list."
        it = await fake.answered(await fake.autocomplete(mover, "claim", "route", channel_id=table.thread_id,
                                                         route="1 red " * 1000))
        assert it.callback["data"]["choices"] == []
        it = await fake.answered(await fake.slash(mover, "new", channel_id=fake.channel_id, variant="q" * 20))
        assert "“" + "q" * 19 + "…”" in fake.reply_messages(it)[-1]["content"] or \
            "“" + "q" * 20 + "”" in fake.reply_messages(it)[-1]["content"]
        assert (await table.summary()).seq == before
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


def test_redact_blanks_tokens():
    line = ("POST https://discord.com/api/v10/interactions/123456/aW50ZXJhY3Rpb246MTIzOmFiYw.xyz-_9/callback "
            '{"token": "aW50ZXJhY3Rpb246MTIz", "id": "5"} Authorization: Bot MTE0.abcdefghijklmnopqrstuvwx')
    out = redact(line)
    assert "aW50ZXJhY3Rpb246MTIz" not in out and "abcdefghijklmnopqrstuvwx" not in out
    assert "/interactions/123456/[redacted]/callback" in out and '"id": "5"' in out


async def test_debug_logging_never_prints_a_token(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (root.level, {name: logging.getLogger(name).level for name in TOKEN_LOGGERS})
    handler = configure_logging(logging.DEBUG, stream)
    running = await start_bot(fake, tmp_path / "logs.sqlite3", renderer=StubRenderer())
    try:
        for name, lowest in TOKEN_LOGGERS.items():
            assert logging.getLogger(name).getEffectiveLevel() >= lowest
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = running.bot.desk
        for _ in range(3):
            await table.play_one([alice, bob])
        await fake.answered(await fake.slash(alice, "status", channel_id=table.thread_id))
    finally:
        await running.stop()
        await fake.stop()
        root.removeHandler(handler)
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)
    text = stream.getvalue()
    assert "DEBUG" in text  # debug lines were written …
    tokens = [it.token for it in fake.interactions.values()]
    assert len(tokens) > 10
    leaked = [t for t in tokens if re.search(rf"\b{t}\b", text)]
    assert not leaked, leaked[:3]  # … and none holds an interaction token
    assert "fake-token" not in text


def test_every_reader_of_a_typed_number_takes_every_unicode_number_character_in_words():
    """Each place that reads a number out of what someone typed or configured gets every
    character Unicode counts as a digit or a number (Nd, No, Nl), alone and in the shapes
    numbers take there; each answers a value, a refusal in words or "no such thing" — never
    int()'s ValueError ("²".isdigit() is true, int("²") fails)."""
    from app.player_clock import BadSetting, parse_quiet_hours
    from app.settings_ops import parse_digest
    from bot_app.adapter.games import parse_game
    from bot_app.config import Config
    from bot_app.presentation.answers import Refusal
    from bot_app.presentation.moves_text import parse_payment
    from bot_app.presentation.names import find_city, find_route
    from bot_app.presentation.table_options import first_seat
    from cogs.admin import _seat_named
    from engine.maps import load_map
    from tests.fake_discord.hostile import NUMBER_CHARACTERS

    europe = load_map("europe")
    route_shapes = ["Wien - München {}", "Wien - München #{}", "Wien - München track {}", "Wien - München {} loco",
                    "{} Wien - München", "Wien - München ({} red)"]
    for c in NUMBER_CHARACTERS:
        assert is_number(c) is ("0" <= c <= "9")
        for shape in route_shapes:
            route = find_route(europe, shape.format(c))
            assert route is None or route.id in europe.routes
        assert find_city(europe, c) is None
        for typed in (c, f"#{c}", f"{c}:00", f"1{c}", f" {c} "):
            with contextlib.suppress(BadSetting):
                assert parse_digest(typed) in range(24)
            with contextlib.suppress(Refusal):
                assert parse_game(typed) >= 0
            with contextlib.suppress(Refusal):
                assert first_seat(typed, 4) in (None, 0, 1, 2, 3)
            assert _seat_named((), typed) is None
        for typed in (f"{c}-7", f"23:{c}-08:00", f"2{c}-8"):
            with contextlib.suppress(BadSetting):
                parse_quiet_hours(typed)
        assert parse_payment(f"red{c}") in ({"?": 1}, {"red": int(c)} if c.isdecimal() else {"?": 1})
        for name in ("GUILD_ID", "TTR_SHARD_COUNT", "TTR_SHARD_IDS"):
            env = {"DISCORD_TOKEN": "x", name: c, **({"TTR_SHARD_COUNT": "2"} if name == "TTR_SHARD_IDS" else {}),
                   "TTR_DATABASE": "postgresql://bot@localhost/ttr"}
            try:
                Config.from_env(env)
            except ValueError as exc:
                assert "invalid literal" not in str(exc), (name, c, exc)


async def test_a_superscript_after_a_route_is_answered_in_a_sentence_and_its_payments_listed(tmp_path):
    """`/ttr claim route:"Seattle Portland ²"`: a plain sentence (no such route), and the
    payment's autocomplete for it answers (a list) — before, both met int("²")."""
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "superscript.sqlite3", renderer=StubRenderer())
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        table.desk = running.bot.desk
        for _ in range(2):
            await table.play_one([alice, bob])
        summary = await table.summary()
        mover = alice if summary.seats[summary.waiting_for[0]].user_id == alice.id else bob
        it = await fake.answered(await fake.slash(mover, "claim", channel_id=table.thread_id,
                                                  route="Seattle Portland ²"))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        reply = fake.reply_messages(it)[-1]["content"]
        assert reply == "🚫 I don't know that route; pick one from the list (near: Portland, Seattle).", reply
        it = await fake.answered(await fake.autocomplete(mover, "claim", "payment", channel_id=table.thread_id,
                                                         route="Seattle Portland ²", payment=""))
        assert it.callback["data"]["choices"] == []
        it = await fake.answered(await fake.autocomplete(mover, "claim", "payment", channel_id=table.thread_id,
                                                         route="Seattle - Portland", payment="²"))
        assert isinstance(it.callback["data"]["choices"], list)
        assert (await table.summary()).seq == summary.seq
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
