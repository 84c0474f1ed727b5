"""Reads that many moves make at once, sent together: one round trip for a whole group.

Every move on PostgreSQL reads its game row and seats again (app/loader.py's check of a cached
game), and most also read the game's plans and the players' settings when a turn begins, and
the game's pending timers when the mover may still take the move back (app/core.py's mover
clock: nine moves in ten in the bench, one round trip each until they were grouped too). Each
read is a round trip to the server, and a round trip costs CPU on both sides (a socket send and
receive, a statement parsed and planned) — on a busy process far more than the read itself.
So, like the writer (`PgWriter`: every waiting transaction in one call), reads of one kind that
are asked for while one is under way wait for it to come back and then go together as ONE
query keyed by `= ANY(…)`: with thousands of players submitting, a few dozen checks in one
read; with one player, one read as before (no waiting: the first goes at once).

Each read is of committed rows by key, as the single reads were; grouping changes no answer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from store.games import PENDING_TIMER
from store.plans import PLAN_COLUMNS, PlanRow
from store.records import GAME_COLUMNS, PLAYER_COLUMNS, TIMER_COLUMNS, GameRow, PlayerRow, TimerRow
from store.user_settings import USER_SETTINGS_COLUMNS, UserSettingsRow

K = TypeVar("K")
V = TypeVar("V")

# The most keys in one grouped read (the rest go in the next).
MAX_KEYS = 500


class _Many(Generic[K, V]):
    """The waiter of one `get_many`: its keys' answers gathered, ONE future woken when the last
    comes (a future per key and a gather of them cost a task per key and a wake-up each, on
    every move's read of its players' settings)."""

    __slots__ = ("future", "left", "found")

    def __init__(self, future: asyncio.Future[dict[K, V]], left: int) -> None:
        self.future = future
        self.left = left
        self.found: dict[K, V] = {}

    def done(self) -> bool:
        return self.future.done()

    def set_answer(self, key: K, value: V | None) -> None:
        if value is not None:
            self.found[key] = value
        self.left -= 1
        if self.left == 0 and not self.future.done():
            self.future.set_result(self.found)

    def set_exception(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)

    def cancel(self) -> None:
        self.future.cancel()


class KeyedReads(Generic[K, V]):
    """Reads by key; those asked for while one is under way go together in the next.

    `fetch(keys)` reads all of `keys` in one query and returns what it found by key (a key not
    found is left out)."""

    def __init__(self, fetch: Callable[[list[K]], Awaitable[dict[K, V]]], *, limit: int = MAX_KEYS) -> None:
        self._fetch = fetch
        self._limit = limit
        self._waiting: dict[K, list[asyncio.Future[V | None] | _Many[K, V]]] = {}
        self._task: asyncio.Task[None] | None = None
        # How many reads were asked for, and how many queries answered them (a test reads these).
        self.asked = 0
        self.queries = 0

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="grouped-reads")

    async def get(self, key: K) -> V | None:
        """The row(s) stored under `key`, or None."""
        future: asyncio.Future[V | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(future)
        self.asked += 1
        self._start()
        return await future

    async def get_many(self, keys: Iterable[K]) -> dict[K, V]:
        """What is stored under each of `keys` (a key with nothing stored is left out)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        many: _Many[K, V] = _Many(asyncio.get_running_loop().create_future(), len(wanted))
        for k in wanted:
            self._waiting.setdefault(k, []).append(many)
        self.asked += len(wanted)
        self._start()
        found = await many.future
        return {k: found[k] for k in wanted if k in found}  # in the order asked

    async def _run(self) -> None:
        while self._waiting:
            keys = list(self._waiting)[: self._limit]
            futures = {k: self._waiting.pop(k) for k in keys}
            self.queries += 1
            try:
                found = await self._fetch(keys)
            except BaseException as exc:
                for waiters in futures.values():
                    for f in waiters:
                        if not f.done():
                            # A cancelled read (the store closing) tells its waiters so, as a
                            # single read would have.
                            f.set_exception(exc if isinstance(exc, Exception) else asyncio.CancelledError())
                if not isinstance(exc, Exception):
                    self._fail_waiting()
                    raise
                continue
            for k, waiters in futures.items():
                value = found.get(k)
                for f in waiters:
                    if f.done():
                        continue
                    if isinstance(f, _Many):
                        f.set_answer(k, value)
                    else:
                        f.set_result(value)

    def _fail_waiting(self) -> None:
        for waiters in self._waiting.values():
            for f in waiters:
                if not f.done():
                    f.cancel()
        self._waiting.clear()

    async def close(self) -> None:
        """Stop: reads still waiting are cancelled."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._fail_waiting()


GameAndSeats = tuple[GameRow, list[PlayerRow]]
# A game's seq, status and version (migration 35): what the check of a cached game compares.
GameStamp = tuple[int, str, int]
_FetchRows = Callable[[str, tuple[object, ...]], Awaitable[list[tuple[object, ...]]]]


def _text(value: object) -> str:
    """A short text column as read (the store reads text as bytes: store/records.py)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


