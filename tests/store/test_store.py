"""The store on its own: migrations, durability settings, guarded and grouped writes, backups.

Every test uses a real database: a new SQLite file in a temporary folder and, where the test
means something there, a new PostgreSQL database too (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from store import BackupRefused, SchemaTooNew, Store, StoreError, WriteConflict, backup_database, latest_version
from store.db import connect
from store.migrations import MIGRATIONS_DIR, POSTGRES, load_migrations, migrate
from store.opening import open_store
from store.postgres import PgStore, migrate_postgres
from tests.clock import Clock
from tests.databases import Database

ROOT = Path(__file__).resolve().parents[2]


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).fetchall()


def pg_schema(url: str) -> list[tuple[str, ...]]:
    """PostgreSQL's view of the tables, columns, indexes and triggers."""
    async def read() -> list[tuple[str, ...]]:
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch(
                "SELECT 'column', table_name, column_name || ' ' || data_type || ' ' || is_nullable || ' '"
                " || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = 'public'"
                " UNION ALL SELECT 'index', tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'"
                " UNION ALL SELECT 'trigger', event_object_table, trigger_name || ' ' || event_manipulation"
                " FROM information_schema.triggers UNION ALL SELECT 'check', conrelid::regclass::text,"
                " pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace"
                " ORDER BY 1, 2, 3")
            return [tuple(r) for r in rows]
        finally:
            await conn.close()

    from tests.databases import run_async
    return run_async(read())


def schema(database: Database) -> list[tuple[str, ...]]:
    return pg_schema(str(database.target)) if database.is_postgres else schema_of(Path(database.target))


async def migrate_to(database: Database | Path, version: int) -> None:
    if isinstance(database, Database) and database.is_postgres:
        conn = await asyncpg.connect(str(database.target))
        try:
            await migrate_postgres(conn, "test", Clock(1_000_000.0), target=version)
        finally:
            await conn.close()
        return
    path = Path(database.target) if isinstance(database, Database) else database
    path.parent.mkdir(parents=True, exist_ok=True)
    db = await connect(path)
    try:
        await migrate(db, str(path), Clock(1_000_000.0), target=version)
    finally:
        await db.close()


async def new_lobby(store: Store, host: int = 1) -> int:
    tx = store.tx()
    index = tx.games.create(guild_id=10, channel_id=20 + host, host_user_id=host, variant="usa", options_json="{}",
                            seats_wanted=4, turn_hours=None)
    tx.games.join_lobby(None, user_id=host, is_ai=False, ai_level=None, name=f"user{host}", seats_wanted=4)
    done = await store.write(tx)
    game_id = done.lastrowids[index]
    assert game_id is not None
    return game_id


# --- migrations -------------------------------------------------------------------------


