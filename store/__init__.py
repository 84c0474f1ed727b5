"""The durable game store: SQLite through aiosqlite (the default), or PostgreSQL through
asyncpg (`TTR_DATABASE=postgresql://…`), and nothing about the rules.

- `repository`: `Store` (typed reads, `write(tx)`, `Store.open` picks the back end) and `Tx`
  (typed writes), written once for both back ends;
- `deliveries`: the outbox's statements and reads (mixed into `Tx` and `Store`);
- `migrations`: ONE numbered list of SQL files in store/migrations/ for both, recorded in
  `schema_version` (PostgreSQL's spelling where the two differ);
- `sqlite_store`: the SQLite back end — `db` (connections with WAL, synchronous=FULL),
  `startup` (the checks before a file is used), `writer` (the one writer, group commit),
  `commits` (the lost -wal checks), online backup;
- `postgres`: the PostgreSQL back end — a connection pool, leases for several processes.

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
