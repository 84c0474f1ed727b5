"""The durable game store: SQLite through aiosqlite, and nothing about the rules.

- `db`: connections with WAL, synchronous=FULL, a busy timeout;
- `startup`: the checks made before a database file is used, each refusal in words;
- `migrations`: numbered SQL files in store/migrations/, recorded in `schema_version`;
- `writer`: the one writer, committing waiting transactions together (group commit);
- `commits`: the commit counter and the -lastcommit file that reveal a lost -wal;
- `repository`: `Store` (typed reads, `write(tx)`) and `Tx` (typed writes), online backup.

The application service (app/service.py) is the only code that should change a game.
"""

from store.db import default_path
from store.errors import (
    BackupRefused,
    CommitsMissing,
    DatabaseDamaged,
    DatabaseNeedsInit,
    DatabaseNotWritable,
    DatabasePathError,
    DatabaseUnusable,
    MigrationError,
    NotAGameDatabase,
    SchemaTooNew,
    StoreError,
    WriteConflict,
)
from store.migrations import latest_version
from store.records import ActionRow, GameRow, PlayerRow, ResultRow, SnapshotRow, TimerRow
from store.repository import Store, Tx, backup_database

__all__ = [
    "ActionRow",
    "BackupRefused",
    "CommitsMissing",
    "DatabaseDamaged",
    "DatabaseNeedsInit",
    "DatabaseNotWritable",
    "DatabasePathError",
    "DatabaseUnusable",
    "GameRow",
    "MigrationError",
    "NotAGameDatabase",
    "PlayerRow",
    "ResultRow",
    "SchemaTooNew",
    "SnapshotRow",
    "Store",
    "StoreError",
    "TimerRow",
    "Tx",
    "WriteConflict",
    "backup_database",
    "default_path",
    "latest_version",
]
