"""The SQLite store keeps the plans and settings it read (store/read_cache.py): read again,
they come from memory; written, the next read sees the change — a keyed statement forgets its
game or user, any other statement on the table forgets the whole table, a failed write too,
and a read that was under way while the table changed is not kept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from store import WriteConflict
from store.opening import open_store
from store.plans import PlanRow
from store.read_cache import ReadCache

BOB, CAROL = 101, 102


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Any]:
    opened = await open_store(tmp_path / "ttr.sqlite3")
    reads: list[str] = []
    fetch = opened.reader.fetch

    async def counted(sql: str, params: Any = ()) -> Any:
        reads.append(sql)
        return await fetch(sql, params)

    opened.reader.fetch = counted
    opened.reads = reads
    yield opened
    await opened.close()


async def _game(store: Any) -> int:
    tx = store.tx()
    index = tx.games.create(guild_id=1, channel_id=1, host_user_id=BOB, variant="usa", options_json="{}",
                            seats_wanted=2, turn_hours=None)
    return int((await store.write(tx)).lastrowids[index])


async def _write(store: Any, build: Any) -> None:
    tx = store.tx()
    build(tx)
    await store.write(tx)


async def test_settings_read_twice_are_read_from_the_database_once(store):
    await _write(store, lambda tx: tx.user_settings.set_time_zone(BOB, "Europe/Paris"))
    first = await store.user_settings.get([BOB, CAROL])
    reads = len(store.reads)
    assert await store.user_settings.get([BOB, CAROL]) == first
    assert first[BOB].timezone == "Europe/Paris" and CAROL not in first  # Carol has no row: the defaults
    assert len(store.reads) == reads


async def test_a_change_of_settings_is_read_at_once(store):
    await store.user_settings.get([BOB, CAROL])
    await _write(store, lambda tx: tx.user_settings.set_quiet_hours(CAROL, (22 * 60, 7 * 60)))
    after = await store.user_settings.get([BOB, CAROL])
    assert (after[CAROL].quiet_start, after[CAROL].quiet_end) == (22 * 60, 7 * 60)


async def test_a_plan_stored_or_taken_is_read_at_once(store):
    game = await _game(store)
    assert await store.plans.get(game) == []
    await _write(store, lambda tx: tx.plans.put(game, 1, BOB, "[]"))
    (row,) = await store.plans.get(game)
    assert (row.seat, row.revision) == (1, 1)
    reads = len(store.reads)
    assert await store.plans.get(game, 1) == [row] and await store.plans.get(game, 0) == []
    assert len(store.reads) == reads
    await _write(store, lambda tx: tx.plans.take(game, 1, 1, None))
    assert await store.plans.get(game) == []


async def test_a_statement_without_a_key_forgets_the_whole_table(store):
    game = await _game(store)
    await store.plans.get(game)
    await store.user_settings.get([BOB])
    await _write(store, lambda tx: tx.add(
        "INSERT INTO plans (game_id, seat, user_id, plans, revision, updated_at) VALUES (?, 0, ?, '[]', 4, 0)",
        (game, CAROL)))
    await _write(store, lambda tx: tx.add("INSERT INTO user_settings (user_id, timezone, updated_at)"
                                          " VALUES (?, 'Asia/Tokyo', 0)", (BOB,)))
    assert [r.revision for r in await store.plans.get(game)] == [4]
    assert (await store.user_settings.get([BOB]))[BOB].timezone == "Asia/Tokyo"


async def test_a_failed_write_forgets_what_it_touched(store):
    game = await _game(store)
    await store.user_settings.get([BOB])

    def doomed(tx: Any) -> None:
        tx.user_settings.set_time_zone(BOB, "Europe/Oslo")
        tx.games.set_status(game, "playing", "over")  # the game is in the lobby: the guard fails

    with pytest.raises(WriteConflict):
        await _write(store, doomed)
    assert store.reader.cache.settings == {}
    assert await store.user_settings.get([BOB]) == {}  # nothing was written


def test_a_read_under_way_while_the_table_changed_is_not_kept():
    cache = ReadCache()
    row = PlanRow(7, 0, BOB, "[]", 1, 0.0)
    began = cache.generation
    tx_statements, keys = [_Sql("DELETE FROM plans WHERE game_id = ?")], {0: 7}
    cache.wrote(tx_statements, keys)  # written while the read was on its way
    cache.keep_plans(began, 7, [row])
    assert 7 not in cache.plans
    cache.keep_plans(cache.generation, 7, [row])
    assert cache.plans[7] == [row]


class _Sql:
    def __init__(self, sql: str) -> None:
        self.sql = sql