class GroupedReads:
    """The store's reads that every move makes, grouped (`KeyedReads`): a game's row and seats,
    a game's plans, users' settings. `fetch(sql, params)` runs one read; `any_` is the
    back end's `= ANY(?)` spelling, `as_list` its list parameter."""

    def __init__(self, fetch: _FetchRows, any_: str, as_list: Callable[[list[int]], object]) -> None:
        self._fetch_rows = fetch
        self._any = any_
        self._as_list = as_list
        self.games: KeyedReads[int, GameAndSeats] = KeyedReads(self._games)
        self.stamps: KeyedReads[int, GameStamp] = KeyedReads(self._stamps)
        self.plans: KeyedReads[int, list[PlanRow]] = KeyedReads(self._plans)
        self.settings: KeyedReads[int, UserSettingsRow] = KeyedReads(self._settings)
        self.timers: KeyedReads[int, list[TimerRow]] = KeyedReads(self._timers)

    async def _games(self, ids: list[int]) -> dict[int, GameAndSeats]:
        game_cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        player_cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = await self._fetch_rows(
            f"SELECT {game_cols}, {player_cols} FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id"
            f" WHERE g.id {self._any} ORDER BY g.id, p.seat", (self._as_list(ids),))
        width = len(GAME_COLUMNS.split(","))
        out: dict[int, GameAndSeats] = {}
        for r in rows:
            game_id = int(r[0])  # type: ignore[call-overload]
            if game_id not in out:
                out[game_id] = (GameRow.from_row(r[:width]), [])
            if r[width] is not None:
                out[game_id][1].append(PlayerRow.from_row(r[width:]))
        return out

    async def _stamps(self, ids: list[int]) -> dict[int, GameStamp]:
        rows = await self._fetch_rows(f"SELECT id, seq, status, version FROM games WHERE id {self._any}",
                                      (self._as_list(ids),))
        return {int(r[0]): (int(r[1]), _text(r[2]), int(r[3])) for r in rows}  # type: ignore[call-overload]

    async def _plans(self, ids: list[int]) -> dict[int, list[PlanRow]]:
        rows = await self._fetch_rows(
            f"SELECT {PLAN_COLUMNS} FROM plans WHERE game_id {self._any} ORDER BY game_id, seat",
            (self._as_list(ids),))
        out: dict[int, list[PlanRow]] = {}
        for r in rows:
            plan = PlanRow.from_row(r)
            out.setdefault(plan.game_id, []).append(plan)
        return out

    async def _settings(self, ids: list[int]) -> dict[int, UserSettingsRow]:
        rows = await self._fetch_rows(
            f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE user_id {self._any}", (self._as_list(ids),))
        return {int(r[0]): UserSettingsRow.from_row(r) for r in rows}  # type: ignore[call-overload]

    async def _timers(self, ids: list[int]) -> dict[int, list[TimerRow]]:
        rows = await self._fetch_rows(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id {self._any} AND {PENDING_TIMER}"
            " ORDER BY game_id, due_at, id", (self._as_list(ids),))
        out: dict[int, list[TimerRow]] = {}
        for r in rows:
            timer = TimerRow.from_row(r)
            out.setdefault(timer.game_id, []).append(timer)
        return out

    async def close(self) -> None:
        """Stop the grouped reads (any still waiting are cancelled)."""
        for reads in (self.games, self.stamps, self.plans, self.settings, self.timers):
            await reads.close()
