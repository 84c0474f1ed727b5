"""A clean stop and start, end to end (issue 30): the real bot in child processes on one
PostgreSQL database against the loopback fake Discord. A process stopped (SIGTERM) right after
a player's move, its deliveries possibly under way, lets go of everything it held: the process
started next sends every owed post and DM within 5 s of being ready — no lease to wait out —
each exactly once, and the game goes on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app import GameService, Limits
from store.deliveries import PENDING
from tests.bot_app.test_delivery_crash import check_outbox
from tests.bot_app.test_failover import _settled, _start
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table

RESTART_SECONDS = 5.0


async def test_a_clean_stop_and_start_delays_no_delivery_by_more_than_seconds(
        fake: FakeDiscord, other_database: Any, tmp_path: Path) -> None:  # noqa: F811
    url = str(other_database("postgres").target)
    referee = await GameService.open(url, limits=Limits.unlimited())  # reads only: claims nothing
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    players = [alice, bob]
    try:
        first = await _start(fake, url, tmp_path)
        async with first:
            table = await Table.open(fake, referee, alice, [bob])
            g = table.game_id
            while (s := await table.summary()).status != "playing" or len(s.waiting_for) != 1:
                await table.play_one(players)
            await _settled(referee, g, first, time.monotonic() + 20)
            mover = table.user_of(players, s.waiting_for[0], s)
            # The move, and at once a clean stop: its deliveries may be under way.
            await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
            assert await first.stop() == 0, first.output()
        # A clean stop leaves no claim behind for the next process to wait out.
        held = await referee.store.reader.fetch("SELECT count(*) FROM deliveries WHERE game_id = ? AND status = ?"
                                                " AND claimed_until > ?", (g, PENDING, time.time()))
        assert held == [(0,)]

        async with await _start(fake, url, tmp_path) as second:
            ready = time.monotonic()
            rows = await _settled(referee, g, second, ready + RESTART_SECONDS)
            check_outbox(fake, table, rows, players)  # every delivery made exactly one message
            await table.play_one(players)  # and the game goes on
            check_outbox(fake, table, await _settled(referee, g, second, time.monotonic() + 20), players)
    finally:
        await referee.close()
    assert not fake.errors
