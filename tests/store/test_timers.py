"""The turn's timers in the store (migration 34): a new turn reschedules the last turn's rows in
place, a timer fires only at the revision it was read at, and on SQLite the timer loop finds
what is due through the wake table, which a reschedule never writes in a game's place.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from store import Store, WriteConflict
from store.opening import open_store
from store.records import TimerRow
from tests.databases import Database
from tests.store.test_store import migrate_to, new_lobby

TURN = ("reminder", "limit")


async def pending(store: Store, game_id: int) -> list[tuple[str, int | None, float]]:
    return sorted((t.kind, t.seat, t.due_at) for t in await store.timers.pending(game_id))


async def turn(store: Store, game_id: int, timers: list[tuple[str, int, float]]) -> None:
    tx = store.tx()
    tx.timers.turn(game_id, TURN, [(kind, seat, due, "{}") for kind, seat, due in timers])
    await store.write(tx)


async def test_the_next_turn_takes_the_last_turns_rows_and_an_old_reading_cannot_fire_them(
        database: Database) -> None:
    async with await open_store(database.target) as store:
        game = await new_lobby(store)
        await turn(store, game, [("reminder", 0, 500.0), ("limit", 0, 1000.0)])
        first = {t.kind: t for t in await store.timers.pending(game)}
        await turn(store, game, [("reminder", 1, 600.0), ("limit", 1, 1100.0)])
        second = {t.kind: t for t in await store.timers.pending(game)}
        assert await pending(store, game) == [("limit", 1, 1100.0), ("reminder", 1, 600.0)]
        # The same rows, one revision on.
        assert {k: (t.id, t.rev) for k, t in second.items()} == {k: (t.id, t.rev + 1) for k, t in first.items()}
        tx = store.tx()
        tx.timers.fire(first["limit"].id, first["limit"].rev)  # read for seat 0's turn, which is over
        with pytest.raises(WriteConflict):
            await store.write(tx)
        tx = store.tx()
        tx.timers.fire(second["limit"].id, second["limit"].rev)
        await store.write(tx)
        assert await pending(store, game) == [("reminder", 1, 600.0)]


async def test_a_turn_waiting_for_fewer_players_cancels_the_rows_left_over_and_one_for_more_adds_rows(
        database: Database) -> None:
    async with await open_store(database.target) as store:
        game = await new_lobby(store)
        await turn(store, game, [("reminder", s, 500.0 + s) for s in range(3)] + [("limit", 0, 1000.0)])
        await turn(store, game, [("reminder", 2, 700.0)])
        assert await pending(store, game) == [("reminder", 2, 700.0)]
        await turn(store, game, [("limit", s, 900.0 + s) for s in (3, 1)])
        assert await pending(store, game) == [("limit", 1, 901.0), ("limit", 3, 903.0)]
        # A timer set on its own (its own kind and seat) goes when a turn begins, as before.
        tx = store.tx()
        tx.timers.schedule(game, "reminder", 800.0, seat=1)
        await store.write(tx)
        await turn(store, game, [])
        assert await pending(store, game) == []


async def test_a_moves_cancel_of_timers_for_an_earlier_point_joins_its_turns_cancel(database: Database) -> None:
    async with await open_store(database.target) as store:
        game = await new_lobby(store)
        await turn(store, game, [("reminder", s, 500.0 + s) for s in range(2)])
        tx = store.tx()
        tx.timers.schedule(game, "held", 2000.0, seat=0, for_seq=0)  # set for seq 0, which the move passes
        await store.write(tx)
        tx = store.tx()
        tx.timers.cancel_before(game, 1)
        tx.timers.turn(game, TURN, [("reminder", 1, 700.0, "{}")])
        # One cancel for both (the earlier point's and the rows left over), then the upsert.
        assert len(tx.statements) == 2
        await store.write(tx)
        assert await pending(store, game) == [("reminder", 1, 700.0)]
        # With another timer statement between them, each keeps its own place.
        tx = store.tx()
        tx.timers.schedule(game, "held", 2000.0, seat=1, for_seq=0)
        await store.write(tx)
        tx = store.tx()
        tx.timers.cancel_before(game, 1)
        tx.timers.schedule(game, "reminder", 800.0, seat=0)
        tx.timers.turn(game, TURN, [("reminder", 0, 900.0, "{}")])
        assert len(tx.statements) == 5
        await store.write(tx)
        assert await pending(store, game) == [("reminder", 0, 900.0)]


def wakes(path: Path) -> list[tuple[float, int]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT wake_at, timer_id FROM timer_wakes ORDER BY wake_at").fetchall()


async def test_the_loop_wakes_early_for_a_rescheduled_timer_and_looks_again_at_its_due_time(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    async with await open_store(path) as store:
        game = await new_lobby(store)
        tx = store.tx()
        tx.add("UPDATE games SET status = 'playing' WHERE id = ?", (game,))
        await store.write(tx)
        await turn(store, game, [("limit", 0, 1000.0)])
        (limit,) = await store.timers.pending(game)
        await turn(store, game, [("limit", 1, 2000.0)])
        # The later due time kept the earlier entry: nothing was written in the wake table.
        assert wakes(path) == [(1000.0, limit.id)] and await store.timers.next_due() == 1000.0
        assert await store.timers.claim(1000.0, 10, owner="", lease=0) == []
        assert wakes(path) == [(2000.0, limit.id)] and await store.timers.next_due() == 2000.0
        (due,) = await store.timers.claim(2000.0, 10, owner="", lease=0)
        assert (due.id, due.seat, due.rev) == (limit.id, 1, 1)
        # An earlier due time adds an entry at once; the one it leaves behind is cleared when passed.
        await turn(store, game, [("limit", 0, 1500.0)])
        assert wakes(path) == [(1500.0, limit.id), (2000.0, limit.id)]
        tx = store.tx()
        tx.timers.fire(limit.id)
        await store.write(tx)
        assert wakes(path) == [(2000.0, limit.id)]
        assert await store.timers.claim(2000.0, 10, owner="", lease=0) == [] and wakes(path) == []
        assert await store.timers.next_due() is None


async def test_a_pending_timer_of_a_database_before_migration_34_still_fires(database: Database) -> None:
    await migrate_to(database, 33)
    database.execute(
        "INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, seats_wanted, status, seq,"
        " created_at, updated_at) VALUES (7, 1, 1, 100, 'usa', 2, 'playing', 3, 0, 0)",
        "INSERT INTO timers (game_id, kind, seat, due_at, payload, created_at) VALUES (7, 'limit', 0, 50, '{}', 0)",
        "INSERT INTO timers (game_id, kind, seat, due_at, payload, created_at, cancelled_at)"
        " VALUES (7, 'reminder', 0, 20, '{}', 0, 1)")
    async with await open_store(database.target) as store:
        assert await store.timers.next_claimable(0.0, "") == 50.0
        assert await store.timers.claim(49.0, 10, owner="x", lease=5) == []
        (due,) = await store.timers.claim(50.0, 10, owner="x", lease=5)
        assert isinstance(due, TimerRow) and (due.kind, due.seat, due.rev) == ("limit", 0, 0)
        # The next turn reschedules it in place like any row of this version.
        await turn(store, 7, [("limit", 1, 90.0)])
        assert [(t.id, t.seat, t.rev) for t in await store.timers.pending(7)] == [(due.id, 1, 1)]
