"""Noticing lost writes: a database whose -wal file went missing.

SQLite in WAL mode keeps the latest commits in `<database>-wal` until a checkpoint folds them
into the file itself. A copy of the file taken without its -wal (or a -wal deleted as "junk"
after a crash) opens without complaint, just without those commits. Two records tell:

- the `store_state` table (migration 3): `commits`, bumped by every writer transaction, and
  `running`, 1 while a bot has the database open and 0 after a clean close (which folds the
  -wal in);
- the `<database>-lastcommit` file beside it, rewritten after every commit with the
  database's id and `commits`.

At start-up (`check_commits`): if the -lastcommit file is for this database and says more
commits than the database holds, writes acknowledged to players are missing, and the store
refuses to open (CommitsMissing). If the database says it was not closed cleanly, no -wal is
beside it, and no -lastcommit file vouches for it, it may be a copy taken without its -wal:
that is only a warning, since SQLite tools fold the -wal in and delete it when they close.
docs/operations.md says exactly what is and is not detected.

The -lastcommit file is written after the COMMIT and never fsynced, so it can only lag the
database (after a crash or power cut), never lead it: a lag is not reported.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from store.errors import CommitsMissing, UnreadableValue

log = logging.getLogger(__name__)

SUFFIX = "-lastcommit"
_RECORD = re.compile(rb"ttr-lastcommit 1 ([0-9a-f]{32}) ([0-9]{20})\n")


@dataclass(frozen=True, slots=True)
class LastCommit:
    """What a -lastcommit file says."""

    db_id: str
    commits: int


def marker_path(path: Path) -> Path:
    """The -lastcommit file of the database at `path`."""
    return path.with_name(path.name + SUFFIX)


def read_last_commit(path: Path) -> LastCommit | None:
    """The database's -lastcommit file, or None if it is missing or unreadable (a torn write
    after a power cut, say: then it vouches for nothing)."""
    try:
        data = marker_path(path).read_bytes()
    except OSError:
        return None
    match = _RECORD.fullmatch(data)
    if match is None:
        return None
    return LastCommit(match.group(1).decode("ascii"), int(match.group(2)))


def _record(db_id: str, commits: int) -> bytes:
    return f"ttr-lastcommit 1 {db_id} {commits:020d}\n".encode("ascii")


class CommitMarker:
    """Writes the -lastcommit file. `write` runs after every commit, on the writer's thread:
    one small write in place, no fsync."""

    def __init__(self, path: Path, db_id: str) -> None:
        self.path = marker_path(path)
        self.db_id = db_id
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        self._failed = False

    def write(self, commits: int) -> None:
        """Record that the database now holds `commits` commits. Never raises: a marker that
        cannot be written only means a lost -wal may go unnoticed (said once in the log)."""
        if self._fd is None:
            return
        data = _record(self.db_id, commits)
        try:
            if hasattr(os, "pwrite"):
                os.pwrite(self._fd, data, 0)
            else:  # Windows
                os.lseek(self._fd, 0, os.SEEK_SET)
                os.write(self._fd, data)
            if not self._failed and os.fstat(self._fd).st_size != len(data):
                os.ftruncate(self._fd, len(data))
        except OSError as exc:
            if not self._failed:
                log.warning("cannot write %s (%s): a lost -wal file would go unnoticed", self.path, exc.strerror)
            self._failed = True

    def close(self) -> None:
        """Stop writing the file (it stays, for the next start to read)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


async def store_state(db: aiosqlite.Connection) -> tuple[str, int, bool] | None:
    """(db_id, commits, running) from the database, or None without the row."""
    rows = list(await db.execute_fetchall("SELECT db_id, commits, running FROM store_state WHERE id = 1"))
    if not rows:
        return None
    db_id, commits, running = rows[0]
    # Read strictly: a damaged file can hold any type in any column (SQLite checks NOT NULL and
    # the declared types only on writes); the opening reports this as damage.
    if not isinstance(db_id, str) or not isinstance(commits, int) or running not in (0, 1):
        raise UnreadableValue("store_state holds values the bot never writes")
    return db_id, commits, bool(running)


async def check_commits(db: aiosqlite.Connection, path: Path, last: LastCommit | None, wal_present: bool) -> None:
    """Compare the database (opened, its -wal if any recovered) with what its -lastcommit
    file said before it was opened (`last`); `wal_present`: whether a -wal file was beside it
    then. Raises CommitsMissing, or logs a warning, as the module docstring explains."""
    state = await store_state(db)
    if state is None:
        return
    db_id, commits, running = state
    vouched = last is not None and last.db_id == db_id
    if vouched and last is not None and last.commits > commits:
        missing = last.commits - commits
        beside = (" (there is a -wal file beside it, but not the one that held them)" if wal_present else "")
        raise CommitsMissing(
            path,
            f"The database {path} holds {commits} commits, but the bot had made {last.commits} in it "
            f"(so says {marker_path(path)}): the last {missing} (moves, lobbies, timers) are missing{beside}. "
            f"Most likely its -wal file was deleted, or the file was replaced by a copy taken without it. "
            f"With the bot stopped, put that {path.name}-wal file back beside it, or restore a backup made "
            "with python bot.py --backup (see docs/operations.md). If you put an older copy here on purpose "
            f"and accept losing those writes, delete {marker_path(path)} and start again. Nothing was changed.",
        )
    if running and not wal_present and not vouched:
        log.warning(
            "The database %s was not closed cleanly and has no -wal file beside it. If it was copied or moved "
            "from a running or crashed bot without its -wal file, the moves made since SQLite last folded the "
            "-wal into the file are missing from it: stop the bot and bring the -wal file too, or restore a "
            "backup made with python bot.py --backup (see docs/operations.md). If another SQLite program opened "
            "it after a crash, that program folded the -wal in, and nothing is missing.",
            path,
        )
    elif running:
        log.info("the database %s was not closed cleanly last time; SQLite recovered it from its -wal", path)


async def mark_open(db: aiosqlite.Connection, now: float) -> tuple[str, int]:
    """Record that a bot has the database open, and fold the -wal into the file so that the
    file itself says so (a copy of the file alone then tells it was taken from a running
    bot). Returns (db_id, commits)."""
    await db.execute("INSERT OR IGNORE INTO store_state (id, db_id) VALUES (1, lower(hex(randomblob(16))))")
    await db.execute("UPDATE store_state SET running = 1, changed_at = ? WHERE id = 1", (now,))
    await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    state = await store_state(db)
    assert state is not None
    return state[0], state[1]


async def mark_closed(db: aiosqlite.Connection, now: float) -> None:
    """Record a clean close and fold the -wal into the file. If another connection still
    reads, the checkpoint stops short and the file keeps saying `running` (the safe answer)."""
    await db.execute("UPDATE store_state SET running = 0, changed_at = ? WHERE id = 1", (now,))
    await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
