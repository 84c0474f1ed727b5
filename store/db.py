"""Opening SQLite connections with the settings the game store relies on."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import aiosqlite

# aiosqlite logs every statement with its parameters at DEBUG level: those parameters hold
# whole game states (hands, tickets, deck order, seed). Keep that logger above DEBUG so that
# turning on debug logging for the bot can never write secrets into a log file.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

# Anchored to the project, not the working directory: starting the bot from elsewhere must
# not quietly open a new, empty database.
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / "ttr.sqlite3"
# How long a statement waits for another connection's lock before failing with "database is
# locked". The bot has one writer, so waits are short; a backup or a second process can cause one.
BUSY_TIMEOUT_MS = 5000


def default_path() -> Path:
    """The database file: $TTR_DATABASE if set, else data/ttr.sqlite3 in the project (git
    ignores data/)."""
    return Path(os.environ.get("TTR_DATABASE") or DEFAULT_PATH)


def default_target() -> Path | str:
    """The database: $TTR_DATABASE as it is when it is a postgresql:// URL (a Path would fold
    its `//`), else `default_path()`."""
    value = os.environ.get("TTR_DATABASE") or ""
    if value.startswith(("postgresql://", "postgres://")):
        return value
    return default_path()


async def connect(path: str | os.PathLike[str], *, read_only: bool = False,
                  busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (we write BEGIN/COMMIT ourselves, so a
    transaction is exactly what the code says) with the settings of `configure`."""
    db = await connect_plain(path, busy_timeout_ms=busy_timeout_ms)
    try:
        await configure(db, path, read_only=read_only)
    except BaseException:
        await db.close()
        raise
    return db


async def connect_plain(path: str | os.PathLike[str], *,
                        busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> aiosqlite.Connection:
    """An autocommit connection with a busy timeout and nothing else set: it changes nothing
    in the file, so it can look at a database before deciding to use it."""
    db = await aiosqlite.connect(os.fspath(path), isolation_level=None)
    try:
        await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    except BaseException:
        await db.close()
        raise
    return db


async def configure(db: aiosqlite.Connection, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
    """Set up a connection for the game store:

    - WAL: readers never block the writer and a crash leaves the last commit intact;
    - synchronous=FULL: the WAL is fsynced at every commit, so an acknowledged move survives a
      power cut (NORMAL could lose the last commits);
    - foreign keys on; a read-only connection refuses writes (query_only).
    """
    if not read_only:
        mode = await (await db.execute("PRAGMA journal_mode = WAL")).fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise OSError(f"SQLite refused WAL mode for {path} (got {mode and mode[0]!r})")
    await db.execute("PRAGMA synchronous = FULL")
    await db.execute("PRAGMA foreign_keys = ON")
    if read_only:
        await db.execute("PRAGMA query_only = ON")
