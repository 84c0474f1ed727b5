"""Two bot processes on two Discord shards, end to end (issue 30): bot.py itself in two child
processes on one PostgreSQL database, against the loopback fake Discord serving two real
gateway shards (each server's events only on its shard, `(guild id >> 22) % 2`). One server,
with one game, on each shard.

- A clean stop of one process right after a move delays none of its deliveries by more than
  5 s (the other process sends them); the process started again answers on its shard.
- A process SIGKILLed mid-delivery (Discord took the turn post, the DMs not yet sent): the
  other process, on the other shard, sends every owed post of every game within 15 s of the
  kill, each exactly once; started again, the process plays on.
- Two processes told to run the same shard: the second refuses it, in words, with exit status
  4, and never connects to Discord.
- A shard left unrun (its process killed): the other process, taking its shards from the pool,
  takes it within 15 s and answers there. A player's closed DMs, refused once by the first
  process, are never tried again by the second: the whole bot made one invalid request.
"""

from __future__ import annotations

import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app import GameService, Limits
from store.deliveries import SENT
from tests.bot_app.test_delivery_crash import DMS, SEED, check_outbox, ids
from tests.bot_app.test_failover import _settled
from tests.fake_discord import FakeDiscord, User
from tests.fake_discord.child import ChildBot
from tests.fake_discord.driver import Table

SHARDS = 2
TAKEOVER_SECONDS = 15.0
RESTART_SECONDS = 5.0
EXIT_SHARDS = 4  # bot.py's exit status for a named shard another process runs


class Two:
    """The fake with a server on each shard, a referee service on the database (reads only:
    it claims nothing), and a way to start bot.py on a shard."""

    def __init__(self, fake: FakeDiscord, url: str, referee: GameService, logs: Path) -> None:
        self.fake, self.url, self.referee, self.logs = fake, url, referee, logs
        self.channels: list[int] = []
        self.bots: list[ChildBot] = []

    async def start(self, shard: int | None, *, ready: bool = True, wait: float | None = None,
                    **crash: Any) -> ChildBot:
        """bot.py with TTR_SHARD_IDS=`shard` (None: its shards from the pool) of SHARDS; `wait`:
        its TTR_SHARD_WAIT."""
        env = {"TTR_DATABASE": self.url, "TTR_SHARD_COUNT": str(SHARDS), "TTR_TURN_HOURS": "48"}
        if shard is not None:
            env["TTR_SHARD_IDS"] = str(shard)
        if wait is not None:
            env["TTR_SHARD_WAIT"] = str(wait)
        bot = await ChildBot.start_main(self.fake, env, self.logs, seed=SEED, ready=ready, **crash)
        self.bots.append(bot)
        return bot

    async def table(self, shard: int, host: User, other: User, bot: ChildBot) -> Table:
        """A two-player game on the server of `shard` (run by `bot`), played on until one
        player is to move."""
        table = await Table.open(self.fake, self.referee, host, [other], channel_id=self.channels[shard])
        while (s := await table.summary()).status != "playing" or len(s.waiting_for) != 1:
            await table.play_one([host, other])
        await _settled(self.referee, table.game_id, bot, time.monotonic() + 20)
        return table

    def output(self) -> str:
        return "\n".join(b.output() for b in self.bots)


@pytest.fixture
async def two(other_database: Any, tmp_path: Path) -> AsyncIterator[Two]:
    fake = FakeDiscord()
    await fake.start()
    url = str(other_database("postgres").target)
    referee = await GameService.open(url, limits=Limits.unlimited())
    two = Two(fake, url, referee, tmp_path)
    try:
        for shard in range(SHARDS):
            _, channel = await fake.add_guild(f"Server {shard}", shard=(shard, SHARDS))
            two.channels.append(channel)
        yield two
    finally:
        for bot in two.bots:  # every process this test started, also when it failed
            await bot.kill()
        await referee.close()
        await fake.stop()
    assert not fake.errors


