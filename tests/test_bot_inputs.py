"""Bounded input and quiet logs: every text option declares its length to Discord and is
checked again on arrival; digits are ASCII digits; refusals quote a short excerpt; at DEBUG the
log holds no interaction or bot token."""

from __future__ import annotations

import io
import logging
import re

from bot_app.inputs import DEFAULT_CHARS, excerpt, is_number, limit_of, too_long
from bot_app.logs import TOKEN_LOGGERS, configure_logging, redact
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
