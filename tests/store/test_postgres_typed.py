"""PostgreSQL's writes of a move's usual statements with typed parameters (store/pg_typed.py,
`ttr_typed_batch` of migration 36): the function's text agrees with the kinds, each kind's
letters with the types the server gives its parameters, and a game played through it writes
exactly the rows the statements sent as text write."""

from __future__ import annotations

from typing import Any

import pytest

from app import Actor, GameService, Limits
from store import WriteConflict, postgres_writer
from store.migrations import MIGRATIONS_DIR
from store.opening import open_store
from store.pg_typed import BY_SQL, KINDS, function_body, split, variables
from store.postgres import PgStore
from store.postgres_writer import to_postgres, typed
from tests.clock import Clock
from tools.selfplay import play_game

LETTERS = {"smallint": "i", "integer": "i", "bigint": "i", "text": "t", "double precision": "f"}
TABLES = {"games": "id", "players": "game_id, seat", "actions": "game_id, seq", "snapshots": "game_id",
          "timers": "id", "deliveries": "id"}


def test_the_function_of_migration_36_runs_every_kind_as_written_here() -> None:
    text = (MIGRATIONS_DIR / "0036_typed_writes.postgres.sql").read_text()
    body = function_body().replace("            IF v_kind = 1 THEN", "            ELSIF v_kind = 1 THEN", 1)
    assert body in text
    for letter, count in variables().items():
        assert f"v_{letter}{count} " in text and f"v_{letter}{count + 1} " not in text


def test_values_that_do_not_fit_their_letters_go_as_text() -> None:
    ints: list[Any] = []
    texts: list[Any] = []
    floats: list[Any] = []
    assert split((1, "a", 2.5), "itf", ints, texts, floats) and (ints, texts, floats) == ([1], ["a"], [2.5])
    assert not split((2, 3.5, 1.0), "iif", ints, texts, floats)  # a float where an integer goes
    assert not split((2**63, "b", 1.0), "itf", ints, texts, floats)  # beyond bigint: the server's words
    assert not split((2, 7, 1.0), "itf", ints, texts, floats)
    assert (ints, texts, floats) == ([1], ["a"], [2.5])  # nothing left of the refused ones
    assert split((True, None, 3), "itf", ints, texts, floats) and floats[-1] == 3.0 and ints[-1] == 1


async def test_each_kinds_letters_are_the_types_the_server_gives_its_parameters(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        assert isinstance(store, PgStore)
        async with store._write_pool.acquire() as conn:
            for n, (sql, slots) in enumerate(KINDS, start=1):
                statement = await conn.prepare(to_postgres(sql))
                kinds = [LETTERS[t.name if t.name != "float8" else "double precision"]
                         if t.name in LETTERS else {"int2": "i", "int4": "i", "int8": "i", "float8": "f"}[t.name]
                         for t in statement.get_parameters()]
                assert "".join(kinds) == slots, (n, sql)


async def play(target: str, moves: int, *, typed_writes: bool, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Three games of `moves` moves each, on one clock and one deal; every row they wrote."""
    with monkeypatch.context() as patch:
        if not typed_writes:
            patch.setattr(postgres_writer, "BY_SQL", {})
        seeds = [11, 12, 13]
        clock = Clock()
        service = await GameService.open(target, clock=clock, limits=Limits.unlimited(),
                                         random_bits=lambda _bits: seeds.pop(0))
        try:
            for g in range(3):
                record = play_game("usa", 2 + g, 11 + g)
                made = await service.tables.create_lobby(1, 100 + g, 1000 * (g + 1), "p0", "usa", seats_wanted=2 + g)
                for seat in range(1, 2 + g):
                    await service.tables.join(made.game_id, 1000 * (g + 1) + seat, f"p{seat}")
                await service.tables.start(made.game_id, 1000 * (g + 1))
                for k, action in enumerate(record.actions[:moves]):
                    clock.advance(7.25)
                    await service.moves.submit(made.game_id, Actor.user(1000 * (g + 1) + action.player), action, k)
            store = service.store
            assert isinstance(store, PgStore)
            sent = store._writer.transactions
            rows = {table: await store.reader.fetch(f"SELECT * FROM {table} ORDER BY {order}")
                    for table, order in TABLES.items()}
        finally:
            await service.close()
    return {"rows": rows, "transactions": sent}


async def test_a_game_written_through_the_function_has_the_rows_of_one_written_as_text(
        other_database: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    through = await play(other_database("postgres", "typed").target, 60, typed_writes=True, monkeypatch=monkeypatch)
    as_text = await play(other_database("postgres", "text").target, 60, typed_writes=False, monkeypatch=monkeypatch)
    assert through["transactions"] == as_text["transactions"]
    for table in TABLES:
        assert through["rows"][table] == as_text["rows"][table], table
        assert through["rows"][table], table
    assert len(through["rows"]["actions"]) == 3 + 180 and through["rows"]["deliveries"] and through["rows"]["timers"]


async def test_a_move_goes_typed_and_a_stale_timer_is_refused_in_the_guards_words(other_database: Any) -> None:
    database = other_database("postgres")
    async with await open_store(database.target) as store:
        assert isinstance(store, PgStore)
        tx = store.tx()
        tx.games.create(guild_id=1, channel_id=5, host_user_id=5, variant="usa", options_json="{}",
                        seats_wanted=2, turn_hours=None)
        game_id = (await store.write(tx)).lastrowids[0]
        assert game_id is not None
        tx = store.tx()
        index = tx.timers.schedule(game_id, "limit", 10.0, seat=0, for_seq=0, payload_json="{}")
        assert typed(tx.statements)[1] == [BY_SQL[s.sql][0] for s in tx.statements]
        done = await store.write(tx)
        timer_id = done.lastrowids[index]
        assert timer_id is not None and database.fetchone("SELECT for_seq FROM timers WHERE id = ?", timer_id) == (0,)
        # The game is at seq 0: a timer for seq 3 is refused, nothing written.
        tx = store.tx()
        tx.timers.schedule(game_id, "limit", 20.0, seat=1, for_seq=3, payload_json="{}")
        with pytest.raises(WriteConflict, match="the game has moved on"):
            await store.write(tx)
        assert database.fetchone("SELECT count(*) FROM timers WHERE game_id = ?", game_id) == (1,)
