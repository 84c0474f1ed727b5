"""A bot process's presence on a shared PostgreSQL database: ownership that dies with its owner.

Each process holds, for as long as it lives, a session advisory lock on a connection of its
own (`pg_advisory_lock(OWNER_NS, number)`, a random number). Its claims on deliveries and
timers carry that number (`claimed_by` is "number:host:pid"), and a claim counts only while
the lock is held (`live`): PostgreSQL drops the lock the moment the process's connection dies
(a SIGKILL, a crash, a machine gone), so another process takes the work over at once, without
waiting out a lease. The same connection holds the locks of the Discord shards the process
runs (`pg_try_advisory_lock(SHARD_NS, shard)`), and LISTENs for wake-ups (`WAKE`): a process
that stops cleanly lets go of its claims and says so.

A watcher (`watch`) looks every WATCH_SECONDS: it reconnects and takes its locks again after
the connection was lost (the database restarted), and wakes the process when another one
went away (its work is now free) or said it let go. A process says hello (`HELLO`) once it holds
its lock, so that one which started and died between two looks is still missed when gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import asyncpg

log = logging.getLogger(__name__)

OWNER_NS = 0x7772  # first key of a process's own lock; the second is its number
SHARD_NS = 0x7773  # first key of a shard's lock; the second is the shard's number
WAKE = "ttr_wake"  # the channel a process NOTIFYs when it let go of work
HELLO = "ttr_hello"  # the channel a process NOTIFYs with its number once it holds its lock
WATCH_SECONDS = 1.0
# Back-off while the presence connection cannot be made again (seconds, doubling, at most).
RECONNECT_FIRST, RECONNECT_MOST = 0.25, 3.0

# The numbers of the processes alive now (on this database), as text.
LIVE_NUMBERS = (
    "SELECT l.objid::text FROM pg_locks AS l WHERE l.locktype = 'advisory' AND l.granted"
    f" AND l.classid = {OWNER_NS} AND l.objsubid = 2"
    " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())")


def live(column: str) -> str:
    """SQL: the claim named in `column` is held by a process alive now."""
    return f"split_part({column}, ':', 1) IN ({LIVE_NUMBERS})"


def new_owner() -> tuple[int, str]:
    """A process's number (its lock's second key) and its name in claims."""
    number = 1 + secrets.randbelow(2**31 - 2)
    return number, f"{number}:{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True, slots=True)
class Holder:
    """A live process and the shards it holds (`bot.py --status`)."""

    owner: str
    shards: tuple[int, ...]
    since: str  # when its presence connection started (the server's clock)


class Presence:
    """One process's presence connection (see the module's docstring)."""

    def __init__(self, url: str, number: int, owner: str) -> None:
        self.url = url
        self.number = number
        self.owner = owner
        self.shards: set[int] = set()
        self._conn: asyncpg.Connection | None = None
        self._hooks: list[Callable[[], None]] = []
        self._others: set[str] = set()
        # Numbers that said hello since the watcher last looked: each held its lock when it
        # spoke, so one not among the live at the next look has died (however briefly it lived).
        self._heard: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        # One statement at a time on the connection (the watcher, shard takes, the status).
        self._use = asyncio.Lock()

    def on_wake(self, hook: Callable[[], None]) -> None:
        """Call `hook` when another process's work may have become free."""
        self._hooks.append(hook)

    def _hello(self, _conn: object, _pid: int, _channel: str, number: str) -> None:
        if number != str(self.number):
            self._heard.add(number)

    def _wake(self, *_: object) -> None:
        for hook in self._hooks:
            try:
                hook()
            except Exception:  # a hook's bug must not stop the watcher
                log.exception("a wake-up hook failed")

    async def start(self) -> None:
        """Connect, take this process's lock, listen for wake-ups, and start watching."""
        await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="store-presence")

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url, server_settings={"application_name": f"ttr {self.owner}"[:63]})
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", OWNER_NS, self.number)
            for shard in sorted(self.shards):
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_NS, shard):
                    # Taken by another process while this one was cut off: it is theirs now.
                    log.warning("shard %d was taken over by another process while the database was out of reach",
                                shard)
                    self.shards.discard(shard)
            await conn.add_listener(WAKE, self._wake)
            await conn.add_listener(HELLO, self._hello)
            self._others = await self._live(conn)
            await conn.execute("SELECT pg_notify($1, $2)", HELLO, str(self.number))
        except BaseException:
            conn.terminate()
            raise
        self._conn = conn

    async def _live(self, conn: asyncpg.Connection) -> set[str]:
        return {r[0] for r in await conn.fetch(LIVE_NUMBERS)} - {str(self.number)}

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def _watch(self) -> None:
        wait = RECONNECT_FIRST
        while not self._closed:
            await asyncio.sleep(WATCH_SECONDS if self.connected else wait)
            try:
                if not self.connected:
                    await self._connect()
                    log.info("the presence connection is back: this process holds its claims and shards again")
                    wait = RECONNECT_FIRST
                    self._wake()
                    continue
                async with self._use:
                    if self._conn is None:
                        continue
                    # Taken before the look: a hello heard during it may come from a process
                    # whose lock the look missed by a hair, and is kept for the next one.
                    heard, self._heard = self._heard, set()
                    others = await self._live(self._conn)
                if (self._others | heard) - others:
                    log.info("another bot process went away: taking over its work")
                    self._wake()
                self._others = others
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is out of reach: try again soon
                if self._conn is not None:
                    self._conn.terminate()
                    self._conn = None
                log.warning("the presence connection failed (%s); trying again in %.1f s",
                            type(exc).__name__, wait)
                wait = min(wait * 2, RECONNECT_MOST)

    async def take_shard(self, shard: int) -> bool:
        """Take the lock of `shard`: True when this process now holds it (or already did)."""
        if shard in self.shards:
            return True
        async with self._use:
            if self._conn is None:
                return False
            if await self._conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_NS, shard):
                self.shards.add(shard)
                return True
        return False

    async def holders(self) -> list[Holder]:
        """Every live bot process on this database and the shards each holds."""
        async with self._use:
            if self._conn is None:
                return []
            return await holders(self._conn)

    async def close(self, release: Sequence[str] = ()) -> None:
        """A clean stop: run `release` (statements letting go of this process's claims), tell
        the others, and drop every lock (closing the connection)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        async with self._use:
            conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            for sql in release:
                await conn.execute(sql, self.owner)
            await conn.execute("SELECT pg_notify($1, $2)", WAKE, self.owner)
            await conn.close(timeout=5)
        except Exception as exc:  # the claims die with the connection anyway
            log.warning("could not let go of this process's claims cleanly (%s)", type(exc).__name__)
            conn.terminate()

    def kill(self) -> None:
        """Drop the connection as a dying process would (tests): nothing is let go of cleanly."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None


async def holders(conn: asyncpg.Connection) -> list[Holder]:
    """Every live bot process on the database of `conn` and the shards each holds, read from
    the server's locks and sessions."""
    rows = await conn.fetch(
        "SELECT a.application_name, l.classid::int, l.objid::bigint, a.backend_start::text"
        "  FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid IN ($1, $2)"
        "   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " ORDER BY a.backend_start, l.objid", OWNER_NS, SHARD_NS)
    by_name: dict[str, tuple[list[int], str]] = {}
    for name, ns, key, since in rows:
        owner = str(name or "?").removeprefix("ttr ")
        shards, _ = by_name.setdefault(owner, ([], since))
        if ns == SHARD_NS:
            shards.append(int(key))
    return [Holder(owner, tuple(sorted(shards)), since) for owner, (shards, since) in by_name.items()]
