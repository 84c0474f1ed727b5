"""The PostgreSQL back end of the game store (`open_store("postgresql://…")`), through asyncpg.

The statements and reads are the shared ones of store/repository.py; this module runs them:

- `?` placeholders become `$1, $2, …`, and `last_insert_rowid()` becomes `lastval()` (the
  only spellings the shared SQL needs translated); an INSERT whose id is wanted gets
  `RETURNING id`;
- writes go through `PgWriter` (store/postgres_writer.py), which takes every transaction
  waiting (up to `max_batch`) and sends them as ONE call of the function `ttr_typed_batch`
  (migration 36; `ttr_batch`, migration 32, before it): one network round trip and one commit
  — one WAL flush — for the whole batch, a move's usual statements the function's own static
  SQL with typed parameters (store/pg_typed.py), any other statement prepared once per
  connection (the server keeps its plan), one subtransaction for the batch; a transaction
  that fails is answered alone and the others sent again. (A round trip per statement, as a
  driver does by default, cost ~10 per move and made PostgreSQL ten times slower than SQLite
  here: docs/performance.md.) The values of statements sent as text are written in as
  literals (`literal`), which is why every connection insists on standard_conforming_strings;
- the guards are the same as SQLite's: `advance_game` updates `WHERE seq = expected` (under
  READ COMMITTED a second writer waits for the first, re-reads the row, finds the seq moved on
  and writes nothing: WriteConflict), `(game_id, seq)` is the log's primary key, a trigger
  refuses UPDATE, DELETE and TRUNCATE on `actions`, owed deliveries are `ON CONFLICT DO
  NOTHING`, a timer fires once through its guarded UPDATE;
- several processes may share the database: deliveries and timers are claimed with a lease
  (`store.deliveries.claim`, `store.timers.claim`: migration 5, store/pg_parts.py), and
  `shared` tells the service to check a cached game against the stored one before each use
  (app/loader.py);
- errors never carry PostgreSQL's DETAIL, which quotes the row (a hand, the deck).

SQLite's file checks, WAL pragmas and lost-wal detection have no meaning here; backups are
`pg_dump` (docs/scaling.md).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from store.errors import (
    DatabaseNotWritable,
    DatabaseUnreachable,
    MigrationError,
    NotAGameDatabase,
    StoreError,
    WriteConflict,
)
from store.migrations import POSTGRES, load_migrations, to_apply
from store.pg_parts import PG_ANY, PgDeliveryReads, PgGameReads, PgPlanReads, PgSettingsReads, PgTimerReads, pg_list
from store.pg_reads import GroupedReads
from store.postgres_writer import PgWriter, to_postgres
from store.postgres_writer import inline as inline  # re-exported: the shared SQL with its values in
from store.postgres_writer import literal as literal
from store.postgres_writer import words as _words
from store.presence import Holder, Presence, new_owner
from store.rate_limit import RateBudget
from store.reader import Reader
from store.repository import Clock, Store, Target, Tx
from store.writer import TxResult

log = logging.getLogger(__name__)

# Advisory lock key (any number but CLAIM_LOCK's): one migration run at a time across processes.
MIGRATION_LOCK = 0x77_72_01
# What a process that stops cleanly lets go of ($1: its name in claims).
RELEASE = (
    "UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 AND status = 'pending'",
    "UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1"
    " AND fired_at IS NULL AND cancelled_at IS NULL",
)

# Batches written at once per process, and read connections.
WRITE_CONNECTIONS = 2
READ_CONNECTIONS = 6
def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def _store_error(exc: BaseException) -> StoreError:
    """A failed statement as the store's error, with no chained cause that a traceback would
    print with its DETAIL."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, asyncpg.UniqueViolationError):
        return WriteConflict("That was already written; nothing was written twice.")
    return StoreError(f"The database refused a write: {_words(exc)}")


