"""The one writer: a queue of transactions, committed in groups.

Every change to the database goes through `GroupCommitWriter.run(tx)`. A single task owns the
write connection and takes whatever transactions are waiting, up to `max_batch`, and commits
them together: one fsync (synchronous=FULL) then covers them all. That is what lets a thousand
games move per second on a disk whose fsync takes a few milliseconds, while each caller still
hears back only after its own rows are durable.

Each transaction stays atomic: if a statement of one transaction in a group fails (a guard
finds the game moved on, a unique key is already taken), the group is rolled back and the
others are committed again without it, so only the offending one fails.

A group runs as one function on aiosqlite's connection thread (one thread hop per group, not
one per statement); see `thread_runner`.

The queue is bounded (`max_queue` transactions waiting or being written): a caller finding it
full waits for room before its transaction is queued, and `room()` lets a caller wait before it
even builds one (the service does, before it loads a game from the database). So a burst of
thousands of moves at once holds a bounded number of states and transactions in memory, and
the rest wait as cheap coroutines.

Every group also adds one to `store_state.commits` and, once committed, writes that number
to the -lastcommit file beside the database (store/commits.py), so that a start-up can tell
when the database holds fewer commits than were made: a lost -wal file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from store.commits import CommitMarker
from store.errors import StoreError, WriteConflict

log = logging.getLogger(__name__)

# Constraint failures that mean "someone else already wrote this", not "the code is wrong".
_CONFLICT_CODES = {"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"}


@dataclass(frozen=True, slots=True)
class Statement:
    """One SQL statement. With `expect_rows`, affecting any other number of rows aborts the
    transaction with WriteConflict(`conflict`). `returns_id`: an INSERT whose new `id` the
    caller reads from `TxResult.lastrowids` (SQLite gives it anyway; PostgreSQL asks for it)."""

    sql: str
    params: tuple[Any, ...] = ()
    expect_rows: int | None = None
    conflict: str = ""
    returns_id: bool = False


@dataclass(slots=True)
class TxResult:
    """Per statement, in order: rows affected and the last inserted rowid."""

    rowcounts: list[int] = field(default_factory=list)
    lastrowids: list[int | None] = field(default_factory=list)

    def add(self, statement: Statement, rowcount: int, lastrowid: int | None) -> None:
        """Record a statement's outcome, or raise WriteConflict if its guard failed."""
        if statement.expect_rows is not None and rowcount != statement.expect_rows:
            raise WriteConflict(statement.conflict or "The data changed meanwhile; nothing was written.")
        self.rowcounts.append(rowcount)
        self.lastrowids.append(lastrowid)


# The results so far, the index of the transaction that failed (-1: BEGIN or COMMIT), the error.
_GroupOutcome = tuple[list[TxResult], int, Exception | None]


_COUNT = "UPDATE store_state SET commits = commits + 1 WHERE id = 1"
_COUNTED = "SELECT commits FROM store_state WHERE id = 1"


def _run_group(conn: sqlite3.Connection, jobs: list[list[Statement]],
               marker: CommitMarker | None = None) -> _GroupOutcome:
    """Run transactions as one SQLite transaction on `conn`, in the connection's own thread.
    On failure everything is rolled back and the failing transaction is named."""
    results: list[TxResult] = []
    failing = -1
    commits = None
    try:
        conn.execute("BEGIN IMMEDIATE")
        for index, statements in enumerate(jobs):
            failing = index
            result = TxResult()
            for statement in statements:
                cursor = conn.execute(statement.sql, statement.params)
                result.add(statement, cursor.rowcount, cursor.lastrowid)
            results.append(result)
        failing = -1
        if marker is not None:
            commits = _count(conn)
        conn.execute("COMMIT")
    except Exception as exc:
        # SQLite may have rolled back already (it does so itself after some I/O errors).
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        return results, failing, exc
    if marker is not None and commits is not None:
        marker.write(commits)
    return results, -1, None


def _count(conn: sqlite3.Connection) -> int | None:
    """Bump the commit counter in the open transaction; None if it cannot be (the row was
    removed by hand, say). Counting is a safeguard, never a reason to fail a write: if SQLite
    itself is failing, the COMMIT that follows fails too."""
    try:
        conn.execute(_COUNT)
        row = conn.execute(_COUNTED).fetchone()
    except sqlite3.Error:
        return None
    return int(row[0]) if row else None


def thread_runner(db: aiosqlite.Connection) -> tuple[Callable[..., Awaitable[Any]] | None, Any]:
    """aiosqlite runs every call on the connection's own thread. Handing it a whole group as
    one function costs one thread hop instead of one per statement; on a busy machine every
    hop can wait for the scheduler (see docs/performance.md). `Connection._execute` is not
    public API (requirements.txt pins aiosqlite), so it is looked up here, and without it the
    writer falls back to the public API."""
    run = getattr(db, "_execute", None)
    try:
        conn = db._conn
    except (AttributeError, ValueError):
        return None, None
    if not callable(run) or not isinstance(conn, sqlite3.Connection):
        return None, None
    return run, conn


@dataclass(slots=True)
class _Job:
    statements: list[Statement]
    future: asyncio.Future[TxResult]


# Transactions waiting or being written at most, per writer (a few groups' worth).
MAX_QUEUE = 512


