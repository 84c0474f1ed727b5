"""Failover on PostgreSQL, end to end: the real bot in child processes on one PostgreSQL
database against the loopback fake Discord. A bot SIGKILLed in the middle of a move's
deliveries (Discord took the new turn post, the DMs not yet sent, nothing recorded) holds its
claims only while its connection lives: the next process sends every owed post and DM within
15 s of the kill — not after the five-minute lease — and each exactly once (the turn post
comes back by its nonce)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

from app import GameService, Limits
from store.deliveries import PENDING, SENT
from store.records import DeliveryRow
from tests.bot_app.test_delivery_crash import DMS, SEED, check_outbox
from tests.fake_discord import FakeDiscord
from tests.fake_discord.child import ChildBot
from tests.fake_discord.driver import Table

TAKEOVER_SECONDS = 15.0


async def _start(fake: FakeDiscord, url: str, logs: Path, **crash: Any) -> ChildBot:
    return await ChildBot.start(fake, url, run_timers=True, turn_hours=48, seed=SEED, logs=logs, **crash)


async def _settled(referee: GameService, game_id: int, bot: ChildBot, deadline: float) -> list[DeliveryRow]:
    """The game's deliveries once none is pending; fails if any still is at `deadline`
    (time.monotonic())."""
    while True:
        rows = await referee.store.deliveries.of_game(game_id, None)
        if not any(d.status == PENDING for d in rows):
            return rows
        if time.monotonic() > deadline:
            raise AssertionError(f"still pending: {[d.key for d in rows if d.status == PENDING]}\n{bot.output()}")
        await asyncio.sleep(0.05)


async def test_a_process_killed_mid_delivery_is_taken_over_within_seconds_exactly_once(
        fake: FakeDiscord, other_database: Any, tmp_path: Path) -> None:
    url = str(other_database("postgres").target)
    referee = await GameService.open(url, limits=Limits.unlimited())  # reads only: claims nothing
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    players = [alice, bob]
    try:
        async with await _start(fake, url, tmp_path) as first:
            table = await Table.open(fake, referee, alice, [bob])
            g = table.game_id
            while (s := await table.summary()).status != "playing" or len(s.waiting_for) != 1:
                await table.play_one(players)
            mover = table.user_of(players, s.waiting_for[0], s)
            await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
            await table.wait_posted()
            await _settled(referee, g, first, time.monotonic() + 20)
        seq = (await table.summary()).seq + 1

        # Killed after Discord took the new turn post, before the first DM: its claims stay
        # in the table, as a dead process leaves them.
        point = f"{DMS}.channel:1"
        crashing = await _start(fake, url, tmp_path, count_from_ready=True, crash_before=[point])
        async with crashing:
            await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck")
            assert await crashing.wait_exit() == -signal.SIGKILL, crashing.output()
            killed = time.monotonic()
        left = await referee.store.reader.fetch(
            "SELECT count(*) FROM deliveries WHERE game_id = ? AND status = 'pending' AND claimed_until > ?",
            (g, time.time() + 60))
        assert left[0][0] >= 2  # the DMs, left claimed (for minutes) by the dead process

        async with await _start(fake, url, tmp_path) as restarted:
            rows = await _settled(referee, g, restarted, killed + TAKEOVER_SECONDS)
            owed = [d for d in rows if d.seq == seq]
            assert [d.status for d in owed] == [SENT] * 3 and [d.kind for d in owed] == ["post", "turn", "dm"]
            check_outbox(fake, table, rows, players)  # each delivery made exactly one message
            await table.play_one(players)  # and the game goes on
            check_outbox(fake, table, await _settled(referee, g, restarted, time.monotonic() + 20), players)
        # Every request to Discord took its slot of the one budget all processes share.
        assert await referee.store.reader.fetch("SELECT name FROM rate_limit WHERE tat > 0") == [("discord",)]
    finally:
        await referee.close()
    assert not fake.errors