def _rowcount(status: str) -> int:
    """Rows affected, from a command status such as "UPDATE 3" or "INSERT 0 1"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgStore(Store):
    """The PostgreSQL game store: a write pool behind `PgWriter`, a read pool."""

    shared = True

    def __init__(self, url: str, read_pool: asyncpg.Pool, write_pool: asyncpg.Pool, clock: Clock, version: int,
                 *, max_batch: int, connections: int) -> None:
        self.url = url
        self.label = redact(url)
        self.clock = clock
        self.schema_version = version
        self._read_pool = read_pool
        self._write_pool = write_pool
        self._writer = PgWriter(write_pool, connections=connections, max_batch=max_batch)
        number, self.owner = new_owner()
        # This process's lock, held while it lives: its claims count only while it is held.
        self.presence = Presence(url, number, self.owner)
        # Discord's global rate limit, shared with the other processes (store/rate_limit.py).
        self.rate_budget = RateBudget(read_pool)
        # The reads every move makes, grouped across games (store/pg_reads.py).
        self.grouped = GroupedReads(self._fetch, PG_ANY, pg_list)
        self._make_parts(Reader(self._fetch, self._fetch_many, PG_ANY, pg_list))
        # The parts that read differently here: grouped reads, and claims with a lease.
        self.games = PgGameReads(self.reader, self.grouped)
        self.plans = PgPlanReads(self.reader, self.grouped)
        self.user_settings = PgSettingsReads(self.reader, self.grouped)
        self.deliveries = PgDeliveryReads(self.reader, write_pool)
        self.timers = PgTimerReads(self.reader, self.tx, self.write, write_pool, self.grouped)

    @classmethod
    async def open_url(cls, url: str, *, clock: Clock = time.time, max_batch: int | None = None,
                       connections: int = WRITE_CONNECTIONS) -> PgStore:
        """Connect to the database at `url` and migrate it. An empty database (no table) gets
        every migration: that is how a PostgreSQL database starts (`createdb`, then the bot).
        Refuses, in words and having changed nothing, a server that cannot be reached, a
        database that holds another application's tables, or one from a newer bot."""
        label = redact(url)
        max_batch = max_batch or 128
        read_pool = await _pool(url, label, READ_CONNECTIONS)
        try:
            write_pool = await _pool(url, label, connections)
        except BaseException:
            await read_pool.close()
            raise
        try:
            async with write_pool.acquire() as conn:
                version, created = await migrate_postgres(conn, label, clock)
        except BaseException:
            await write_pool.close()
            await read_pool.close()
            raise
        with contextlib.suppress(asyncpg.PostgresError, OSError):  # a check: it never stops the start
            await check_connections(write_pool, label, connections)
        store = cls(url, read_pool, write_pool, clock, version, max_batch=max_batch, connections=connections)
        store.created = created
        try:
            await store.presence.start()
        except BaseException:
            await write_pool.close()
            await read_pool.close()
            raise
        store._writer.start()
        if created:
            log.info("created the game tables in %s (schema version %d)", label, version)
        else:
            log.info("opened game store %s (schema version %d)", label, version)
        return store

    async def close(self) -> None:
        """Finish queued writes, let go of this process's claims (telling the other processes),
        and close the connections."""
        try:
            await self._writer.close()
        finally:
            try:
                await self.grouped.close()
                await self.presence.close(RELEASE)
            finally:
                await self._write_pool.close()
                await self._read_pool.close()

    def on_wake(self, hook: Callable[[], None]) -> None:
        self.presence.on_wake(hook)

    async def take_shard(self, shard: int) -> bool:
        return await self.presence.take_shard(shard)

    async def rate_slot(self) -> float:
        return await self.rate_budget.take()

    async def holders(self) -> list[Holder]:
        return await self.presence.holders()

    @property
    def writer_stats(self) -> tuple[int, int]:
        return self._writer.transactions, self._writer.commits

    async def settings(self) -> dict[str, Any]:
        """The server's durability settings."""
        out: dict[str, Any] = {}
        for name in ("fsync", "synchronous_commit", "default_transaction_isolation", "server_version"):
            out[name] = await self._read_pool.fetchval(f"SHOW {name}")
        return out

    async def write(self, tx: Tx) -> TxResult:
        if not tx.statements:
            return TxResult()
        return await self._writer.run(tx.statements)

    async def room(self) -> None:
        await self._writer.bound.room()

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._read_pool.acquire() as conn:
            rows = await conn.fetch(to_postgres(sql), *params)
        return [tuple(r) for r in rows]

    async def _fetch_many(self, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Several reads on one connection in one read-only REPEATABLE READ transaction: all
        see the database at the same moment, even while other processes commit."""
        async with self._read_pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return [[tuple(r) for r in await conn.fetch(to_postgres(sql), *params)] for sql, params in reads]

    async def backup(self, dest: Target) -> Path:
        raise StoreError(
            f"The database is PostgreSQL ({self.label}): back it up with pg_dump, for example "
            "pg_dump -Fc -f backups/ttr-$(date +%F).dump \"$TTR_DATABASE\" (docs/scaling.md). Nothing was written."
        )

    async def reset_ids(self) -> None:
        """After rows were written with their ids given (a copy): new rows get ids above them."""
        async with self._write_pool.acquire() as conn:
            for table in ("games", "timers", "deliveries"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false)"
                    f" FROM {table}")


async def check_connections(pool: asyncpg.Pool, label: str, writes: int) -> int:
    """Whether the server has room for every connection this process may open (its pools at
    their full size, and its presence), said in the log at start rather than found under load.
    Returns how many connections are left over once it has them (below 0: too few)."""
    needed = writes + READ_CONNECTIONS + 1
    async with pool.acquire() as conn:
        limit = int(await conn.fetchval("SHOW max_connections"))
        reserved = int(await conn.fetchval("SHOW superuser_reserved_connections"))
        in_use = int(await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"))
    # This process's own open connections are among those in use.
    own = int(pool.get_size())
    spare = limit - reserved - in_use + own - needed
    if spare < 0:
        log.warning("PostgreSQL %s allows %d connections (%d kept for superusers) and %d are in use; this process "
                    "needs %d (%d for writes, %d for reads, 1 for its presence), so some of its work will fail "
                    "under load: raise max_connections or run fewer processes", label, limit, reserved, in_use,
                    needed, writes, READ_CONNECTIONS)
    else:
        log.info("PostgreSQL %s: room for this process's %d connections, %d more to spare", label, needed, spare)
    return spare


async def _keep(conn: asyncpg.Connection) -> None:
    """A connection goes back to the pool as it is. (asyncpg's default resets its session with
    one more round trip per use; the store keeps no session state: no LISTEN, no temporary
    tables, its advisory locks released before the connection is.)"""


async def _pool(url: str, label: str, size: int) -> asyncpg.Pool:
    try:
        # Values are written into the SQL of a batch as literals (`literal`), which reads them
        # right only with standard-conforming strings (the default since PostgreSQL 9.1).
        pool = await asyncpg.create_pool(url, min_size=1, max_size=size, reset=_keep, server_settings={
            "application_name": "ttr", "standard_conforming_strings": "on"})
    except asyncpg.InvalidCatalogNameError:
        name = urlsplit(url).path.lstrip("/") or "?"
        raise DatabaseNotWritable(
            label, f"The PostgreSQL database {label} does not exist. Create it (createdb {name}, as a user who may) "
                   "and start again, or correct TTR_DATABASE. Nothing was changed.") from None
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise DatabaseNotWritable(
            label, f"PostgreSQL refused the login for {label} ({_words(exc)}). Check the user and password in "
                   "TTR_DATABASE (or ~/.pgpass) and the server's pg_hba.conf. Nothing was changed.") from None
    except (OSError, asyncpg.CannotConnectNowError, asyncpg.InterfaceError, TimeoutError) as exc:
        raise DatabaseUnreachable(
            label, f"Could not connect to the PostgreSQL database {label} ({_words(exc)}). Is the server running, "
                   "and is TTR_DATABASE right? Nothing was changed.") from None
    except asyncpg.PostgresError as exc:
        raise DatabaseNotWritable(
            label, f"Could not connect to the PostgreSQL database {label} ({_words(exc)}). Is the server running, "
                   "and is TTR_DATABASE right? Nothing was changed.") from None
    assert pool is not None
    return pool


async def migrate_postgres(conn: asyncpg.Connection, label: str, clock: Clock,
                           target: int | None = None) -> tuple[int, bool]:
    """Apply every migration up to `target` (default: the latest version) that the database
    does not record yet (store/migrations.py), each in its own transaction with its row in
    `schema_version`, one process at a time. Returns the highest version and whether the
    database had no game tables before. Refuses a database newer than this code, or one
    holding another application's tables, changing nothing."""
    migrations = load_migrations()
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        tables = [r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE'")]
        if "schema_version" not in tables:
            if tables:
                raise NotAGameDatabase.foreign(label, tables)
            applied: set[int] = set()
            pending = to_apply(migrations, applied, label, target)
            await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                               " applied_at DOUBLE PRECISION NOT NULL)")
        else:
            applied = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_version")}
            pending = to_apply(migrations, applied, label, target)
        for migration in pending:
            try:
                async with conn.transaction():
                    await conn.execute(migration.sql_for(POSTGRES))
                    await conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                                       migration.version, migration.name, clock())
            except asyncpg.PostgresError as exc:
                raise MigrationError(
                    f"Migration {migration.version} ({migration.name}) failed on {label}: {_words(exc)}. "
                    "The database stays as it was before it."
                ) from None
        return max(applied | {m.version for m in pending}, default=0), not applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

