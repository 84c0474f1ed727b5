"""A database outage with the server really stopped, end to end (issue 30): bot.py itself in
two child processes, one per Discord shard of the loopback fake, on a PostgreSQL server of this
file's own (`pg_ctl stop`, 7 s, `pg_ctl start`: the rest of the suite's server is not
touched). Timers that fell due during the outage fire in both games within 15 s of the
server's return, both processes stay up, and the games go on with every delivery made exactly
once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from app import GameService, Limits
from tests.bot_app.test_delivery_crash import check_outbox
from tests.bot_app.test_failover import _settled
from tests.bot_app.test_failover_shards import SHARDS, Two
from tests.fake_discord import FakeDiscord
from tests.pg_cluster import Cluster, NoServer

OUTAGE_SECONDS = 7.0  # past the timer loop's longest pause after errors (3 s) twice over
BACK_WITHIN = 15.0
LEAD = 5.0  # seconds from the timers' scheduling to the outage


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A server for this file alone: its test stops it."""
    try:
        server = Cluster.start()
    except NoServer as exc:
        pytest.fail(f"no PostgreSQL server could be started: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def two(cluster: Cluster, tmp_path: Any) -> AsyncIterator[Two]:
    fake = FakeDiscord()
    await fake.start()
    url = cluster.url("postgres")
    referee = await GameService.open(url, limits=Limits.unlimited())
    two = Two(fake, url, referee, tmp_path)
    try:
        for shard in range(SHARDS):
            _, channel = await fake.add_guild(f"Server {shard}", shard=(shard, SHARDS))
            two.channels.append(channel)
        yield two
    finally:
        for bot in two.bots:
            await bot.kill()
        await two.referee.close()
        await fake.stop()
        if not (cluster.folder / ".s.PGSQL.5432").exists():  # the test failed during the outage
            cluster.start_server()
    assert not fake.errors


async def _fired(referee: GameService, game_ids: list[int]) -> list[float | None]:
    rows = await referee.store.reader.fetch(
        f"SELECT fired_at FROM timers WHERE kind = 'outage' AND game_id IN ({', '.join(map(str, game_ids))})"
        " ORDER BY game_id", ())
    return [r[0] for r in rows]


async def test_timers_due_while_the_server_is_stopped_fire_within_seconds_of_its_return(
        two: Two, cluster: Cluster) -> None:
    fake = two.fake
    alice, bob, carol, dave = (fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave"))
    first, second = await two.start(0), await two.start(1)
    tables = [await two.table(0, alice, bob, first), await two.table(1, carol, dave, second)]
    users = [[alice, bob], [carol, dave]]
    games = [t.game_id for t in tables]
    # In each game a timer (a kind that fires without a move), due a second into the outage.
    tx = two.referee.store.tx()
    due = tx.now + LEAD + 1.0
    for g in games:
        tx.timers.schedule(g, "outage", due)
    await two.referee.store.write(tx)
    await two.referee.close()  # the referee's connections would die with the server too
    await asyncio.sleep(max(0.0, due - 1.0 - time.time()))

    await asyncio.to_thread(cluster.stop_server)
    await asyncio.sleep(OUTAGE_SECONDS)
    # The server takes connections before `pg_ctl start` returns, and a bot may fire in that gap:
    # a timer fired is after the restart began (it cannot fire while the server is down) and
    # within BACK_WITHIN of the start's return.
    restarting = time.time()
    await asyncio.to_thread(cluster.start_server)
    back = time.time()
    two.referee = await GameService.open(two.url, limits=Limits.unlimited())
    for table in tables:
        table.service = two.referee
    while None in (fired := await _fired(two.referee, games)) and time.time() < back + BACK_WITHIN + 5:
        await asyncio.sleep(0.1)
    assert all(f is not None and restarting < f <= back + BACK_WITHIN for f in fired), (fired, back, two.output())
    assert first.alive and second.alive
    assert all("the timer loop failed" in bot.output() for bot in (first, second))  # each met the outage
    for table, players, bot in zip(tables, users, (first, second), strict=True):
        await table.play_one(players)  # the game goes on
        check_outbox(fake, table, await _settled(two.referee, table.game_id, bot, time.monotonic() + 20), players)
