"""Errors raised by the store. Each carries plain sentences meant for an operator: what is
wrong, with which file, and what to do about it."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """Something went wrong in the database layer."""


class DatabaseUnusable(StoreError):
    """The database cannot be used as it is, found while opening it; nothing was changed.
    bot.py prints the message (no traceback) and stops."""

    def __init__(self, path: str | Path, message: str) -> None:
        super().__init__(message)
        self.path = Path(path)


class DatabasePathError(DatabaseUnusable):
    """The database path cannot hold a file: a folder on the way is a file, the folder is
    missing, or the path is itself a folder."""


class DatabaseNotWritable(DatabaseUnusable):
    """The bot may not read or write the database or its folder (permissions, a read-only
    filesystem), or SQLite could not open it for another reason of the system's."""


class DatabaseUnreachable(DatabaseNotWritable):
    """The database server could not be reached (down, restarting, a network out): it may be
    back in a moment, unlike the other refusals."""


class DatabaseNeedsInit(DatabaseUnusable):
    """The file is empty (0 bytes, or SQLite without any table): it holds no games. Only
    `python bot.py --init` (open_store(allow_init=True)) makes a new game database of it."""


class NotAGameDatabase(DatabaseUnusable):
    """The file holds something else: not SQLite at all, or another program's tables."""

    @classmethod
    def foreign(cls, path: str | Path, tables: list[str]) -> NotAGameDatabase:
        """An SQLite database with tables but no schema_version: some other program's."""
        shown = ", ".join(sorted(tables)[:5]) + (", …" if len(tables) > 5 else "")
        return cls(
            path,
            f"{path} already holds tables ({shown}) but no schema_version: it is not a game database, so "
            "it was left alone. Point TTR_DATABASE at the game database, or at a new file for a new one "
            "(python bot.py --init never writes into a file that holds data).",
        )


class DatabaseInUse(DatabaseUnusable):
    """Another process holds the SQLite database (its lock file, store/file_lock.py): one
    process per SQLite file; several need PostgreSQL."""


class DatabaseDamaged(DatabaseUnusable):
    """SQLite finds the file damaged, or a -wal file beside it does not belong to it."""


class CommitsMissing(DatabaseUnusable):
    """The database holds fewer commits than the bot recorded making in it: its -wal file was
    lost, or it was replaced by a copy taken without one."""


class UnreadableValue(ValueError):
    """A row of the store's own bookkeeping holds a value of a type the bot never writes: the
    file is damaged (SQLite checks declared types and NOT NULL on writes only). The message
    names the table, never the value."""


class SchemaTooNew(DatabaseUnusable):
    """The database was written by a newer version of the bot; this version will not touch it."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            path,
            f"The database {path} has schema version {found}, but this version of the bot only knows "
            f"versions up to {known}. Run a newer version of the bot (or restore a backup made by this "
            "version); the database has not been changed.",
        )
        self.found = found
        self.known = known


class BackupRefused(StoreError):
    """A backup target that would overwrite the live database, or that cannot be written;
    nothing was written."""


class MigrationError(StoreError):
    """A migration could not be applied; the database stays at the last version that applied."""


class WriteConflict(StoreError):
    """A guarded write found the database in a different state than expected (for example the
    game's seq moved on), so the whole transaction was rolled back and nothing was written."""
