"""Timers in the store: a game's clock ticks (a turn's time out, a reminder), each fired once.

`TimerWrites` is a transaction's part (`tx.timers`), `TimerReads` the store's
(`store.timers`). One process alone claims nothing: every due timer is its own (`claim`);
PostgreSQL, shared by several processes, leases them (store/pg_parts.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from store.games import PENDING_TIMER
from store.reader import Reader
from store.records import TIMER_COLUMNS, TimerRow

if TYPE_CHECKING:
    from store.repository import Tx

T_COLUMNS = ", ".join(f"t.{c.strip()}" for c in TIMER_COLUMNS.split(","))


class TimerWrites:
    """Statements on timers (`tx.timers`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def schedule(self, game_id: int, kind: str, due_at: float, *, seat: int | None = None,
                 for_seq: int | None = None, payload_json: str = "{}") -> int:
        """A new pending timer, replacing a pending one of the same kind for the same seat.
        Returns the statement index whose rowid is the timer id."""
        self.cancel(game_id, kind=kind, seat=seat, any_seat=False)
        # A timer for a point of the game that has already passed would never be cancelled by
        # the move that passed it, so it is refused instead.
        return self._tx.add(
            "INSERT INTO timers (game_id, kind, seat, for_seq, due_at, payload, created_at)"
            " SELECT id, CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR seq = ?)",
            (kind, seat, for_seq, due_at, payload_json, self._tx.now, game_id, for_seq, for_seq),
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
            returns_id=True,
        )

    def cancel(self, game_id: int, *, kind: str | None = None, seat: int | None = None,
               any_seat: bool = True) -> None:
        """Cancel a game's pending timers (of one kind, and one seat unless `any_seat`)."""
        sql = f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {PENDING_TIMER}"
        params: list[Any] = [self._tx.now, game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if not any_seat:
            sql += " AND coalesce(seat, -1) = coalesce(CAST(? AS INTEGER), -1)"
            params.append(seat)
        self._tx.add(sql, params)

    def cancel_before(self, game_id: int, seq: int) -> None:
        """Cancel the pending timers that were set for an earlier point of the game."""
        self._tx.add(
            f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND for_seq < ? AND {PENDING_TIMER}",
            (self._tx.now, game_id, seq),
        )

    def fire(self, timer_id: int) -> None:
        """Mark a timer fired; fails the transaction (WriteConflict) unless it was pending, so
        a timer fires once even when two workers or a restart race for it."""
        self._tx.add(
            f"UPDATE timers SET fired_at = ? WHERE id = ? AND {PENDING_TIMER}",
            (self._tx.now, timer_id),
            expect_rows=1,
            conflict="That timer has already fired or was cancelled.",
        )


class TimerReads:
    """Reads of timers (`store.timers`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def get(self, timer_id: int) -> TimerRow | None:
        """A timer's row (None: no such timer)."""
        rows = await self._read.fetch(f"SELECT {TIMER_COLUMNS} FROM timers WHERE id = ?", (timer_id,))
        return TimerRow.from_row(rows[0]) if rows else None

    async def pending(self, game_id: int) -> list[TimerRow]:
        """A game's pending timers, soonest first."""
        rows = await self._read.fetch(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND {PENDING_TIMER} ORDER BY due_at, id", (game_id,)
        )
        return [TimerRow.from_row(r) for r in rows]

    async def due(self, now: float, limit: int = 100) -> list[TimerRow]:
        """Pending timers due at or before `now`, earliest first; leaves out those set for a
        point the game has passed and those of games that are over, cancelled or broken."""
        rows = await self._read.fetch(
            f"SELECT {T_COLUMNS} FROM timers AS t JOIN games AS g ON g.id = t.game_id"
            " WHERE t.due_at <= ? AND t.fired_at IS NULL AND t.cancelled_at IS NULL"
            " AND (t.for_seq IS NULL OR t.for_seq = g.seq) AND g.status IN ('lobby', 'setup', 'playing')"
            " ORDER BY t.due_at, t.id LIMIT ?",
            (now, limit),
        )
        return [TimerRow.from_row(r) for r in rows]

    async def next_due(self) -> float | None:
        """When the next pending timer falls due (None: none is pending)."""
        rows = await self._read.fetch(f"SELECT min(due_at) FROM timers WHERE {PENDING_TIMER}", ())
        return rows[0][0] if rows else None

    async def claim(self, now: float, limit: int, *, owner: str, lease: float) -> list[TimerRow]:
        """The due timers this process is to act on (one process alone: every due timer)."""
        return await self.due(now, limit)

    async def next_claimable(self, now: float, owner: str) -> float | None:
        """When a timer this process could claim falls due (for the timer loop's sleep)."""
        return await self.next_due()

