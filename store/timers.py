"""Timers in the store: a game's clock ticks (a turn's time out, a reminder), each fired once.

`TimerWrites` is a transaction's part (`tx.timers`), `TimerReads` the store's
(`store.timers`). One process alone claims nothing: every due timer is its own (`claim`);
PostgreSQL, shared by several processes, leases them (store/pg_parts.py).

A turn's reminders and limits are rescheduled in place (`TimerWrites.turn`): the rows of the
last turn, one per kind and waiting player (`slot`), take the new turn's seats and due times,
and count a revision (`rev`), which a fire must name. On SQLite the timer loop finds what is
due through an append-only wake table (`WakeTimerReads`; migration 34 says why).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from store.games import PENDING_TIMER
from store.reader import Reader
from store.records import TIMER_COLUMNS, TimerRow
from store.writer import Statement

if TYPE_CHECKING:
    from store.repository import Tx
    from store.writer import TxResult

T_COLUMNS = ", ".join(f"t.{c.strip()}" for c in TIMER_COLUMNS.split(","))
# Due timers of games still being played, set for the point the game is at (`t`, `g`).
ACTIONABLE = (" AND t.fired_at IS NULL AND t.cancelled_at IS NULL"
               " AND (t.for_seq IS NULL OR t.for_seq = g.seq) AND g.status IN ('lobby', 'setup', 'playing')")
_CANCEL_BEFORE = f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND for_seq < ? AND {PENDING_TIMER}"


class TimerWrites:
    """Statements on timers (`tx.timers`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def _add(self, sql: str, params: Sequence[Any], game_id: int | None = None, **kwargs: Any) -> int:
        """Append a timer statement; `game_id`: the game whose timers it touches, kept as its
        key (`Tx.keys`) for the store's count of timer writes by game (`Store.timers_stamp`)."""
        index = self._tx.add(sql, params, **kwargs)
        if game_id is not None:
            self._tx.keys[index] = game_id
        return index

    def _cancel_before_last(self, game_id: int) -> int | None:
        """The index of this game's `cancel_before` if it is the transaction's last statement
        on timers (no statement naming them since: none of a move's other statements, on players,
        plans, deliveries or results, sets or moves a timer)."""
        statements = self._tx.statements
        for index in range(len(statements) - 1, -1, -1):
            statement = statements[index]
            if "timer" in statement.sql:
                found = statement.sql == _CANCEL_BEFORE and statement.params[1] == game_id
                return index if found else None
        return None

    def schedule(self, game_id: int, kind: str, due_at: float, *, seat: int | None = None,
                 for_seq: int | None = None, payload_json: str = "{}") -> int:
        """A new pending timer, replacing a pending one of the same kind for the same seat.
        Returns the statement index whose rowid is the timer id."""
        self.cancel(game_id, kind=kind, seat=seat, any_seat=False)
        # A timer for a point of the game that has already passed would never be cancelled by
        # the move that passed it, so it is refused instead.
        return self._add(
            "INSERT INTO timers (game_id, kind, seat, for_seq, due_at, wake_at, payload, created_at)"
            " SELECT id, CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR seq = ?)",
            (kind, seat, for_seq, due_at, due_at, payload_json, self._tx.now, game_id, for_seq, for_seq),
            game_id,
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
            returns_id=True,
        )

    def turn(self, game_id: int, kinds: Sequence[str], timers: Sequence[tuple[str, int, float, str]]) -> None:
        """A turn's timers: the game's pending timers of `kinds` become `timers` (kind, seat,
        due time, payload JSON), each kind's in the order given. The last turn's rows are
        rescheduled in place, slot by slot (a new revision each: a loop holding an old reading
        can no longer fire them); a slot the last turn did not fill is inserted, the rows left
        over (and those set on their own) are cancelled."""
        count = {kind: 0 for kind in kinds}
        for kind, _, _, _ in timers:
            count[kind] += 1
        # The rows beyond the new turn's slots go first (an empty turn: all of `kinds`).
        beyond = " OR ".join("kind = ? AND (slot IS NULL OR slot >= ?)" for _ in kinds)
        beyond_params = tuple(v for kind in kinds for v in (kind, count[kind]))
        index = self._cancel_before_last(game_id)
        if index is not None:
            # A move's cancel of the timers set for an earlier point and its turn's cancel of
            # the rows left over are one statement (one EXECUTE less per move on PostgreSQL):
            # no timer statement came between them, so it makes no difference where it runs.
            seq = self._tx.statements[index].params[2]
            self._tx.statements[index] = Statement(
                f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {PENDING_TIMER} AND (for_seq < ? OR "
                + beyond + ")",
                (self._tx.now, game_id, seq, *beyond_params))
        else:
            self._add(
                f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {PENDING_TIMER} AND (" + beyond + ")",
                (self._tx.now, game_id, *beyond_params), game_id,
            )
        slots = dict.fromkeys(kinds, 0)
        for kind, seat, due_at, payload_json in timers:
            slot = slots[kind]
            slots[kind] += 1
            # The wake time is only lowered (migration 34): a later due time keeps the earlier
            # entry, and the timer loop sets it again when it passes. The old claim is the old
            # revision's.
            self._add(
                "INSERT INTO timers (game_id, kind, seat, slot, due_at, wake_at, payload, created_at)"
                " SELECT id, CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
                " CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
                f" ON CONFLICT (game_id, kind, slot) WHERE {PENDING_TIMER} DO UPDATE SET"
                " seat = excluded.seat, due_at = excluded.due_at, payload = excluded.payload,"
                " created_at = excluded.created_at, for_seq = NULL, rev = timers.rev + 1,"
                " claimed_by = NULL, claimed_until = NULL,"
                " wake_at = CASE WHEN timers.wake_at <= excluded.due_at THEN timers.wake_at ELSE excluded.due_at END",
                (kind, seat, slot, due_at, due_at, payload_json, self._tx.now, game_id), game_id,
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
        self._add(sql, params, game_id)

    def cancel_before(self, game_id: int, seq: int) -> None:
        """Cancel the pending timers that were set for an earlier point of the game."""
        self._add(_CANCEL_BEFORE, (self._tx.now, game_id, seq), game_id)

    def fire(self, timer_id: int, rev: int | None = None) -> None:
        """Mark a timer fired; fails the transaction (WriteConflict) unless it was pending (at
        revision `rev`, unless None), so a timer fires once even when two workers or a restart
        race for it, and never as rescheduled since it was read."""
        sql = f"UPDATE timers SET fired_at = ? WHERE id = ? AND {PENDING_TIMER}"
        params: tuple[Any, ...] = (self._tx.now, timer_id)
        if rev is not None:
            sql += " AND rev = ?"
            params += (rev,)
        self._add(sql, params, expect_rows=1, conflict="That timer has already fired, was cancelled or moved.")

    def wake_again(self, now: float) -> None:
        """The timer loop's part of the wake table (SQLite, migration 34), for the entries
        passed by `now`: a pending row not due yet gets its entry again at its due time; the
        entries no row wakes by any more (cancelled, fired, moved) go."""
        self._add(
            "UPDATE timers SET wake_at = due_at WHERE id IN (SELECT timer_id FROM timer_wakes WHERE wake_at <= ?)"
            f" AND wake_at <= ? AND due_at > ? AND {PENDING_TIMER}",
            (now, now, now),
        )
        self._add(
            "DELETE FROM timer_wakes WHERE wake_at <= ? AND NOT EXISTS (SELECT 1 FROM timers AS t"
            " WHERE t.id = timer_wakes.timer_id AND t.wake_at = timer_wakes.wake_at"
            " AND t.fired_at IS NULL AND t.cancelled_at IS NULL)",
            (now,),
        )


class TimerReads:
    """Reads of timers (`store.timers`). On SQLite what is due is found through the wake table
    (migration 34), whose passed entries the timer loop's `claim` looks after (one process
    holds the file, so its reads may write them: `new_tx`, `write`). PostgreSQL's claims are
    its own (store/pg_parts.py)."""

    __slots__ = ("_read", "_new_tx", "_write")

    def __init__(self, reader: Reader, new_tx: Callable[[], Tx], write: Callable[[Tx], Awaitable[TxResult]]) -> None:
        self._read = reader
        self._new_tx = new_tx
        self._write = write

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
            f"SELECT {T_COLUMNS} FROM timer_wakes AS w JOIN timers AS t ON t.id = w.timer_id"
            " JOIN games AS g ON g.id = t.game_id"
            f" WHERE w.wake_at <= ? AND t.due_at <= ?{ACTIONABLE} ORDER BY t.due_at, t.id LIMIT ?",
            (now, now, limit),
        )
        return [TimerRow.from_row(r) for r in rows]

    async def next_due(self) -> float | None:
        """When the timer loop must look next: the wake table's first entry (at or before the
        next pending timer's due time; None: none is pending)."""
        rows = await self._read.fetch("SELECT min(wake_at) FROM timer_wakes", ())
        return rows[0][0] if rows else None

    async def claim(self, now: float, limit: int, *, owner: str, lease: float) -> list[TimerRow]:
        """The due timers this process is to act on (one process alone: every due timer), the
        passed wake entries looked after first when one of them is not a due timer's own."""
        stale = await self._read.fetch(
            "SELECT 1 FROM timer_wakes AS w WHERE w.wake_at <= ? AND NOT EXISTS (SELECT 1 FROM timers AS t"
            " WHERE t.id = w.timer_id AND t.wake_at = w.wake_at AND t.due_at <= ?"
            " AND t.fired_at IS NULL AND t.cancelled_at IS NULL) LIMIT 1",
            (now, now),
        )
        if stale:
            tx = self._new_tx()
            tx.timers.wake_again(now)
            await self._write(tx)
        return await self.due(now, limit)

    async def next_claimable(self, now: float, owner: str) -> float | None:
        """When a timer this process could claim falls due (for the timer loop's sleep)."""
        return await self.next_due()
