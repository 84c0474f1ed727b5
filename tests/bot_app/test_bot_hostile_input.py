"""Hostile input costs bounded work: no handler holds the event loop for more than 50 ms.

Every text-taking option of `/ttr` (as a command, and through autocomplete where it has one)
gets 2,000 hostile values (bench/bench_hostile.py sends 10,000 and more) up to Discord's limit
of 6,000 characters — the worst cases for name matching (every word a number or a colour,
separators everywhere), long runs of accents, emoji and digits, and plain noise — against a
running game, through the real discord.py client and the loopback fake (tests/fake_discord/hostile.py).
The longest single step of the event loop (CPU time, see tests/fake_discord/steps.py; a pause of Python's cycle
collector is the collector's, and bench/bench_hostile.py reports it apart) must stay under
50 ms, every interaction is answered, and every over-long value is refused in words before
anything parses it."""

from __future__ import annotations

import logging
import os
import random
from typing import Any

from bot_app.presentation.answers import APOLOGY
from bot_app.presentation.inputs import limit_of
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.hostile import ErrorRecords, flood, number_values, text_options, warm_up
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.steps import LoopSteps

N = int(os.environ.get("TTR_HOSTILE_N", "2000"))
MAX_STEP_MS = 50.0


async def test_no_handler_holds_the_loop_on_hostile_input(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    running = await start_bot(fake, tmp_path / "hostile.sqlite3", renderer=StubRenderer())
    desk = running.bot.desk
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = desk
        for _ in range(6):  # into the game proper: tickets kept, cards in hand
            await table.play_one([alice, bob])
        await warm_up(fake, desk, alice, table.thread_id)
        with LoopSteps() as steps:
            sent = await flood(fake, desk, [alice, bob, carol], [table.thread_id, fake.channel_id], N,
                               random.Random(6000), steps)
        too_long = refused = 0
        for s in sent:
            limit = limit_of(s.option)
            if s.autocomplete:
                choices = s.interaction.callback["data"]["choices"]
                assert len(choices) <= 25
                assert choices == [] or len(s.value) <= limit
                continue
            reply = " ".join(m["content"] for m in fake.reply_messages(s.interaction))
            if len(s.value) > limit:
                too_long += 1
                assert f"That {s.option} is too long ({len(s.value)} characters; at most {limit})" in reply, reply
            if reply.startswith("🚫"):
                refused += 1
                assert len(reply) <= 600, reply[:200]  # a sentence, never the input echoed back
        assert too_long > N // 5 and refused > N // 4
        flooded = {(s.command, s.option) for s in sent}
        assert flooded == {(o.command, o.name) for o in text_options(fake.commands)}  # each met the flood
        assert not fake.errors, fake.errors[:3]
        assert steps.worst < MAX_STEP_MS, f"the loop was held {steps.worst:.1f} ms by {steps.where}"
    finally:
        await running.stop()
        await fake.stop()


async def test_every_number_character_in_every_text_option_gets_an_answer_not_an_apology(tmp_path):
    """Every text option of /ttr (read from the registered commands), as a command and through
    autocomplete, gets every Unicode digit and number character (Nd, No, Nl) as words in the
    shapes players write numbers in ("Paris - Wien ²", "#²", "² loco", "red²", "²:00-7"), and
    some of those int() refuses as the whole value ("²", "#²", "²:00"); an autocomplete gets
    the value in the command's other text options too (the payment's reads the route). Each is
    answered — a sentence or a list, never the apology — and nothing is logged as an error. (Each
    parser of numbers meets every one of these characters alone in tests/bot_app/test_bot_inputs.py.)"""
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "numbers.sqlite3", renderer=StubRenderer())
    desk = running.bot.desk
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = desk
        for _ in range(6):  # into the game proper: tickets kept, cards in hand
            await table.play_one([alice, bob])
        summary = await table.summary()
        mover = table.user_of([alice, bob], summary.waiting_for[0], summary)  # whose turn it is: the full paths
        options = text_options(fake.commands)
        sent = 0
        for n, option in enumerate(options):
            # A command gets the value in this option, and in the others it cannot go without; an
            # autocomplete in every other text option too (the payment's reads the route) but
            # `game`: a number there names no game, and nothing else would be read.
            for value in number_values(limit_of(option.name), start=7 * n):
                for autocomplete in (False, True) if option.autocomplete else (False,):
                    others = [o for o in options if o.command == option.command and o.name != option.name
                              and (o.required or autocomplete and o.name != "game")]
                    opts: dict[str, Any] = {o.name: value[:limit_of(o.name)] for o in others}
                    opts[option.name] = value
                    if option.command in ("admin kick", "turn vote"):
                        opts["player"] = bob
                    if option.command == "admin replace":
                        opts["new"] = bob
                    it = (await fake.autocomplete(mover, option.command, option.name, channel_id=table.thread_id,
                                                  **opts) if autocomplete
                          else await fake.slash(mover, option.command, channel_id=table.thread_id, **opts))
                    await fake.answered(it, timeout=10)
                    await fake.wait_until(lambda: desk.busy == 0)
                    sent += 1
                    where = f"/ttr {option.command} {option.name}:{value!r}"
                    if autocomplete:
                        assert len(it.callback["data"]["choices"]) <= 25
                    else:
                        reply = " ".join(m["content"] for m in fake.reply_messages(it))
                        assert reply and APOLOGY not in reply, f"{where} → {reply[:200]}"
                    assert not errors.records, f"{where}: {errors.records[0].getMessage()}"
        assert {o.name for o in options} >= {"route", "payment", "city", "game", "card", "digest", "quiet_hours"}
        assert sent > 2 * len(options)
        assert not fake.errors, fake.errors[:3]
    finally:
        logging.getLogger().removeHandler(errors)
        await running.stop()
        await fake.stop()
