"""PostgreSQL's writer (store/postgres_writer.py): every waiting transaction in one call of
`ttr_batch`, each statement prepared once per connection and then sent as a short EXECUTE
line, one subtransaction per batch — and a transaction that fails is refused alone, exactly
as when each had a subtransaction of its own."""

from __future__ import annotations

import asyncio
from typing import Any

from store import Store, WriteConflict
from store.opening import open_store
from store.pg_typed import BY_SQL
from store.postgres import PgStore
from store.postgres_writer import fuse, typed

NAME = "UPDATE players SET name = ? WHERE game_id = ? AND seat = ?"


async def lobby(store: Store, host: int) -> int:
    tx = store.tx()
    tx.games.create(guild_id=1, channel_id=host, host_user_id=host, variant="usa", options_json="{}",
                    seats_wanted=5, turn_hours=None)
    tx.games.join_lobby(None, user_id=host, is_ai=False, ai_level=None, name="Host", seats_wanted=5)
    done = await store.write(tx)
    game_id = done.lastrowids[0]
    assert game_id is not None
    return game_id


def renamed(store: Store, game_id: int, name: str, *, guard: int | None = None) -> Any:
    tx = store.tx()
    tx.add(NAME, (name, game_id, 0), expect_rows=guard, conflict="No such seat.")
    return store.write(tx)


def prepared(store: Store) -> int:
    """How many statements the writer has prepared, over all its connections."""
    assert isinstance(store, PgStore)
    return sum(len(p.names) for p in store._writer._prepared.values())


