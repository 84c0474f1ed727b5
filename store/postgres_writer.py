"""The PostgreSQL store's writer: every waiting transaction in one call, its statements prepared.

`PgWriter` takes every transaction waiting (up to `max_batch`) and sends them as ONE call of
the function `ttr_typed_batch` (migration 36; `ttr_batch` of migration 32 before it): one
network round trip and one commit — one WAL flush — for the whole batch. What makes a move
cheap on the server (docs/performance.md, "PostgreSQL as fast as SQLite per move", "One
function's own statements for a move"):

- **a move's usual statements are the function's own.** The advance with its log entry, the
  timer upserts, the deliveries, the cancels and the snapshot (store/pg_typed.py's KINDS) go
  as a kind's number, their values in three typed arrays (bigint, text, double precision)
  that asyncpg writes in binary; the function runs each as its own static statement, whose
  plan it keeps: no text parsed, no literal written or read (`typed`). Every other statement,
  or one whose values do not fit (a float where an integer goes), goes as below;

- **each statement is prepared once per connection.** The first time a connection meets a
  statement's text (the shared SQL of store/repository.py, `?` numbered `$1, $2, …`), the
  writer PREPAREs it there (`PREPARE ttr_w7 AS …`, with `RETURNING 1` added so that the
  function can count the rows it touched); from then on the batch carries only
  `EXECUTE ttr_w7(5, 'text', …)`: the server parses a short line and runs a plan it already
  has, instead of parsing, analysing and planning the whole statement again. A statement the
  server cannot prepare (a parameter whose type it cannot tell) travels whole, as before.
  Values are written in as literals (`literal`: numbers as numbers, text as
  standard-conforming '…' strings), which is why every connection insists on
  standard_conforming_strings;
- **one subtransaction per batch, not one per transaction.** The batch runs straight through;
  when a transaction fails (its guard finds the game moved on, a key is already taken, a
  deadlock with another process), the function rolls the batch back, nothing is written, and
  says which transaction failed and why. The writer answers that one (or, for a deadlock,
  tries the batch again) and sends the others again: the same outcome as one subtransaction
  per transaction, for one more round trip in the rare case instead of a subtransaction for
  every move;
- arrays in and out (the statements as `text[]`, the results as `bigint[]`), not JSON built,
  parsed and concatenated on both sides.

A caller hears back after the COMMIT; one cancelled before its turn is skipped, one already
sent completes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import asyncpg

from store.errors import StoreError, WriteConflict
from store.pg_typed import BY_SQL, returns_id, split
from store.writer import MAX_QUEUE, QueueBound, Statement, TxResult

log = logging.getLogger("store.postgres")

# A deadlock between two processes' transactions aborts one batch; it is tried again.
DEADLOCK_TRIES = 3
RETRY_STATES = {"40P01", "40001"}  # deadlock detected, serialization failure
GUARD_FAILED = "TT001"  # ttr_batch: a statement affected another number of rows than expected
UNIQUE_VIOLATION = "23505"
NO_SUCH_PREPARED = "26000"  # the connection lost its prepared statements: prepare them again
# Statements prepared on one connection at most (the shared SQL has a few dozen; text built
# with a varying number of placeholders would otherwise grow without end).
MAX_PREPARED = 256
# Server connections whose prepared statements are remembered (the write pool has a few).
CONNECTIONS_REMEMBERED = 16
BATCH = ("SELECT failed, state, message, at, counts, new_ids FROM ttr_typed_batch($1::integer[], $2::text[],"
         " $3::bigint[], $4::text[], $5::double precision[], $6::bigint[], $7::boolean[], $8::integer[])")
_NO_VALUES: list[str] = []

_DIALECT = (("last_insert_rowid()", "lastval()"),)


@lru_cache(maxsize=2048)
def _pieces(sql: str) -> tuple[str, ...]:
    """The shared SQL split at its `?` placeholders (outside quoted text), with the few
    functions PostgreSQL spells differently: n placeholders give n + 1 pieces."""
    parts = sql.split("'")
    out = [""]
    for i, part in enumerate(parts):
        if i:
            out[-1] += "'"
        if i % 2:  # inside '…'
            out[-1] += part
            continue
        chunks = part.split("?")
        out[-1] += chunks[0]
        out.extend(chunks[1:])
    for sqlite_word, postgres_word in _DIALECT:
        out = [piece.replace(sqlite_word, postgres_word) for piece in out]
    return tuple(out)


@lru_cache(maxsize=2048)
def to_postgres(sql: str) -> str:
    """The shared SQL as PostgreSQL reads it: `?` numbered `$1, $2, …` (outside quoted text)
    and the few functions spelled differently."""
    pieces = _pieces(sql)
    return pieces[0] + "".join(f"${n}{piece}" for n, piece in enumerate(pieces[1:], start=1))


def _real(value: float) -> str:
    if not math.isfinite(value):
        return f"'{value}'::float8"
    text = repr(value)  # the shortest text that reads back as exactly this float
    return f"({text})" if value < 0 else text


def _text(value: str) -> str:
    if "\x00" in value:
        raise StoreError("The database refused a write: text with a NUL character")
    return "'" + value.replace("'", "''") + "'"


def literal(value: Any) -> str:
    """`value` as an SQL literal of PostgreSQL (with standard_conforming_strings on, the only
    character to double in a string is the quote itself)."""
    kind = type(value)
    if kind is str:
        return _text(value)
    if kind is int:
        return f"({value})" if value < 0 else str(value)  # "- -1" would start a comment
    if kind is float:
        return _real(value)
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return literal(int(value))
    if isinstance(value, float):
        return _real(value)
    if isinstance(value, str):
        return _text(str(value))
    raise TypeError(f"no SQL literal for {type(value).__name__}")


def _fill(pieces: tuple[str, ...], values: Sequence[str]) -> str:
    return pieces[0] + "".join(v + piece for v, piece in zip(values, pieces[1:], strict=True))


def inline(sql: str, params: Sequence[Any]) -> str:
    """The shared SQL (`?` placeholders) with its values written in as literals, and the few
    functions PostgreSQL spells differently."""
    return _fill(_pieces(sql), [literal(v) for v in params])


def words(exc: BaseException) -> str:
    """What PostgreSQL said, without its DETAIL (which quotes the row: a hand, the deck)."""
    message = getattr(exc, "message", None)
    if isinstance(exc, asyncpg.PostgresError) and message:
        return str(message)
    if isinstance(exc, OSError | asyncpg.InterfaceError | TimeoutError):
        return str(exc) or type(exc).__name__
    return type(exc).__name__


@dataclass(slots=True)
class _Job:
    statements: list[Statement]  # as the caller gave them (what its TxResult answers)
    future: asyncio.Future[TxResult]
    sent: list[Statement]  # as they go (`fuse`: a guard and the INSERT after it may go as one)
    spans: list[int]  # per statement sent, how many of `statements` it stands for
    values: list[list[str]]  # each statement sent as text, its values as literals (typed ones: none)
    kinds: list[int]  # each statement sent, its kind (store/pg_typed.py; 0: as text)
    ints: list[int | None]  # the typed statements' values, in order, by type
    texts: list[str | None]
    floats: list[float | None]


# An INSERT of one row of values only (no subquery, no function, no ON CONFLICT): what `fuse`
# lets ride on the guarded UPDATE before it.
_ONE_ROW_INSERT = re.compile(r"INSERT INTO (\w+) \(([^()]*)\) VALUES \(([^()]*)\)")


@lru_cache(maxsize=256)
def _fused(guard: str, insert: str) -> str | None:
    """`guard` (an UPDATE) and `insert` (one row) as one statement whose INSERT takes place
    only if the UPDATE touched a row (None: not a pair `fuse` takes)."""
    if not guard.startswith("UPDATE ") or "RETURNING" in guard.upper() or guard.lstrip().upper().startswith("WITH"):
        return None
    found = _ONE_ROW_INSERT.fullmatch(insert)
    if found is None:
        return None
    table, columns, values = found.groups()
    # PostgreSQL gives the parameters of `SELECT ? … FROM u` the types of the columns they
    # are inserted into, as it does for VALUES.
    return f"WITH u AS ({guard} RETURNING 1) INSERT INTO {table} ({columns}) SELECT {values} FROM u"


def fuse(statements: Sequence[Statement]) -> tuple[list[Statement], list[int]]:
    """The statements a transaction sends, and how many of the given ones each stands for. A
    guarded UPDATE that must touch one row followed by an INSERT of one row (a move's advance
    of its game and its first log entry) go as ONE statement (`WITH u AS (UPDATE … RETURNING
    1) INSERT … SELECT … FROM u`): one EXECUTE less in the batch, and the same outcome — the
    UPDATE touching one row inserts the row (1 and 1), touching none inserts nothing (0: the
    guard fails, the guard's words), a key taken fails as before."""
    sent: list[Statement] = []
    spans: list[int] = []
    i = 0
    while i < len(statements):
        a = statements[i]
        if (i + 1 < len(statements) and a.expect_rows == 1 and not a.returns_id
                and statements[i + 1].expect_rows is None and not statements[i + 1].returns_id):
            b = statements[i + 1]
            sql = _fused(a.sql, b.sql)
            if sql is not None:
                sent.append(Statement(sql, a.params + b.params, 1, a.conflict))
                spans.append(2)
                i += 2
                continue
        sent.append(a)
        spans.append(1)
        i += 1
    return sent, spans


def typed(sent: Sequence[Statement]) -> tuple[list[list[str]], list[int], list[int | None], list[str | None],
                                             list[float | None]]:
    """How the statements of a transaction go: each of a kind `ttr_typed_batch` knows
    (store/pg_typed.py) as its kind's number, its values in three typed arrays; any other as
    text, its values as literals. Raises StoreError (for this caller alone) for text with a
    NUL character, either way."""
    values: list[list[str]] = []
    kinds: list[int] = []
    ints: list[int | None] = []
    texts: list[str | None] = []
    floats: list[float | None] = []
    for s in sent:
        found = BY_SQL.get(s.sql)
        if found is not None and s.returns_id == returns_id(found[0]) and split(s.params, found[1], ints, texts,
                                                                                 floats):
            kinds.append(found[0])
            values.append(_NO_VALUES)
        else:
            kinds.append(0)
            values.append([literal(v) for v in s.params])
    return values, kinds, ints, texts, floats


@dataclass(slots=True)
class _Failure:
    job: int  # its index in the batch
    state: str
    message: str
    at: int  # the statement's index in its transaction


class _Prepared:
    """The statements prepared on one server connection (by its backend's pid)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def sql(self, statement: Statement, values: list[str]) -> tuple[str, bool]:
        """The text a batch sends for `statement`, and whether the function reads a row from
        it (prepared statements return one per row they touch; an INSERT whose id is wanted
        returns its id)."""
        name = self.names.get(statement.sql)
        if name is not None:
            return (f"EXECUTE {name}({', '.join(values)})" if values else f"EXECUTE {name}"), True
        text = _fill(_pieces(statement.sql), values)
        return (text + " RETURNING id", True) if statement.returns_id else (text, False)


def _template(statement: Statement) -> str:
    """What a connection prepares for `statement`: a row back for every row it touches."""
    return to_postgres(statement.sql) + (" RETURNING id" if statement.returns_id else " RETURNING 1")


class PgWriter:
    """Runs write transactions: up to `connections` calls at once, each taking every waiting
    transaction (up to `max_batch`) into one call of `ttr_batch`."""

    def __init__(self, pool: asyncpg.Pool, *, connections: int, max_batch: int, max_queue: int = MAX_QUEUE) -> None:
        self._pool = pool
        self._connections = connections
        self._max_batch = max(1, max_batch)
        # At most `max_queue` transactions waiting or being written (store/writer.py).
        self.bound = QueueBound(max_queue)
        self._queue: deque[_Job] = deque()
        self._wake = asyncio.Condition()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self.transactions = 0
        self.commits = 0
        # Per server connection, what is prepared there; texts the server would not prepare.
        self._prepared: dict[int, _Prepared] = {}
        self._unpreparable: set[str] = set()
        self._names = 0

    def start(self) -> None:
        self._tasks = [asyncio.get_running_loop().create_task(self._work(), name=f"store-writer-{i}")
                       for i in range(self._connections)]

    async def run(self, statements: list[Statement]) -> TxResult:
        if self._closing or not self._tasks:
            raise StoreError("The game store is closed.")
        if all(t.done() for t in self._tasks):
            raise StoreError("The game store's writer has stopped; restart the bot.")
        # Here, so that a bad value fails its caller alone.
        sent, spans = fuse(statements)
        values, kinds, ints, texts, floats = typed(sent)
        await self.bound.enter()
        try:
            if self._closing:
                raise StoreError("The game store is closed.")
            future: asyncio.Future[TxResult] = asyncio.get_running_loop().create_future()
            self._queue.append(_Job(list(statements), future, sent, spans, values, kinds, ints, texts, floats))
            async with self._wake:
                self._wake.notify()
            return await future
        finally:
            self.bound.leave()

    async def close(self) -> None:
        """Finish the queued transactions, then stop."""
        self._closing = True
        async with self._wake:
            self._wake.notify_all()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for job in self._queue:
            if not job.future.done():
                job.future.set_exception(StoreError("The game store is closed."))
        self._queue.clear()

    async def _work(self) -> None:
        while True:
            async with self._wake:
                await self._wake.wait_for(lambda: bool(self._queue) or self._closing)
            batch: list[_Job] = []
            while self._queue and len(batch) < self._max_batch:
                job = self._queue.popleft()
                if not job.future.cancelled():
                    batch.append(job)
            if batch:
                try:
                    await self._commit(batch)
                except BaseException as exc:
                    for job in batch:
                        if not job.future.done():
                            job.future.set_exception(StoreError("The game store was stopped during a write."))
                    if not isinstance(exc, Exception):
                        raise
                    log.error("the store writer failed: %s", words(exc))
            elif self._closing and not self._queue:
                return

    async def _commit(self, batch: list[_Job]) -> None:
        tries = 0
        while batch:
            try:
                async with self._pool.acquire() as conn:
                    failure, counts, new_ids = await self._call(conn, batch)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                # The connection or the COMMIT failed: none of the batch is known to be written.
                error = StoreError(f"The database failed during a write: {words(exc)}")
                for job in batch:
                    if not job.future.done():
                        job.future.set_exception(error)
                return
            self.commits += 1
            if failure is None:
                self._settle_all(batch, counts, new_ids)
                return
            if failure.state in RETRY_STATES | {NO_SUCH_PREPARED} and tries + 1 < DEADLOCK_TRIES:
                tries += 1  # a deadlock with another process, or prepared statements gone: again
                continue
            self._fail(batch[failure.job], failure)
            # Nothing of the batch was written: the others go again without it.
            batch = batch[:failure.job] + batch[failure.job + 1:]

    async def _call(self, conn: Any, batch: list[_Job]) -> tuple[_Failure | None, list[int], list[int | None]]:
        """One call of `ttr_batch` on `conn` (preparing there first what it has not met)."""
        pid = conn.get_server_pid()
        # The most recently used connections last; the pool replaces idle ones (new pids), so
        # the book of those long gone is dropped.
        prepared = self._prepared.pop(pid, None) or _Prepared()
        self._prepared[pid] = prepared
        while len(self._prepared) > CONNECTIONS_REMEMBERED:
            del self._prepared[next(iter(self._prepared))]
        await self._prepare(conn, prepared, batch)
        kinds: list[int] = []
        sqls: list[str | None] = []
        ints: list[int | None] = []
        texts: list[str | None] = []
        floats: list[float | None] = []
        expects: list[int | None] = []
        rows: list[bool] = []
        ends: list[int] = []
        for job in batch:
            kinds += job.kinds
            for statement, kind, values in zip(job.sent, job.kinds, job.values, strict=True):
                if kind:
                    sqls.append(None)
                    rows.append(False)
                else:
                    text, row = prepared.sql(statement, values)
                    sqls.append(text)
                    rows.append(row)
                expects.append(statement.expect_rows)
            ends.append(len(sqls))
            ints += job.ints
            texts += job.texts
            floats += job.floats
        record = await conn.fetchrow(BATCH, kinds, sqls, ints, texts, floats, expects, rows, ends)
        if record[0] is not None:
            if record[1] == NO_SUCH_PREPARED:
                self._prepared.pop(pid, None)  # a new connection with an old one's pid
            return _Failure(int(record[0]), str(record[1]), str(record[2] or ""), int(record[3] or 0)), [], []
        return None, list(record[4] or ()), list(record[5] or ())

    async def _prepare(self, conn: Any, prepared: _Prepared, batch: list[_Job]) -> None:
        for job in batch:
            for statement, kind in zip(job.sent, job.kinds, strict=True):
                sql = statement.sql
                if kind or sql in prepared.names or sql in self._unpreparable or len(prepared.names) >= MAX_PREPARED:
                    continue
                # A name never used before in this process: a connection whose book was
                # dropped may still hold the statements it prepared under the old names.
                self._names += 1
                name = f"ttr_w{self._names}"
                try:
                    await conn.execute(f"PREPARE {name} AS {_template(statement)}")
                except asyncpg.PostgresError as exc:
                    if str(getattr(exc, "sqlstate", "")).startswith("42"):
                        # Not a statement PostgreSQL can prepare alone (a parameter of no
                        # telling type, say): it travels whole, as literal text, from now on.
                        log.debug("not prepared (%s): %s", words(exc), sql[:80])
                        self._unpreparable.add(sql)
                    continue  # (anything else: whole this time, prepared another time)
                prepared.names[sql] = name

    def _settle_all(self, batch: list[_Job], counts: list[int], new_ids: list[int | None]) -> None:
        start = 0
        for job in batch:
            result = TxResult()
            originals = iter(job.statements)
            for k, span in enumerate(job.spans, start=start):
                # (The function checked the guards already: `add` finds them kept. A fused
                # pair's guard touched as many rows as its INSERT inserted.)
                for _ in range(span):
                    statement = next(originals)
                    result.add(statement, int(counts[k]), new_ids[k] if statement.returns_id else None)
            start += len(job.spans)
            self.transactions += 1
            if not job.future.done():
                job.future.set_result(result)

    @staticmethod
    def _fail(job: _Job, failure: _Failure) -> None:
        if job.future.done():
            return
        if failure.state == GUARD_FAILED:
            at = failure.at  # (of the statements sent, whose guard is the first of its span)
            conflict = job.sent[at].conflict if 0 <= at < len(job.sent) else ""
            job.future.set_exception(WriteConflict(conflict or "The data changed meanwhile; nothing was written."))
        elif failure.state == UNIQUE_VIOLATION:
            job.future.set_exception(WriteConflict("That was already written; nothing was written twice."))
        else:
            job.future.set_exception(StoreError(f"The database refused a write: {failure.message}"))