class QueueBound:
    """At most `limit` transactions queued or being written: `enter` waits for a place (in
    turn), `leave` frees it, `room` waits until a place is free without keeping it. Used by
    both back ends' writers."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.held = 0
        self.peak = 0  # the most held at once so far (for tests and the benchmark)
        self._places = asyncio.Semaphore(self.limit)

    async def enter(self) -> None:
        await self._places.acquire()
        self.held += 1
        self.peak = max(self.peak, self.held)

    def leave(self) -> None:
        self.held -= 1
        self._places.release()

    async def room(self) -> None:
        """Wait until a place is free (without keeping it)."""
        if self._places.locked():
            await self.enter()
            self.leave()


class GroupCommitWriter:
    """Serialises all writes on one connection and commits them in groups."""

    def __init__(self, db: aiosqlite.Connection, max_batch: int = 128, marker: CommitMarker | None = None,
                 max_queue: int = MAX_QUEUE) -> None:
        self._db = db
        self._max_batch = max_batch
        self._marker = marker
        self._in_thread, self._conn = thread_runner(db)
        self.bound = QueueBound(max_queue)
        self._queue: deque[_Job] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        # Figures for the benchmark: how many transactions and commits so far.
        self.transactions = 0
        self.commits = 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="store-writer")
        self._task.add_done_callback(self._stopped)

    def _stopped(self, task: asyncio.Task[None]) -> None:
        # Should the writer ever die, nobody may wait for it for ever.
        if not task.cancelled() and task.exception() is not None:
            log.error("the store writer stopped: %r", task.exception())
        self._fail(list(self._queue), StoreError("The game store's writer has stopped; restart the bot."))
        self._queue.clear()

    async def run(self, statements: list[Statement]) -> TxResult:
        """Run `statements` in one transaction; return once it is durable.

        Raises WriteConflict when a guard failed (nothing of it was written) and StoreError
        when SQLite failed. Waits first while the queue is full (`max_queue`). If the caller
        is cancelled before the writer reaches its transaction, it is skipped; once started it
        completes, acknowledged or not."""
        self._check_running()
        await self.bound.enter()
        try:
            self._check_running()
            future: asyncio.Future[TxResult] = asyncio.get_running_loop().create_future()
            self._queue.append(_Job(list(statements), future))
            self._wake.set()
            return await future  # a caller cancelled here cancels the future: the writer skips it
        finally:
            self.bound.leave()

    async def room(self) -> None:
        """Wait while the queue is full."""
        await self.bound.room()

    def _check_running(self) -> None:
        if self._closing or self._task is None:
            raise StoreError("The game store is closed.")
        if self._task.done():
            raise StoreError("The game store's writer has stopped; restart the bot.")

    async def close(self) -> None:
        """Finish the queued transactions, then stop."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch: list[_Job] = []
                while self._queue and len(batch) < self._max_batch:
                    job = self._queue.popleft()
                    if not job.future.cancelled():
                        batch.append(job)
                if batch:
                    await self._commit(batch)
            if self._closing:
                return

    async def _commit(self, batch: list[_Job]) -> None:
        jobs = [job.statements for job in batch]
        try:
            if self._in_thread is not None:
                results, failing, error = await self._in_thread(_run_group, self._conn, jobs, self._marker)
            else:
                results, failing, error = await self._run_group_awaiting(jobs)
        except BaseException:
            # The writer itself was cancelled (shutdown): whether the group got written is
            # unknown, so its callers must not trust their caches.
            self._fail(batch, StoreError("The game store was stopped during a write."))
            raise
        if error is None:
            self.transactions += len(batch)
            self.commits += 1
            for job, result in zip(batch, results, strict=True):
                if not job.future.done():
                    job.future.set_result(result)
            return
        if not isinstance(error, WriteConflict | sqlite3.IntegrityError):
            log.error("write transaction failed: %s", error)
        if failing < 0:  # BEGIN or COMMIT failed: none of the group was written
            self._fail(batch, _as_store_error(error))
            return
        # Only that transaction fails; the others go again without it.
        self._fail([batch[failing]], _as_store_error(error))
        rest = batch[:failing] + batch[failing + 1:]
        if rest:
            await self._commit(rest)

    async def _run_group_awaiting(self, jobs: list[list[Statement]]) -> _GroupOutcome:
        """`_run_group` through aiosqlite's public API: one thread hop per statement."""
        db = self._db
        results: list[TxResult] = []
        failing = -1
        commits = None
        try:
            await db.execute("BEGIN IMMEDIATE")
            for index, statements in enumerate(jobs):
                failing = index
                result = TxResult()
                for statement in statements:
                    cursor = await db.execute(statement.sql, statement.params)
                    result.add(statement, cursor.rowcount, cursor.lastrowid)
                results.append(result)
            failing = -1
            if self._marker is not None:
                try:
                    await db.execute(_COUNT)
                    row = await (await db.execute(_COUNTED)).fetchone()
                    commits = int(row[0]) if row else None
                except sqlite3.Error:
                    commits = None
            await db.execute("COMMIT")
        except Exception as exc:
            # SQLite may have rolled back already (it does so itself after some I/O errors).
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            return results, failing, exc
        if self._marker is not None and commits is not None:
            self._marker.write(commits)
        return results, -1, None

    @staticmethod
    def _fail(batch: list[_Job], exc: BaseException) -> None:
        for job in batch:
            if not job.future.done():
                job.future.set_exception(exc)


def _as_store_error(exc: BaseException) -> StoreError:
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, sqlite3.IntegrityError) and getattr(exc, "sqlite_errorname", "") in _CONFLICT_CODES:
        conflict = WriteConflict("That was already written; nothing was written twice.")
        conflict.__cause__ = exc
        return conflict
    error = StoreError(f"The database refused a write: {exc}")
    error.__cause__ = exc
    return error