async def _move(table: Table, users: list[User], *, answered: bool = True) -> None:
    """The player to move draws a card from the deck (a move that always exists at this point)."""
    s = await table.summary()
    mover = table.user_of(users, s.waiting_for[0], s)
    it = await table.fake.slash(mover, "draw", channel_id=table.thread_id, card="deck")
    if answered:
        await table.fake.answered(it)


async def test_a_clean_stop_or_a_kill_of_one_of_two_processes_delays_no_game(two: Two) -> None:
    fake = two.fake
    alice, bob, carol, dave = (fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave"))
    first, second = await two.start(0), await two.start(1)
    assert fake.shards_connected() == [(0, SHARDS), (1, SHARDS)]
    a = await two.table(0, alice, bob, first)  # answered by the first process only
    b = await two.table(1, carol, dave, second)

    # A clean stop right after a move: the other process sends what was still owed.
    await _move(a, [alice, bob])
    assert await first.stop() == 0, first.output()
    stopped = time.monotonic()
    await _settled(two.referee, a.game_id, second, stopped + RESTART_SECONDS)

    # Started again, with a crash point: killed after Discord took its next turn post, before
    # the first DM. The other process, on the other shard, sends every owed post of both games.
    crashing = await two.start(0, count_from_ready=True, crash_before=[f"{DMS}.channel:1"])
    await _move(b, [carol, dave])
    await _move(a, [alice, bob], answered=False)
    assert await crashing.wait_exit() == -signal.SIGKILL, crashing.output()
    killed = time.monotonic()
    for table, users in ((a, [alice, bob]), (b, [carol, dave])):
        check_outbox(fake, table, await _settled(two.referee, table.game_id, second, killed + TAKEOVER_SECONDS),
                     users)  # every delivery, each exactly one message
    assert second.alive

    # Started again: the first shard's game goes on, as the second's.
    await two.start(0)
    for table, users in ((a, [alice, bob]), (b, [carol, dave])):
        await table.play_one(users)
        check_outbox(fake, table, await _settled(two.referee, table.game_id, second, time.monotonic() + 20), users)


async def test_a_shard_another_process_runs_is_refused_in_words(two: Two) -> None:
    first = await two.start(0)
    identifies = two.fake.identifies
    second = await two.start(0, ready=False, wait=2)  # refused after its (shortened) wait
    assert await second.wait_exit(timeout=40) == EXIT_SHARDS, second.output()
    words = second.stderr_path.read_text()
    assert "The bot did not start. Shard 0 is already run by another bot process" in words
    assert two.fake.identifies == identifies  # it never connected to Discord
    assert first.alive and two.fake.shards_connected() == [(0, SHARDS)]


async def test_a_shard_left_unrun_is_taken_by_the_other_process_within_seconds(two: Two) -> None:
    fake = two.fake
    carol, dave = fake.add_user("Carol"), fake.add_user("Dave", dms_closed=True)
    named = await two.start(1)
    b = await two.table(1, carol, dave, named)
    pool = await two.start(None)  # takes the shard no process runs
    assert pool.ready_lines() == ["ready 0"]
    assert await named.kill() == -signal.SIGKILL
    killed = time.monotonic()
    await pool.wait_line("ready", TAKEOVER_SECONDS + 5, count=2)
    assert time.monotonic() - killed <= TAKEOVER_SECONDS, pool.output()
    assert pool.ready_lines()[-1] == "ready 0,1" and fake.shards_connected() == [(0, SHARDS), (1, SHARDS)]
    await b.play_one([carol, dave])  # answered there again, by the process that took the shard
    rows = await _settled(two.referee, b.game_id, pool, time.monotonic() + 20)
    # Each of Carol's DMs exactly once; Dave's closed DMs tried once, by the first process only.
    assert sorted(ids(fake.dms_to(carol))) == sorted(d.message_id for d in rows if d.kind in ("turn", "dm")
                                                     and d.user_id == carol.id and d.status == SENT)
    assert fake.count("POST", rf"/channels/{fake.dm_channel(dave)}/messages") == 1
    assert fake.count(status=403) == 1