async def test_a_new_database_gets_every_migration_and_the_durable_settings(database: Database) -> None:
    async with await open_store(database.target) as store:
        assert store.schema_version == latest_version() >= 5
        assert store.created
        settings = await store.settings()
    if database.is_postgres:
        # Durability is the server's (fsync, synchronous_commit: the test server runs without
        # them, a real one with them); the store relies on READ COMMITTED for its guards.
        assert settings["default_transaction_isolation"] == "read committed"
    else:
        assert settings == {"journal_mode": "wal", "synchronous": 2, "busy_timeout": 5000, "foreign_keys": 1}
    versions = [row[0] for row in database.fetch("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [m.version for m in load_migrations()]
    async with await open_store(database.target) as again:
        assert not again.created


@pytest.mark.parametrize("start", [0] + [m.version for m in load_migrations()][:-1])
async def test_a_database_at_every_earlier_version_migrates_to_the_schema_of_a_new_one(
    database: Database, other_database: object, start: int
) -> None:
    fresh: Database = other_database(database.kind, "fresh")  # type: ignore[operator]
    async with await open_store(fresh.target):
        pass
    await migrate_to(database, start)
    async with await open_store(database.target) as store:
        assert store.schema_version == latest_version()
    assert schema(database) == schema(fresh)


async def test_migration_2_fills_results_from_games_finished_under_version_1(tmp_path: Path) -> None:
    # SQLite only: no PostgreSQL database was ever at version 1 (0002_results.postgres.sql).
    path = tmp_path / "v1.sqlite3"
    await migrate_to(path, 1)
    result = {
        "sheets": [
            {"seat": 0, "total": 80, "tickets": [{"id": "a", "completed": True}, {"id": "b", "completed": False}]},
            {"seat": 1, "total": 95, "tickets": [{"id": "c", "completed": True}]},
            {"seat": 2, "total": 80, "tickets": []},
        ],
        "winners": [1],
    }
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, seats_wanted, seed, rules_version,"
            " status, seq, created_at, updated_at) VALUES (7, 1, 2, 100, 'usa', 3, 5, 1, 'over', 200, 10, 20)"
        )
        db.execute(  # a game still being played gets no results
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, seats_wanted, seed, rules_version,"
            " status, seq, created_at, updated_at) VALUES (8, 1, 2, 100, 'usa', 2, 5, 1, 'playing', 3, 10, 20)"
        )
        for seat, (user, is_ai) in enumerate([(100, 0), (101, 0), (None, 1)]):
            db.execute("INSERT INTO players VALUES (7, ?, ?, ?, ?, ?, 10)",
                       (seat, user, is_ai, "greedy" if is_ai else None, f"p{seat}"))
        db.execute("INSERT INTO snapshots VALUES (7, 200, 1, ?, 20)", (json.dumps({"result": result}),))
        db.execute("INSERT INTO snapshots VALUES (8, 3, 1, ?, 20)", (json.dumps({"result": None}),))
    async with await open_store(path) as store:
        rows = await store.results.of_game(7)
        assert await store.results.of_game(8) == []
    assert [(r.seat, r.user_id, r.score, r.place, r.won, r.tickets_completed, r.tickets_failed) for r in rows] == [
        (0, 100, 80, 2, False, 1, 1),
        (1, 101, 95, 1, True, 1, 0),
        (2, None, 80, 2, False, 0, 0),
    ]
    assert rows[2].is_ai and rows[2].ai_level == "greedy"
    assert {r.finished_at for r in rows} == {20}


async def test_a_database_from_a_newer_bot_is_refused_untouched(database: Database) -> None:
    async with await open_store(database.target):
        pass
    newer = latest_version() + 1
    database.execute(("INSERT INTO schema_version VALUES (?, 'from_the_future', 0)", (newer,)))
    if database.is_postgres:
        before = schema(database)
    else:
        before = hashlib.sha256(Path(database.target).read_bytes()).hexdigest()
    with pytest.raises(SchemaTooNew) as caught:
        await open_store(database.target)
    message = str(caught.value)
    assert f"schema version {newer}" in message
    assert f"only knows versions up to {latest_version()}" in message
    assert "has not been changed" in message
    if database.is_postgres:
        assert schema(database) == before
    else:
        assert hashlib.sha256(Path(database.target).read_bytes()).hexdigest() == before


async def test_another_applications_database_is_left_alone(database: Database) -> None:
    if not database.is_postgres:
        Path(database.target).parent.mkdir(parents=True)
    database.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = schema(database)
    with pytest.raises(StoreError, match="not a game database"):
        await open_store(database.target)
    assert schema(database) == before and len(before) >= 1


async def test_migration_13_keeps_the_action_log_append_only_in_a_table_of_appended_rows(tmp_path: Path) -> None:
    # SQLite only: PostgreSQL's log is a heap table already (0013_fewer_pages.postgres.sql).
    path = tmp_path / "v12.sqlite3"
    await migrate_to(path, 12)
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, seats_wanted, seed, rules_version,"
            " status, seq, created_at, updated_at) VALUES (7, 1, 2, 100, 'usa', 2, 5, 3, 'playing', 2, 10, 20)"
        )
        for seq in (2, 0, 1):
            db.execute("INSERT INTO actions VALUES (7, ?, 0, 100, ?, '[]', 10)", (seq, f'{{"n":{seq}}}'))
    async with await open_store(path) as store:
        log = await store.log.actions(7)
    assert [(r.seq, r.action_json) for r in log] == [(0, '{"n":0}'), (1, '{"n":1}'), (2, '{"n":2}')]
    with sqlite3.connect(path) as db:
        (sql,) = db.execute("SELECT sql FROM sqlite_schema WHERE name = 'actions'").fetchone()
        assert "WITHOUT ROWID" not in sql
        indexes = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")}
        assert "deliveries_by_game" not in indexes and "timers_pending_by_game" not in indexes
        assert "deliveries_failed_by_game" in indexes
        for change in ("UPDATE actions SET action = '{}' WHERE game_id = 7", "DELETE FROM actions WHERE game_id = 7"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                db.execute(change)


def test_migrations_are_numbered_in_order_and_each_back_end_has_its_text() -> None:
    migrations = load_migrations()
    versions = [m.version for m in migrations]
    assert versions == sorted(set(versions)) and versions[0] == 1 and latest_version() == versions[-1]
    assert all(m.statements() or m.postgres_sql for m in migrations)
    # PostgreSQL's own text where the two differ; the shared text, with its types, elsewhere.
    overrides = sorted(p.name for p in MIGRATIONS_DIR.glob("*.postgres.sql"))
    assert overrides == ["0001_base.postgres.sql", "0002_results.postgres.sql", "0003_store_state.postgres.sql",
                         "0004_outbox.postgres.sql", "0006_write_batches.postgres.sql",
                         "0013_fewer_pages.postgres.sql", "0032_prepared_writes.postgres.sql",
                         "0034_timers_in_place.postgres.sql",
                         "0035_game_version.postgres.sql", "0036_typed_writes.postgres.sql",
                         "0037_checks_as_domains.postgres.sql"]
    claims = migrations[4].sql_for(POSTGRES)
    assert "claimed_until DOUBLE PRECISION" in claims and " REAL" not in claims
    assert migrations[5].statements() == [] and "ttr_write" in (migrations[5].postgres_sql or "")
    batches = next(m for m in migrations if m.version == 32)
    assert batches.statements() == [] and "ttr_batch" in (batches.postgres_sql or "")
    typed = next(m for m in migrations if m.version == 36)
    assert typed.statements() == [] and "ttr_typed_batch" in (typed.postgres_sql or "")


# --- writes -----------------------------------------------------------------------------


async def test_the_action_log_is_append_only(database: Database) -> None:
    async with await open_store(database.target) as store:
        game_id = await new_lobby(store)
        tx = store.tx()
        tx.log.append(game_id, 0, actor=None, user_id=1, action_json="{}", events_json="[]")
        await store.write(tx)
        refused = ["UPDATE actions SET action = '{\"x\":1}'", "DELETE FROM actions"]
        if database.is_postgres:
            refused.append("TRUNCATE actions")
        for sql in refused:
            tx = store.tx()
            tx.add(sql)
            with pytest.raises(StoreError, match="append-only"):
                await store.write(tx)
        assert len(await store.log.actions(game_id)) == 1


async def test_a_guarded_write_that_finds_the_game_moved_on_writes_nothing(database: Database) -> None:
    async with await open_store(database.target) as store:
        game_id = await new_lobby(store)
        tx = store.tx()
        tx.add("UPDATE games SET status = 'playing' WHERE id = ?", (game_id,))
        await store.write(tx)
        tx = store.tx()
        tx.log.append(game_id, 1, actor=0, user_id=1, action_json="{}", events_json="[]")
        tx.games.advance(game_id, from_seq=5, to_seq=6, status="playing", waiting_json="[0]")
        with pytest.raises(WriteConflict, match="already happened"):
            await store.write(tx)
        assert await store.log.actions(game_id) == []
        game = await store.games.get(game_id)
        assert game is not None and game.seq == 0


@pytest.mark.parametrize(("kind", "one_hop", "max_batch"), [
    ("sqlite", True, None), ("sqlite", False, None), ("postgres", None, 1), ("postgres", None, None)],
    ids=["sqlite-group-in-one-hop", "sqlite-public-api-per-statement", "postgres-one-per-call",
         "postgres-batched"])
async def test_writes_waiting_together_share_a_commit_yet_each_stays_atomic(
        other_database: object, kind: str, one_hop: bool | None, max_batch: int | None) -> None:
    database: Database = other_database(kind)  # type: ignore[operator]
    async with await open_store(database.target, max_batch=max_batch) as store:
        if one_hop is False:
            store._writer._in_thread = None  # the writer's fallback when aiosqlite's internals change
        elif one_hop:
            assert store._writer._in_thread is not None
        game_ids = [await new_lobby(store, host) for host in range(1, 21)]
        tx = store.tx()
        tx.add("UPDATE games SET status = 'playing'")
        await store.write(tx)

        async def move(game_id: int, from_seq: int) -> None:
            tx = store.tx()
            tx.games.advance(game_id, from_seq=from_seq, to_seq=from_seq + 1, status="playing", waiting_json="[0]")
            tx.log.append(game_id, from_seq + 1, actor=0, user_id=None, action_json="{}", events_json="[]")
            await store.write(tx)

        before = store.writer_stats
        await asyncio.gather(*(move(g, 0) for g in game_ids))
        transactions, commits = store.writer_stats
        assert transactions - before[0] == 20
        if max_batch != 1:
            assert commits - before[1] < 10  # grouped

        async def vandal() -> None:
            tx = store.tx()
            tx.add("DELETE FROM actions")
            await store.write(tx)

        # Game 5's writer believes it is at seq 7, and one transaction breaks a rule: only
        # those two fail.
        outcomes = await asyncio.gather(*(move(g, 7 if i == 5 else 1) for i, g in enumerate(game_ids)), vandal(),
                                        return_exceptions=True)
        failed = [i for i, o in enumerate(outcomes) if isinstance(o, BaseException)]
        assert failed == [5, 20] and isinstance(outcomes[5], WriteConflict)
        assert "append-only" in str(outcomes[20])
        for i, game_id in enumerate(game_ids):
            assert [a.seq for a in await store.log.actions(game_id)] == ([1] if i == 5 else [1, 2])


async def test_a_lobby_takes_one_seat_per_person_and_no_more_seats_than_wanted(database: Database) -> None:
    async with await open_store(database.target) as store:
        game_id = await new_lobby(store)
        tx = store.tx()
        tx.games.join_lobby(game_id, user_id=1, is_ai=False, ai_level=None, name="again", seats_wanted=4)
        with pytest.raises(WriteConflict):
            await store.write(tx)
        for user in (2, 3, 4):
            tx = store.tx()
            tx.games.join_lobby(game_id, user_id=user, is_ai=False, ai_level=None, name=f"u{user}", seats_wanted=4)
            await store.write(tx)
        tx = store.tx()
        tx.games.join_lobby(game_id, user_id=None, is_ai=True, ai_level="random", name="bot", seats_wanted=4)
        with pytest.raises(WriteConflict):
            await store.write(tx)
        assert [p.user_id for p in await store.games.players(game_id)] == [1, 2, 3, 4]


# --- backups ----------------------------------------------------------------------------


async def test_a_backup_of_the_live_database_is_a_complete_standalone_copy(tmp_path: Path) -> None:
    live = tmp_path / "ttr.sqlite3"
    copy = tmp_path / "backups" / "copy.sqlite3"
    copy.parent.mkdir()
    async with await open_store(live) as store:
        ids = [await new_lobby(store, host) for host in range(1, 6)]
        # Writes keep coming while the backup runs.
        writing = asyncio.gather(*(new_lobby(store, host) for host in range(6, 30)))
        await store.backup(copy)
        await writing
    assert not Path(str(copy) + "-wal").exists()
    assert not copy.with_name(copy.name + ".partial").exists()
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        copied = {row[0] for row in db.execute("SELECT id FROM games")}
        assert db.execute("SELECT max(version) FROM schema_version").fetchone() == (latest_version(),)
    assert set(ids) <= copied
    async with await open_store(copy) as restored:
        assert (await restored.games.get(ids[0])) is not None


def test_bot_backup_copies_the_database_named_by_the_environment(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"

    async def fill() -> None:
        async with await open_store(live) as store:
            await new_lobby(store)

    asyncio.run(fill())
    env = {**os.environ, "TTR_DATABASE": str(live)}
    done = subprocess.run([sys.executable, "bot.py", "--backup", str(tmp_path / "b.sqlite3")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "b.sqlite3" in done.stdout
    with sqlite3.connect(tmp_path / "b.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)

    missing = {**os.environ, "TTR_DATABASE": str(tmp_path / "nothing-here.sqlite3")}
    done = subprocess.run([sys.executable, "bot.py", "--backup", str(tmp_path / "c.sqlite3")], cwd=ROOT, env=missing,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "There is no database at" in done.stderr
    assert not (tmp_path / "nothing-here.sqlite3").exists()


async def test_a_backup_never_overwrites_the_live_database_or_its_files(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    live = tmp_path / "live" / "ttr.sqlite3"
    (tmp_path / "link.sqlite3").symlink_to(live)
    (tmp_path / "linked-folder").symlink_to(live.parent)
    monkeypatch.chdir(tmp_path)
    async with await open_store(live) as store:
        ids = [await new_lobby(store, host) for host in range(1, 4)]
        os.link(live, tmp_path / "hard.sqlite3")
        targets = [live, *(Path(f"{live}{s}") for s in ("-wal", "-shm", "-journal", "-lastcommit")),
                   Path("live/ttr.sqlite3"), Path("./live/../live/ttr.sqlite3"), Path("live/./ttr.sqlite3-wal"),
                   tmp_path / "link.sqlite3", tmp_path / "linked-folder" / "ttr.sqlite3", tmp_path / "hard.sqlite3"]
        for target in targets:
            with pytest.raises(BackupRefused, match="a backup must go to another file"):
                await store.backup(target)
            with pytest.raises(BackupRefused, match=r"is the live database"):
                await backup_database(Path("live/ttr.sqlite3"), target)
        with pytest.raises(BackupRefused) as caught:
            await store.backup(tmp_path / "not-mounted" / "copy.sqlite3")
        assert f"The folder {tmp_path / 'not-mounted'} of the backup" in str(caught.value)
        assert "does not exist" in str(caught.value) and "mkdir -p" in str(caught.value)
        assert not (tmp_path / "not-mounted").exists()
        with pytest.raises(BackupRefused, match="is a folder"):
            await store.backup(tmp_path)
        assert [await store.games.get(i) is not None for i in ids] == [True, True, True]
        assert not Path(f"{live}.partial").exists()
    with sqlite3.connect(live) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM games").fetchone() == (3,)


def test_bot_backup_refuses_the_live_database_in_words(tmp_path: Path) -> None:
    async def fill() -> None:
        async with await open_store(tmp_path / "live.sqlite3") as store:
            await new_lobby(store)

    asyncio.run(fill())
    before = hashlib.sha256((tmp_path / "live.sqlite3").read_bytes()).hexdigest()
    # Spelled differently from TTR_DATABASE, and from another working folder.
    env = {**os.environ, "TTR_DATABASE": "live.sqlite3"}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--backup", "./live.sqlite3"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert f"backup failed: live.sqlite3 is the live database ({tmp_path / 'live.sqlite3'})" in done.stderr
    assert hashlib.sha256((tmp_path / "live.sqlite3").read_bytes()).hexdigest() == before


async def test_reads_do_not_see_a_transaction_until_it_commits(database: Database) -> None:
    async with await open_store(database.target) as store:
        game_id = await new_lobby(store)
        # Another process holds the write lock with an uncommitted change.
        if database.is_postgres:
            other = await asyncpg.connect(str(database.target))
            change = other.transaction()
            await change.start()
            await other.execute("UPDATE games SET seats_wanted = 5 WHERE id = $1", game_id)
        else:
            other = await aiosqlite.connect(database.target, isolation_level=None)
            await other.execute("BEGIN IMMEDIATE")
            await other.execute("UPDATE games SET seats_wanted = 5 WHERE id = ?", (game_id,))
        game = await store.games.get(game_id)
        assert game is not None and game.seats_wanted == 4
        if database.is_postgres:
            await change.commit()
        else:
            await other.execute("COMMIT")
        await other.close()
        game = await store.games.get(game_id)
        assert game is not None and game.seats_wanted == 5


async def test_a_postgres_database_is_backed_up_with_pg_dump_and_its_password_never_shown(
        other_database: object, tmp_path: Path) -> None:
    database: Database = other_database("postgres")  # type: ignore[operator]
    async with await open_store(database.target) as store:
        assert isinstance(store, PgStore) and store.shared
        with pytest.raises(StoreError, match="pg_dump"):
            await store.backup(tmp_path / "copy.sqlite3")
    assert not (tmp_path / "copy.sqlite3").exists()
    env = {**os.environ, "TTR_DATABASE": str(database.target)}
    done = subprocess.run([sys.executable, "bot.py", "--backup", str(tmp_path / "b.sqlite3")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "pg_dump" in done.stderr
    # A server that is not there, with a password in the URL: refused in words, without it.
    with pytest.raises(StoreError) as caught:
        await open_store(f"postgresql://ttr:hunter2@/nothing?host={tmp_path}")
    assert "Could not connect" in str(caught.value) and "hunter2" not in str(caught.value)
    assert "ttr:***@" in str(caught.value)


def test_values_written_into_a_postgres_batch_read_back_exactly() -> None:
    from store.postgres import inline, literal

    assert literal(None) == "NULL" and literal(True) == "1" and literal(-3) == "(-3)"
    assert literal(1700000000.1234567) == "1700000000.1234567" and literal(-0.5) == "(-0.5)"
    assert literal("it's '; DROP TABLE games; --") == "'it''s ''; DROP TABLE games; --'"
    assert inline("UPDATE t SET a = ?, b = 'x?' WHERE c = ? AND d = coalesce(?, last_insert_rowid())",
                  ("?'", 5, None)) == "UPDATE t SET a = '?''', b = 'x?' WHERE c = 5 AND d = coalesce(NULL, lastval())"


async def test_text_of_every_kind_survives_a_postgres_batch(other_database: object) -> None:
    database: Database = other_database("postgres")  # type: ignore[operator]
    names = ["O'Brien", "back\\slash", "$1 $$ ?", "-- not a comment", "émoji 🚂", "tab\tnew\nline",
             "'; DROP TABLE games; --"]
    async with await open_store(database.target) as store:
        game_id = await new_lobby(store)
        for user, name in enumerate(names, start=2):
            tx = store.tx()
            tx.games.join_lobby(game_id, user_id=user, is_ai=False, ai_level=None, name=name, seats_wanted=99)
            tx.add("UPDATE games SET turn_hours = ? WHERE id = ?", (0.1 + user / 3, game_id))
            await store.write(tx)
        assert [p.name for p in await store.games.players(game_id)][1:] == names
        game = await store.games.get(game_id)
        assert game is not None and game.turn_hours == 0.1 + (len(names) + 1) / 3  # exactly, as a float
