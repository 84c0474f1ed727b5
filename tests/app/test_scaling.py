"""Several bot processes on one PostgreSQL database (docs/scaling.md): two services on one
database stand for two processes. A move is applied once, each delivery is handed to one
process (a game's deliveries to one at a time), each timer acts once, and a cached game is never
served after another process moved it on. Also: the shard settings, and `--copy-db`."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from ai.levels import make_ai
from app import Actor, Caller, GameService, Limits, StaleAction
from app.copying import copy_database
from app.delivery_ops import CLAIM_SECONDS
from bot_app.config import Config
from store import StoreError
from store.copy import CopyRefused
from store.opening import open_store
from tests.clock import Clock
from tests.databases import Database

HOST, BOB = 100, 101
ROOT = Path(__file__).resolve().parents[2]
UNLIMITED = Limits.unlimited()


@pytest.fixture
async def pair(other_database: Any, clock: Clock) -> AsyncIterator[tuple[GameService, GameService, Database]]:
    """Two services (two "processes") on one new PostgreSQL database."""
    database: Database = other_database("postgres")
    first = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    second = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        yield first, second, database
    finally:
        await first.close()
        await second.close()


async def game(service: GameService, channel: int = 1, guild: int = 1) -> int:
    lobby = await service.tables.create_lobby(guild, channel, HOST, "Host", "usa", seats_wanted=2)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


async def move(service: GameService, game_id: int) -> int:
    """The person the game waits for makes a legal move; returns the new seq."""
    summary = await service.reads.game(game_id)
    user = summary.seats[summary.waiting_for[0]].user_id
    assert user is not None
    legal = await service.reads.legal_actions(game_id, user)
    action = make_ai("random", summary.seq).choose(await service.reads.view(game_id, user), legal)
    return (await service.moves.submit(game_id, Actor.user(user), action, summary.seq)).seq


async def test_a_cached_game_is_checked_against_the_database_before_each_use(pair: Any) -> None:
    first, second, _ = pair
    g = await game(first)
    assert (await first.reads.view(g, HOST)).seq == 0  # cached in the first process now
    await move(second, g)
    await move(second, g)
    # The first process serves the game as the second left it, and its next move is not stale.
    assert (await first.reads.view(g, HOST)).seq == 2
    assert await move(first, g) == 3
    # A change that does not move the seq (a pause) is seen too.
    assert await second.clocks.pause(g, Caller(HOST))
    assert (await first.reads.panel(g, HOST)).summary.paused_reason == "paused by the host"


async def test_two_processes_submitting_the_same_move_apply_it_once(pair: Any) -> None:
    first, second, database = pair
    g = await game(first)
    await second.reads.view(g, HOST)
    legal = await first.reads.legal_actions(g, HOST)
    for _ in range(3):  # and again once each has reloaded
        seq = (await first.reads.game(g)).seq
        user = (await first.reads.game(g)).seats[(await first.reads.game(g)).waiting_for[0]].user_id
        assert user is not None
        legal = await first.reads.legal_actions(g, user)
        outcomes = await asyncio.gather(first.moves.submit(g, Actor.user(user), legal[0], seq),
                                        second.moves.submit(g, Actor.user(user), legal[0], seq), return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleAction", "SubmitResult"], outcomes
    assert database.fetchone("SELECT count(*), max(seq) FROM actions WHERE game_id = ?", g) == (4, 3)


async def test_each_delivery_goes_to_one_process_and_a_game_to_one_at_a_time(pair: Any, clock: Clock) -> None:
    first, second, _ = pair
    games = [await game(first, channel=c) for c in range(1, 7)]
    # Each asks for 9 at most (3 games' worth), at the same moment.
    a, b = await asyncio.gather(first.outbox.due_deliveries(limit=9), second.outbox.due_deliveries(limit=9))
    ids_a, ids_b = {d.id for d in a}, {d.id for d in b}
    assert ids_a and not ids_a & ids_b
    games_a, games_b = {d.game_id for d in a}, {d.game_id for d in b}
    assert not games_a & games_b and games_a | games_b == set(games)
    assert len(ids_a | ids_b) == 3 * len(games)  # the first post and each hand
    # A move owes more for a game the first process holds: the second leaves it alone, and
    # does not wake up for it before the claim runs out.
    for d in b:  # the second process sends what it claimed
        await second.outbox.delivered(d.id, 2000 + d.id)
    held = next(iter(games_a))
    await move(second, held)
    assert held not in {d.game_id for d in await second.outbox.due_deliveries()}
    assert await second.outbox.next_delivery_due() == clock.now + CLAIM_SECONDS
    mine = [d for d in await first.outbox.due_deliveries() if d.game_id == held]
    assert len(mine) > len([d for d in a if d.game_id == held])  # the new ones come to the holder
    # Settled ones are never handed out again; a process that died lets go when its claim runs out.
    for d in mine:
        await first.outbox.delivered(d.id, 1000 + d.id)
    clock.now += CLAIM_SECONDS + 1
    taken_over = {d.id for d in await second.outbox.due_deliveries()}
    assert taken_over == ids_a - {d.id for d in mine}


async def test_a_delivery_failed_for_now_can_be_retried_by_either_process(pair: Any, clock: Clock) -> None:
    first, second, _ = pair
    g = await game(first)
    claimed = await first.outbox.due_deliveries()
    await first.outbox.retry_later(claimed[0], "HTTP 503")
    clock.now += 10
    assert claimed[0].id not in {d.id for d in await second.outbox.due_deliveries()}  # the game is still held
    for d in claimed[1:]:
        await first.outbox.delivered(d.id, 5)
    assert [d.id for d in await second.outbox.due_deliveries() if d.game_id == g] == [claimed[0].id]


async def test_every_timer_acts_once_across_processes(pair: Any, clock: Clock) -> None:
    first, second, database = pair
    games = [await game(first, channel=c) for c in range(1, 9)]
    limits = database.fetchone("SELECT count(*) FROM timers WHERE kind = 'limit' AND fired_at IS NULL")
    assert limits == (2 * len(games),)
    clock.now += 49 * 3600  # every turn limit (and reminder) is due

    async def loop(service: GameService) -> tuple[list[int], list[str]]:
        handed, outcomes = [], []
        while due := await service.clocks.due_timers(limit=3):
            handed += [t.id for t in due]
            outcomes += await asyncio.gather(*(service.clocks.fire_timer(t) for t in due))
        return handed, outcomes

    (ids_a, a), (ids_b, b) = await asyncio.gather(loop(first), loop(second))
    assert a and b  # both worked
    assert not set(ids_a) & set(ids_b) and len(set(ids_a)) == len(ids_a)  # no timer handed out twice
    assert database.fetchone("SELECT count(*) FROM timers WHERE fired_at IS NULL AND cancelled_at IS NULL"
                             " AND due_at <= ?", clock.now) == (0,)
    outcomes = a + b
    # Each reminder owed one mention, each turn limit let the AI play one turn: once each.
    reminders = database.fetchone("SELECT count(*) FROM deliveries WHERE kind = 'reminder'")
    assert reminders == (outcomes.count("reminded"),)
    ai_turns = database.fetchone("SELECT count(*) FROM actions WHERE seq > 0")
    assert ai_turns == (outcomes.count("played"),) == (2 * len(games),)
    for g in games:  # the AI played each missed opening turn once: one entry per seat
        entries = database.fetch("SELECT actor FROM actions WHERE game_id = ? AND seq > 0", g)
        assert sorted(actor for (actor,) in entries) == [0, 1]


async def test_a_process_that_dies_lets_go_of_its_deliveries_at_once(pair: Any) -> None:
    first, second, database = pair
    games = [await game(first, channel=c) for c in (1, 2)]
    held = {d.id for d in await first.outbox.due_deliveries()}
    assert {d.game_id for d in await first.outbox.due_deliveries()} == set(games)
    assert not await second.outbox.due_deliveries()  # the first holds both games
    first.store.presence.kill()  # as a SIGKILL: its connection drops, nothing is let go of cleanly
    for _ in range(100):  # the server ends the dead session's lock as it notices the socket close
        taken = {d.id for d in await second.outbox.due_deliveries()}
        if taken:
            break
        await asyncio.sleep(0.02)
    assert taken == held  # no lease waited out: the clock has not moved
    claims = database.fetch("SELECT DISTINCT claimed_by FROM deliveries WHERE status = 'pending'")
    assert claims == [(second.owner,)]


async def test_a_clean_stop_lets_go_of_every_claim_and_wakes_the_others(pair: Any, clock: Clock) -> None:
    first, second, database = pair
    g = await game(first)
    clock.now += 49 * 3600
    await first.outbox.due_deliveries()
    assert await first.clocks.due_timers()  # the first holds the game's turn timers too
    assert not await second.clocks.due_timers() and not await second.outbox.due_deliveries()
    second.deliveries_waiting.clear()
    await first.close()
    assert database.fetch("SELECT count(*) FROM deliveries WHERE claimed_by IS NOT NULL AND status = 'pending'"
                          ) == [(0,)]
    await asyncio.wait_for(second.deliveries_waiting.wait(), 10)  # told at once (NOTIFY), not polled
    assert {d.game_id for d in await second.outbox.due_deliveries()} == {g}
    assert {t.game_id for t in await second.clocks.due_timers()} == {g}
    first.core.store = second.store  # the fixture closes it again: let that be a no-op on the live one
    first.core.loader = second.loader


async def test_a_process_that_died_holds_no_timer(pair: Any, clock: Clock) -> None:
    first, second, _ = pair
    g = await game(first)
    clock.now += 49 * 3600
    timers = {t.id for t in await first.clocks.due_timers()}
    assert timers and not await second.clocks.due_timers()
    first.store.presence.kill()
    for _ in range(100):
        taken = {t.id for t in await second.clocks.due_timers()}
        if taken:
            break
        await asyncio.sleep(0.02)
    assert taken == timers and {t.game_id for t in await second.clocks.pending_timers(g)} == {g}


async def test_the_survivor_is_woken_when_another_process_dies(pair: Any) -> None:
    first, second, _ = pair
    await game(first)
    await first.outbox.due_deliveries()
    second.deliveries_waiting.clear()
    second.timers_changed.clear()
    first.store.presence.kill()
    await asyncio.wait_for(second.deliveries_waiting.wait(), 10)  # its watcher saw the lock go
    assert second.timers_changed.is_set()
    assert await second.outbox.due_deliveries()


async def test_a_write_conflict_from_another_process_reloads_the_game(pair: Any) -> None:
    first, second, _ = pair
    g = await game(first)
    await first.loader.load(g)
    await move(second, g)
    first.store.shared = False  # as if the check had been skipped: the seq guard still holds
    try:
        legal = await first.reads.legal_actions(g, HOST)  # from the stale copy: both choose tickets at seq 0
        with pytest.raises(StaleAction):
            await first.moves.submit(g, Actor.user(HOST), legal[0], 0)
    finally:
        first.store.shared = True
    assert (await first.reads.view(g, HOST)).seq == 1


# --- configuration ----------------------------------------------------------------------


def test_shards_come_from_the_environment() -> None:
    url = "postgresql://ttr@/ttr"
    plain = Config.from_env({"TTR_DATABASE": url})
    assert (plain.shard_ids, plain.shard_count) == (None, None) and plain.serves(123)
    config = Config.from_env({"TTR_DATABASE": url, "TTR_SHARD_IDS": "0,2-3", "TTR_SHARD_COUNT": "6"})
    assert config.shard_ids == (0, 2, 3) and config.shard_count == 6 and config.database == url
    guild = 2 << 22  # on shard 2
    assert config.serves(guild) and not config.serves(1 << 22)
    # No shards named: taken from the pool (every shard, for one process: SQLite is fine).
    pooled = Config.from_env({"TTR_SHARD_COUNT": "2"})
    assert (pooled.shard_ids, pooled.shard_count) == (None, 2)
    for bad, words in (({"TTR_SHARD_IDS": "0"}, "TTR_SHARD_COUNT"),
                       ({"TTR_SHARD_IDS": "0", "TTR_SHARD_COUNT": "2"}, "postgresql://"),
                       ({"TTR_DATABASE": url, "TTR_SHARD_IDS": "2", "TTR_SHARD_COUNT": "2"}, "below"),
                       ({"TTR_DATABASE": url, "TTR_SHARD_IDS": "a", "TTR_SHARD_COUNT": "2"}, "like 0,1")):
        with pytest.raises(ValueError, match=words):
            Config.from_env(bad)


async def test_the_bot_is_sharded_only_when_configured(tmp_path: Path) -> None:
    import discord

    from bot_app.adapter.client import ShardedTtrBot, TtrBot, make_bot

    service = await GameService.open(tmp_path / "bot.sqlite3", limits=UNLIMITED)
    try:
        plain = make_bot(service)
        assert type(plain) is TtrBot and not isinstance(plain, discord.AutoShardedClient)
        assert plain.syncs_commands and plain.serves(5 << 22)
        sharded = make_bot(service, shard_ids=[1], shard_count=2)
        assert isinstance(sharded, ShardedTtrBot) and isinstance(sharded, discord.AutoShardedClient)
        assert sharded.shard_ids == [1] and sharded.shard_count == 2
        assert not sharded.syncs_commands  # the process with shard 0 syncs the commands
        assert sharded.serves(1 << 22) and not sharded.serves(2 << 22)
        await plain.close()  # (an AutoShardedClient that never connected cannot be closed: discord.py)
    finally:
        await service.close()


# --- moving the data ----------------------------------------------------------------------


async def some_games(service: GameService) -> list[int]:
    """Games in every state: a lobby, a cancelled one, two being played, one finished."""
    await service.tables.create_lobby(1, 50, HOST, "Host", "europe", seats_wanted=3)
    cancelled = await service.tables.create_lobby(1, 51, HOST, "Host", "usa", seats_wanted=2)
    await service.tables.leave(cancelled.game_id, HOST)
    played = [await game(service, channel=c) for c in (52, 53)]
    for _ in range(7):
        await move(service, played[0])
    over = await service.tables.create_lobby(1, 54, HOST, "Host", "usa", seats_wanted=2, host_plays=False)
    for _ in range(2):
        await service.tables.add_ai(over.game_id, HOST, "random", len((await service.tables.lobby(over.game_id)).seats))
    await service.tables.start(over.game_id, HOST)
    await service.moves.play_bots(over.game_id)
    await service.reads.set_bot_state("commands", "digest")
    return [*played, over.game_id]


@pytest.mark.parametrize(("source", "target"), [("sqlite", "postgres"), ("postgres", "sqlite")])
async def test_copy_db_moves_every_game_and_checks_each_by_replay(other_database: Any, source: str,
                                                                  target: str) -> None:
    src: Database = other_database(source, "source")
    dst: Database = other_database(target, "target")
    service = await GameService.open(src.target, limits=UNLIMITED)
    try:
        played = await some_games(service)
        views = {g: await service.reads.view(g, HOST) for g in played}
    finally:
        await service.close()
    report = await copy_database(src.target, dst.target)
    assert report.games == 5 and report.replayed == 3 and report.actions > 20
    assert report.by_status == {"lobby": 1, "cancelled": 1, "setup": 1, "playing": 1, "over": 1}
    # The copy is a working database: the same games, the same numbers, and new ones go on from there.
    copied = await GameService.open(dst.target, limits=UNLIMITED)
    try:
        assert {g: await copied.reads.view(g, HOST) for g in played} == views
        assert await copied.reads.bot_state("commands") == "digest"
        assert await move(copied, played[1]) >= 1
        newer = await game(copied, channel=99)
        assert newer > max(played)
    finally:
        await copied.close()
    # A target that holds anything is refused, and left as it was.
    before = dst.fetch("SELECT count(*) FROM games")
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(src.target, dst.target)
    assert dst.fetch("SELECT count(*) FROM games") == before


def test_bot_copy_db_says_what_it_did_and_refuses_a_full_target(other_database: Any) -> None:
    src: Database = other_database("sqlite", "source")
    dst: Database = other_database("postgres", "target")

    async def fill() -> None:
        async with await GameService.open(src.target, limits=UNLIMITED) as service:
            await game(service)

    asyncio.run(fill())
    env = {**os.environ, "TTR_DATABASE": str(src.target)}
    run = [sys.executable, "bot.py", "--copy-db", str(dst.target)]
    done = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "copied 1 games" in done.stdout and "replayed on both sides" in done.stdout
    again = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "is not empty" in again.stderr and "Traceback" not in again.stderr


async def test_a_postgres_store_refuses_a_database_it_cannot_reach_in_words(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="Could not connect to the PostgreSQL database"):
        await open_store(f"postgresql://nobody@/none?host={tmp_path}")
