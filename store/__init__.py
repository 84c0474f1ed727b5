"""The durable game store: SQLite through aiosqlite (the default), or PostgreSQL through
asyncpg (`TTR_DATABASE=postgresql://…`), and nothing about the rules.

- `repository`: `Store` (typed reads, `write(tx)`, `open_store` in `opening` picks the back end) and `Tx`
  (typed writes), written once for both back ends, each made of parts by job: `games`,
  `game_log` (the log, snapshots, results), `timers`, `deliveries` (the outbox),
  `user_settings`, `seat_changes`, `standings`, `plans`, `rematches`, all reading through a
  `reader.Reader`;
- `migrations`: ONE numbered list of SQL files in store/migrations/ for both, recorded in
  `schema_version` (PostgreSQL's spelling where the two differ);
- `sqlite_store`: the SQLite back end — `db` (connections with WAL, synchronous=FULL),
  `startup` (the checks before a file is used), `writer` (the one writer, group commit),
  `commits` (the lost -wal checks), online backup;
- `postgres`: the PostgreSQL back end — a connection pool, leases for several processes
  (`pg_parts`: its parts that read differently, `pg_reads`: reads grouped across moves).

The application service (app/service.py) is the only code that should change a game.
"""

from store.db import default_path, default_target
from store.errors import (
    BackupRefused,
    CommitsMissing,
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseNeedsInit,
    DatabaseNotWritable,
    DatabasePathError,
    DatabaseUnreachable,
    DatabaseUnusable,
    MigrationError,
    NotAGameDatabase,
    SchemaTooNew,
    StoreError,
    WriteConflict,
)
from store.migrations import latest_version
from store.records import ActionRow, GameRow, PlayerRow, ResultRow, SnapshotRow, TimerRow
from store.repository import Store, Tx, is_database_url
from store.sqlite_store import SqliteStore, backup_database

__all__ = [
    "ActionRow",
    "BackupRefused",
    "CommitsMissing",
    "DatabaseDamaged",
    "DatabaseInUse",
    "DatabaseNeedsInit",
    "DatabaseNotWritable",
    "DatabaseUnreachable",
    "DatabasePathError",
    "DatabaseUnusable",
    "GameRow",
    "MigrationError",
    "NotAGameDatabase",
    "PlayerRow",
    "ResultRow",
    "SchemaTooNew",
    "SnapshotRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "TimerRow",
    "Tx",
    "WriteConflict",
    "backup_database",
    "default_path",
    "default_target",
    "is_database_url",
    "latest_version",
]
