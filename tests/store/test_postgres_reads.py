"""PostgreSQL's grouped reads (store/pg_reads.py): the reads every move makes — a game's row and
seats, its plans, its players' settings — asked for by many moves at once go as one query, and
each move gets exactly what a read of its own would have given it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app import Actor, GameService, Limits
from store.games import GameReads
from store.pg_reads import KeyedReads
from store.plans import PlanReads
from store.timers import TimerReads
from store.user_settings import SettingsReads

UNLIMITED = Limits.unlimited()
GAMES = 6


async def started(service: GameService, channel: int) -> int:
    host = 1000 * channel
    lobby = await service.tables.create_lobby(1, channel, host, "Host", "usa", seats_wanted=2)
    await service.tables.join(lobby.game_id, host + 1, "Bob")
    await service.tables.start(lobby.game_id, host)
    return lobby.game_id


async def first_move(service: GameService, game_id: int) -> int:
    """The player the game waits for takes their first legal action; returns the new seq."""
    summary = await service.reads.game(game_id)
    user = summary.seats[summary.waiting_for[0]].user_id
    assert user is not None
    legal = await service.reads.legal_actions(game_id, user)
    return (await service.moves.submit(game_id, Actor.user(user), legal[0], summary.seq)).seq


async def test_moves_on_many_games_at_once_read_their_games_together(other_database: Any) -> None:
    database = other_database("postgres")
    service = await GameService.open(database.target, limits=UNLIMITED)
    try:
        games = [await started(service, c) for c in range(1, GAMES + 1)]
        for g in games:
            await service.reads.game(g)
            await service.loader.load(g)  # cached: each move now checks its copy against the database
        # (Each check reads the game's seq, status and version: its row and seats only when
        # they moved, migration 35.)
        reads = service.store.grouped.stamps
        asked, queries = reads.asked, reads.queries
        rows_read = service.store.grouped.games.asked
        seqs = await asyncio.gather(*(first_move(service, g) for g in games))
        assert seqs == [1] * GAMES  # every move applied, once
        assert service.store.grouped.games.asked == rows_read  # no row nor seat read again
        assert reads.asked - asked >= GAMES
        assert reads.queries - queries < reads.asked - asked  # fewer round trips than reads
        assert database.fetchone("SELECT count(*) FROM actions WHERE seq = 1") == (GAMES,)
    finally:
        await service.close()


async def test_a_grouped_read_gives_what_a_read_of_its_own_gives(other_database: Any) -> None:
    database = other_database("postgres")
    service = await GameService.open(database.target, limits=UNLIMITED)
    store = service.store
    try:
        games = [await started(service, c) for c in (1, 2)]
        tx = store.tx()
        tx.plans.put(games[0], 0, 1000, "[]")
        await store.write(tx)
        await service.settings.change_settings(1000, colorblind=True)
        alone = [await GameReads.with_players(store.games, g) for g in (*games, 999)]
        together = await asyncio.gather(*(store.games.with_players(g) for g in (*games, 999)))
        assert list(together) == alone
        assert together[2] == (None, [])  # no such game
        stamps = await asyncio.gather(*(store.games.stamp(g) for g in (*games, 999)))
        assert list(stamps) == [await GameReads.stamp(store.games, g) for g in (*games, 999)]
        assert stamps[2] is None and [s[:2] for s in stamps[:2] if s] == [(0, "setup")] * 2
        assert await asyncio.gather(*(store.plans.get(g) for g in games)) == [
            await PlanReads.get(store.plans, g) for g in games]
        assert await store.user_settings.get([1000, 1001, 2000]) == await SettingsReads.get(
            store.user_settings, [1000, 1001, 2000])
        assert set(await store.user_settings.get([1000, 2000])) == {1000}  # only users with settings stored
        tx = store.tx()
        tx.timers.schedule(games[1], "bench", 5.0, seat=0)
        tx.timers.schedule(games[1], "bench", 3.0, seat=1)
        await store.write(tx)
        timers = await asyncio.gather(*(store.timers.pending(g) for g in (*games, 999)))
        assert list(timers) == [await TimerReads.pending(store.timers, g) for g in (*games, 999)]
        assert [t.due_at for t in timers[1] if t.kind == "bench"] == [3.0, 5.0]  # soonest first
        assert timers[2] == []
    finally:
        await service.close()


async def test_a_failed_group_read_fails_each_of_its_readers_and_the_next_goes_again() -> None:
    calls: list[list[int]] = []

    async def fetch(keys: list[int]) -> dict[int, str]:
        calls.append(keys)
        if len(calls) == 1:
            raise OSError("connection lost")
        return {k: f"row {k}" for k in keys if k != 3}

    reads: KeyedReads[int, str] = KeyedReads(fetch)
    failed = await asyncio.gather(reads.get(1), reads.get(2), return_exceptions=True)
    assert [type(f) for f in failed] == [OSError, OSError]
    assert await asyncio.gather(reads.get(1), reads.get(2), reads.get(1), reads.get(3)) == [
        "row 1", "row 2", "row 1", None]
    assert calls == [[1, 2], [1, 2, 3]]  # one query per group, a key asked twice read once
    assert await reads.get_many([3, 4]) == {4: "row 4"}
    await reads.close()


@pytest.mark.parametrize("limit", [2])
async def test_a_group_holds_at_most_its_limit_of_keys(limit: int) -> None:
    calls: list[list[int]] = []

    async def fetch(keys: list[int]) -> dict[int, int]:
        calls.append(keys)
        return {k: k for k in keys}

    reads: KeyedReads[int, int] = KeyedReads(fetch, limit=limit)
    assert await reads.get_many(range(5)) == {k: k for k in range(5)}
    assert calls == [[0, 1], [2, 3], [4]]


async def test_reads_of_many_keys_wake_once_each_and_keep_their_order() -> None:
    calls: list[list[int]] = []

    async def fetch(keys: list[int]) -> dict[int, int]:
        calls.append(keys)
        if 6 in keys:
            raise OSError("connection lost")
        return {k: 10 * k for k in keys if k % 2}

    reads: KeyedReads[int, int] = KeyedReads(fetch, limit=3)
    first, second, one = await asyncio.gather(reads.get_many([5, 3, 1, 3]), reads.get_many([1, 2]), reads.get(3))
    assert list(first.items()) == [(5, 50), (3, 30), (1, 10)]  # in the order asked, a key twice once
    assert second == {1: 10} and one == 30
    assert calls == [[5, 3, 1], [2]]  # one key asked by three readers read once
    assert await reads.get_many([]) == {}
    # A group that fails fails every reader waiting on one of its keys, once; the others go on.
    failed = await asyncio.gather(reads.get_many([7, 6, 8]), reads.get_many([9]), return_exceptions=True)
    assert isinstance(failed[0], OSError) and failed[1] == {9: 90}
    await reads.close()
