"""Hostile input costs bounded work: no handler holds the event loop for more than 50 ms.

Every text-taking option of `/ttr` (as a command, and through autocomplete where it has one)
gets 10,000 hostile values up to Discord's limit of 6,000 characters — the worst cases for
name matching (every word a number or a colour, separators everywhere), long runs of
accents, emoji and digits, and plain noise — against a running game, through the real
discord.py client and the loopback fake (tests/fake_discord/hostile.py). The longest single
step of the event loop (CPU time, see tests/fake_discord/steps.py; a pause of Python's cycle
collector is the collector's, and bench/bench_hostile.py reports it apart) must stay under
50 ms, every interaction is answered, and every over-long value is refused in words before
anything parses it."""

from __future__ import annotations

import os
import random

from bot_app.inputs import limit_of
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.hostile import flood, warm_up
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.steps import LoopSteps

N = int(os.environ.get("TTR_HOSTILE_N", "10000"))
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
        assert not fake.errors, fake.errors[:3]
        assert steps.worst < MAX_STEP_MS, f"the loop was held {steps.worst:.1f} ms by {steps.where}"
    finally:
        await running.stop()
        await fake.stop()
