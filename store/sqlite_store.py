"""The SQLite back end of the game store (`open_store` with a path): one file, one writer.

Writes go through the group-commit writer (store/writer.py) on one connection; reads use their
own connection, so they never wait behind a commit's fsync and never see a transaction that is
not committed yet. Opening a file runs the checks of store/startup.py first and the lost-wal
checks of store/commits.py; `backup` is SQLite's online backup. The statements and reads
themselves, in their parts, are shared with PostgreSQL (store/repository.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from store.commits import CommitMarker, check_commits, mark_closed, mark_open
from store.db import configure, connect, connect_plain
from store.errors import StoreError
from store.file_lock import DatabaseLock, lock_path
from store.migrations import migrate
from store.read_cache import ReadCache
from store.reader import Reader
from store.repository import Clock, Store, Target, Tx
from store.startup import (
    READ_FAILURES,
    Kind,
    check_backup_target,
    check_contents,
    create_database,
    inspect_path,
    not_writable,
    sqlite_failure,
)
from store.writer import GroupCommitWriter, TxResult, thread_runner

log = logging.getLogger(__name__)

# A statement naming this table changes some game's timers (`_count_timers`).
TIMERS = "timers"


class SqliteStore(Store):
    """The SQLite game store: one write connection behind a group-commit writer, one read
    connection. Open it with `open_store(path)`, close it with `close` (or `async with`)."""

    def __init__(self, path: Path, writer_db: aiosqlite.Connection, reader_db: aiosqlite.Connection,
                 clock: Clock, version: int, max_batch: int, marker: CommitMarker | None = None,
                 lock: DatabaseLock | None = None) -> None:
        self.path = path
        self._lock = lock  # this process's hold on the file (store/file_lock.py), released by close
        self.label = str(path)
        self.clock = clock
        self.schema_version = version
        self._writer_db = writer_db
        self._reader = reader_db
        self._marker = marker
        self._writer = GroupCommitWriter(writer_db, max_batch=max_batch, marker=marker)
        # Several reads in one call on the read connection's thread (see `_fetch_many`).
        self._read_in_thread, self._read_conn = thread_runner(reader_db)
        # Whether `open` made this database (there was no file, or an empty one and allow_init).
        self.created = False
        # One process holds the file, and every write goes through `write`: plans and settings
        # read once are kept until a write touches them (store/read_cache.py).
        self._read_cache = ReadCache()
        # Transactions written that touched timers, by game (`timers_stamp`), and those that
        # touched timers without naming the game (all games' stamps change).
        self._timers_by_game: dict[int, int] = {}
        self._timers_unnamed = 0
        self._make_parts(Reader(self._fetch, self._fetch_many, cache=self._read_cache))

    @classmethod
    async def open_file(cls, path: Path, *, clock: Clock = time.time, max_batch: int = 128,
                        allow_init: bool = False, create_folder: bool = True) -> SqliteStore:
        """Open and migrate the game database at `path`, making a new one if there is no file
        there yet (and its folder, when `create_folder`).

        Refuses, with a DatabaseUnusable subclass whose message says what is wrong, with which
        path and what to do, and without changing anything: a path that cannot hold the file,
        a folder or file the bot may not write, a file that is not a game database (another
        program's, not SQLite, damaged), a database from a newer bot (SchemaTooNew), and an
        empty file (0 bytes, or SQLite without tables) unless `allow_init` — an empty file is
        more likely a failed copy than a wish for a new database. A file another process has
        open as its store is refused too (DatabaseInUse): one process per SQLite database."""
        found = await asyncio.to_thread(inspect_path, path, create_folder=create_folder, allow_init=allow_init)
        lock = await asyncio.to_thread(_hold, path)
        try:
            created = found.kind is not Kind.SQLITE
            if created:
                await create_database(path, clock, replace_empty=found.kind is Kind.EMPTY)
            writer_db, empty = await _open_checked(path, allow_init=allow_init)
        except BaseException:
            lock.release()
            raise
        created = created or empty
        marker = None
        try:
            await configure(writer_db, path)
            version = await migrate(writer_db, str(path), clock)
            if not created:
                await check_commits(writer_db, path, found.last, found.wal_present)
            db_id, commits = await mark_open(writer_db, clock())
            marker = CommitMarker(path, db_id)
            marker.write(commits)
            reader_db = await connect(path, read_only=True)
            # Text arrives as bytes and the rows decode it (store/records.py): sqlite3's own
            # decoding error quotes the text, which may be a hand or the deck.
            reader_db.text_factory = bytes
        except READ_FAILURES as exc:
            await _abandon(writer_db, marker, lock)
            raise sqlite_failure(path, exc) from exc
        except BaseException:
            await _abandon(writer_db, marker, lock)
            raise
        store = cls(path, writer_db, reader_db, clock, version, max_batch, marker, lock)
        store.created = created
        store._writer.start()
        if created:
            log.info("created a new, empty game database at %s (schema version %d)", path, version)
        else:
            log.info("opened game store %s (schema version %d)", path, version)
        return store

    async def close(self) -> None:
        """Finish queued writes, record a clean close (the -wal folded into the file), and
        close both connections."""
        try:
            await self._writer.close()
        finally:
            await self._reader.close()
            try:
                await mark_closed(self._writer_db, self.clock())
            except sqlite3.Error as exc:
                # The file keeps saying "not closed cleanly", which is the safe answer.
                log.warning("could not record a clean close of %s: %s", self.path, exc)
            finally:
                if self._marker is not None:
                    self._marker.close()
                try:
                    await self._writer_db.close()
                finally:
                    if self._lock is not None:
                        self._lock.release()

    @property
    def writer_stats(self) -> tuple[int, int]:
        """(transactions, commits) so far: how well group commit is batching."""
        return self._writer.transactions, self._writer.commits

    async def settings(self) -> dict[str, Any]:
        """The write connection's durability settings, as SQLite reports them."""
        out: dict[str, Any] = {}
        for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
            rows = await self._writer_db.execute_fetchall(f"PRAGMA {name}")
            out[name] = list(rows)[0][0]
        return out

    # --- writing and reading ----------------------------------------------------------
    async def write(self, tx: Tx) -> TxResult:
        """Commit `tx` as one transaction; returns once it is on disk. Raises WriteConflict
        (nothing written) when a guard failed."""
        if not tx.statements:
            return TxResult()
        self._count_timers(tx)
        try:
            return await self._writer.run(tx.statements)
        finally:
            # Also when it failed: it may have been written (a cancel, an I/O error).
            self._read_cache.wrote(tx.statements, tx.keys)
            self._count_timers(tx)

    def timers_stamp(self, game_id: int) -> tuple[int, int] | None:
        return self._timers_unnamed, self._timers_by_game.get(game_id, 0)

    def _count_timers(self, tx: Tx) -> None:
        """Count `tx` for `timers_stamp`, when it is queued and again when it is done: a
        transaction written between a caller's two looks, or still under way at the second,
        changes the stamp after it."""
        games: set[int] = set()
        for i, statement in enumerate(tx.statements):
            if TIMERS in statement.sql:
                game = tx.keys.get(i)
                if game is None:
                    self._timers_unnamed += 1
                else:
                    games.add(game)
        for game in games:
            self._timers_by_game[game] = self._timers_by_game.get(game, 0) + 1

    async def room(self) -> None:
        await self._writer.room()

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def _fetch_many(self, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Several reads in one read transaction, run as one call on the read connection's
        thread (one thread hop instead of one per read, as the writer does: store/writer.py).
        Without aiosqlite's internal call, one public call per read (each sees the latest
        commit; the service's per-game lock keeps this process's own writes out of a load)."""
        if self._read_in_thread is None:
            return [list(await self._reader.execute_fetchall(sql, tuple(params))) for sql, params in reads]
        return list(await self._read_in_thread(_read_all, self._read_conn, [(sql, tuple(p)) for sql, p in reads]))

    # --- backup -----------------------------------------------------------------------
    async def backup(self, dest: Target) -> Path:
        """Copy the live database to `dest` with SQLite's online backup (see `backup_to`)."""
        return await backup_to(self._reader, dest, self.path)


def _read_all(conn: sqlite3.Connection, reads: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
    """Run reads in one transaction on `conn`, in the connection's own thread: in WAL mode they
    all see the database as it was when the first one began."""
    conn.execute("BEGIN")
    try:
        return [conn.execute(sql, params).fetchall() for sql, params in reads]
    finally:
        conn.execute("COMMIT")


async def backup_to(source: aiosqlite.Connection, dest: str | os.PathLike[str],
                    source_path: str | os.PathLike[str]) -> Path:
    """Copy a live database with SQLite's online backup API: a consistent copy even while the
    bot writes. It goes to a temporary file next to `dest`, is checked, and is then renamed
    into place, so `dest` is never a half-written copy. Raises BackupRefused for a `dest`
    that is the database at `source_path` or one of its files, or whose folder is missing."""
    dest = Path(dest)
    check_backup_target(Path(source_path), dest)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    # The backup runs on the source's worker thread, so the target must allow that.
    target = sqlite3.connect(partial, check_same_thread=False)
    try:
        await source.backup(target)
        # Off the event loop: checking a large copy takes a while.
        check = await asyncio.to_thread(_finish_copy, target)
        if check != "ok":
            raise StoreError(f"The backup copy failed its integrity check: {check}")
    except BaseException:
        target.close()
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise
    target.close()
    os.replace(partial, dest)
    return dest


def _finish_copy(target: Any) -> str:
    # A copy is complete and closed, and it is a database of its own: restored, its commits
    # are not compared with the live database's -lastcommit file (store/commits.py).
    with contextlib.suppress(sqlite3.OperationalError):  # a database from before migration 3
        target.execute("UPDATE store_state SET running = 0, db_id = lower(hex(randomblob(16)))")
        target.commit()
    target.execute("PRAGMA journal_mode = DELETE")  # a standalone file, with no -wal beside it
    row = target.execute("PRAGMA quick_check").fetchone()
    return str(row[0]) if row else "no answer"


async def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Path:
    """Back up the database file `source` (which the bot may be using right now) to `dest`."""
    source = Path(source)
    if not source.exists():
        raise StoreError(f"There is no database at {source} to back up.")
    check_backup_target(source, Path(dest))  # before anything opens the live database
    try:
        db = await connect(source, read_only=True)
    except READ_FAILURES as exc:
        raise sqlite_failure(source, exc) from exc
    try:
        return await backup_to(db, dest, source)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise StoreError(f"The backup of {source} to {dest} failed ({exc}); nothing was written to {dest}.") from exc
    finally:
        await db.close()


async def _abandon(db: aiosqlite.Connection, marker: CommitMarker | None, lock: DatabaseLock) -> None:
    """Close what a failed `open_store` had opened."""
    if marker is not None:
        marker.close()
    try:
        await db.close()
    finally:
        lock.release()


def _hold(path: Path) -> DatabaseLock:
    """This process's lock on the database at `path` (its folder was checked: it exists and is
    writable), or DatabaseInUse."""
    try:
        return DatabaseLock.hold(path)
    except OSError as exc:
        raise not_writable(path, lock_path(path), exc) from None


async def _open_checked(path: Path, *, allow_init: bool) -> tuple[aiosqlite.Connection, bool]:
    """A connection to `path` once `check_contents` has found it fit to use (nothing changed),
    and whether the file holds no table yet."""
    try:
        db = await connect_plain(path)
    except READ_FAILURES as exc:
        raise sqlite_failure(path, exc) from exc
    try:
        empty = await check_contents(db, path, allow_init=allow_init)
    except READ_FAILURES as exc:
        await db.close()
        raise sqlite_failure(path, exc) from exc
    except BaseException:
        await db.close()
        raise
    return db, empty