async def test_a_statement_is_prepared_once_per_connection_however_often_it_is_written(
        other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        await renamed(store, game_id, "first")
        after_one = prepared(store)
        for n in range(20):
            await renamed(store, game_id, f"name {n}")
        await asyncio.gather(*(renamed(store, game_id, f"together {n}") for n in range(20)))
        # At most once more: the second connection of the writer may have met it too.
        assert after_one <= prepared(store) <= after_one + 1
        assert database.fetchone("SELECT name FROM players WHERE game_id = ? AND seat = 0", game_id) == (
            "together 19",)


async def test_a_statement_the_server_cannot_prepare_is_written_whole(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        tx = store.tx()
        # `? IS NULL` alone: PostgreSQL cannot tell the parameter's type, so it is not prepared.
        sql = "UPDATE games SET turn_hours = ? WHERE id = ? AND ? IS NULL"
        tx.add(sql, (2.5, game_id, None), expect_rows=1)
        await store.write(tx)
        assert isinstance(store, PgStore) and sql in store._writer._unpreparable
        assert database.fetchone("SELECT turn_hours FROM games WHERE id = ?", game_id) == (2.5,)


async def test_a_failing_transaction_of_a_batch_is_refused_alone_and_the_others_are_written(
        other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        games = [await lobby(store, 100 + n) for n in range(5)]
        outcomes = await asyncio.gather(
            *(renamed(store, g if n != 2 else 999_999, f"player {n}", guard=1) for n, g in enumerate(games)),
            return_exceptions=True)
        assert isinstance(outcomes[2], WriteConflict) and str(outcomes[2]) == "No such seat."
        assert all(not isinstance(o, BaseException) for n, o in enumerate(outcomes) if n != 2)
        names = [database.fetchone("SELECT name FROM players WHERE game_id = ? AND seat = 0", g)[0]
                 for g in games]
        assert names == ["player 0", "player 1", "Host", "player 3", "player 4"]


async def test_a_key_written_twice_in_one_batch_is_written_once(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)

        def entry() -> Any:
            tx = store.tx()
            tx.log.append(game_id, 1, actor=0, user_id=100, action_json="{}", events_json="[]")
            return store.write(tx)

        outcomes = await asyncio.gather(entry(), entry(), return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["TxResult", "WriteConflict"]
        assert database.fetchone("SELECT count(*) FROM actions WHERE game_id = ?", game_id) == (1,)


async def test_statements_the_server_forgot_are_prepared_again(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        await asyncio.gather(*(renamed(store, game_id, f"name {n}") for n in range(4)))
        assert isinstance(store, PgStore)
        # Both write connections drop what the writer prepared there (as a new connection that
        # got an old one's process id would not have it).
        async with store._write_pool.acquire() as one, store._write_pool.acquire() as two:
            for conn in (one, two):
                for (name,) in await conn.fetch("SELECT name FROM pg_prepared_statements WHERE name LIKE 'ttr_w%'"):
                    await conn.execute(f"DEALLOCATE {name}")
        await renamed(store, game_id, "after", guard=1)
        assert database.fetchone("SELECT name FROM players WHERE game_id = ? AND seat = 0", game_id) == ("after",)


async def test_a_prepared_statement_reads_its_values_back_exactly(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        for value in (0.1 + 2 / 3, -1.5, 1e300, 2**62, -(2**62), 1700000000.1234567):
            for _ in range(2):  # the first time prepared, the second through the prepared statement
                tx = store.tx()
                tx.add("UPDATE games SET updated_at = ? WHERE id = ?", (value, game_id), expect_rows=1)
                await store.write(tx)
                assert database.fetchone("SELECT updated_at FROM games WHERE id = ?", game_id) == (float(value),)


async def test_a_connection_whose_book_was_dropped_prepares_again_under_new_names(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        await renamed(store, game_id, "first")
        assert isinstance(store, PgStore)
        store._writer._prepared.clear()  # as when the pool's connections outnumber the book
        await renamed(store, game_id, "second", guard=1)
        assert NAME not in store._writer._unpreparable and prepared(store) >= 1
        assert database.fetchone("SELECT name FROM players WHERE game_id = ? AND seat = 0", game_id) == ("second",)


async def test_a_guard_and_the_insert_after_it_go_as_one_statement_with_the_same_outcome(
        other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        game_id = await lobby(store, 100)
        database.execute(("UPDATE games SET status = 'playing' WHERE id = ?", (game_id,)))
        tx = store.tx()
        tx.games.advance(game_id, from_seq=0, to_seq=1, status="playing", waiting_json="[]", from_status="playing")
        tx.log.append(game_id, 1, actor=0, user_id=100, action_json='{"a": 1}', events_json="[]")
        assert isinstance(store, PgStore)
        sent, spans = fuse(tx.statements)
        assert (len(sent), spans) == (1, [2])
        done = await store.write(tx)
        assert done.rowcounts == [1, 1]
        # Sent as one statement of the kinds the batch function runs itself (store/pg_typed.py),
        # typed values, no text: nothing prepared for it.
        assert typed(sent)[1] == [BY_SQL[sent[0].sql][0]]
        assert not any(sql.startswith("WITH u AS (UPDATE games")
                       for p in store._writer._prepared.values() for sql in p.names)
        # A stale copy (the game is at 1, not 0): the guard's words, nothing written.
        tx = store.tx()
        tx.games.advance(game_id, from_seq=0, to_seq=1, status="playing", waiting_json="[]", from_status="playing")
        tx.log.append(game_id, 5, actor=0, user_id=100, action_json='{"a": 2}', events_json="[]")
        try:
            await store.write(tx)
        except WriteConflict as exc:
            assert "moved on" in str(exc)
        else:
            raise AssertionError("a stale advance was written")
        # The guard kept and the entry's key already taken: refused, nothing written.
        tx = store.tx()
        tx.games.advance(game_id, from_seq=1, to_seq=2, status="playing", waiting_json="[]", from_status="playing")
        tx.log.append(game_id, 1, actor=0, user_id=100, action_json='{"a": 3}', events_json="[]")
        try:
            await store.write(tx)
        except WriteConflict:
            pass
        else:
            raise AssertionError("a log entry was written twice")
        assert database.fetchone("SELECT seq FROM games WHERE id = ?", game_id) == (1,)
        assert database.fetch("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", game_id) == [
            (1, '{"a": 1}')]
