"""The parts of the PostgreSQL store that read differently from the shared ones
(store/repository.py): the reads every move makes go grouped across games (store/pg_reads.py),
and deliveries and timers are claimed with a lease, since several processes may share the
database (migration 5; a claim counts while its owner lives: store/presence.py).

Each is the shared part with those reads replaced; everything else it reads as SQLite does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import asyncpg

from store.deliveries import DeliveryReads
from store.games import GameReads
from store.pg_reads import GroupedReads
from store.plans import PlanReads, PlanRow
from store.presence import live
from store.reader import Reader
from store.records import DELIVERY_COLUMNS, DeliveryRow, GameRow, PlayerRow, TimerRow
from store.timers import ACTIONABLE, T_COLUMNS, TimerReads
from store.user_settings import SettingsReads, UserSettingsRow

if TYPE_CHECKING:
    from store.repository import Tx
    from store.writer import TxResult

# PostgreSQL's spelling of "is one of this list": a real array as the parameter (`pg_list`).
PG_ANY = "= ANY(?)"
# Advisory lock key (any number but MIGRATION_LOCK's): one delivery claim at a time, so two
# processes never both take a game's deliveries.
CLAIM_LOCK = 0x77_72_02


def pg_list(values: Iterable[Any]) -> Any:
    """The list parameter of `PG_ANY`."""
    return list(values)


class PgGameReads(GameReads):
    """`store.games`, a game and its seats read grouped with other moves' (`grouped.games`)."""

    __slots__ = ("_grouped",)

    def __init__(self, reader: Reader, grouped: GroupedReads) -> None:
        super().__init__(reader)
        self._grouped = grouped

    async def with_players(self, game_id: int) -> tuple[GameRow | None, list[PlayerRow]]:
        found = await self._grouped.games.get(game_id)
        return (None, []) if found is None else (found[0], list(found[1]))

    async def stamp(self, game_id: int) -> tuple[int, str, int] | None:
        return await self._grouped.stamps.get(game_id)


class PgPlanReads(PlanReads):
    """`store.plans`, a whole game's plans read grouped with other moves' (`grouped.plans`)."""

    __slots__ = ("_grouped",)

    def __init__(self, reader: Reader, grouped: GroupedReads) -> None:
        super().__init__(reader)
        self._grouped = grouped

    async def get(self, game_id: int, seat: int | None = None) -> list[PlanRow]:
        if seat is not None:
            return await super().get(game_id, seat)
        return list(await self._grouped.plans.get(game_id) or [])


class PgSettingsReads(SettingsReads):
    """`store.user_settings`, read grouped with other moves' (`grouped.settings`)."""

    __slots__ = ("_grouped",)

    def __init__(self, reader: Reader, grouped: GroupedReads) -> None:
        super().__init__(reader)
        self._grouped = grouped

    async def get(self, user_ids: Iterable[int]) -> dict[int, UserSettingsRow]:
        return await self._grouped.settings.get_many(sorted({int(u) for u in user_ids}))


class PgDeliveryReads(DeliveryReads):
    """`store.deliveries`, whose due deliveries are claimed with a lease (on the write pool)."""

    __slots__ = ("_write_pool",)

    def __init__(self, reader: Reader, write_pool: asyncpg.Pool) -> None:
        super().__init__(reader)
        self._write_pool = write_pool

    async def claim(self, now: float, limit: int, *, always: Sequence[str], owner: str,
                    lease: float) -> list[DeliveryRow]:
        """Claim the due deliveries of games no other process holds, for `lease` seconds, and
        return them (oldest first). A game's deliveries are held by one process at a time —
        its turn post must not be sent twice — so claims are made one at a time (an advisory
        lock) and skip every game where another process holds a live claim."""
        cols = ", ".join(f"d.{c.strip()}" for c in DELIVERY_COLUMNS.split(","))
        async with self._write_pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", CLAIM_LOCK)
            rows = await conn.fetch(
                f"UPDATE deliveries AS d SET claimed_by = $2, claimed_until = $3 WHERE d.id IN ("
                "  SELECT c.id FROM deliveries AS c"
                "   WHERE c.status = 'pending' AND c.due_at <= $1"
                "     AND (c.kind = ANY($5) OR NOT EXISTS (SELECT 1 FROM deliveries AS f"
                "           WHERE f.game_id = c.game_id AND f.status = 'failed'))"
                "     AND NOT EXISTS (SELECT 1 FROM deliveries AS o WHERE o.game_id = c.game_id"
                "           AND o.status = 'pending' AND o.claimed_by <> $2 AND o.claimed_until > $1"
                f"          AND {live('o.claimed_by')})"
                f"   ORDER BY c.due_at, c.id LIMIT $4) RETURNING {cols}",
                now, owner, now + lease, limit, list(always),
            )
        out = [DeliveryRow.from_row(tuple(r)) for r in rows]
        return sorted(out, key=lambda d: (d.due_at, d.id))

    async def next_claimable(self, now: float, owner: str, *, always: Sequence[str] = ()) -> float | None:
        """When a delivery this process could claim falls due: a game another process holds
        counts from the end of its claim (so a waiting dispatcher does not spin)."""
        rows = await self._read.fetch(
            "SELECT min(CASE WHEN l.until IS NULL OR l.until < d.due_at THEN d.due_at ELSE l.until END)"
            "  FROM deliveries AS d LEFT JOIN (SELECT game_id, max(claimed_until) AS until FROM deliveries"
            f"   WHERE status = 'pending' AND claimed_by <> ? AND claimed_until > ? AND {live('claimed_by')}"
            "   GROUP BY game_id) AS l"
            "   ON l.game_id = d.game_id"
            " WHERE d.status = 'pending' AND (d.kind = ANY(?) OR NOT EXISTS (SELECT 1 FROM deliveries AS f"
            "   WHERE f.game_id = d.game_id AND f.status = 'failed'))",
            (owner, now, list(always)),
        )
        return rows[0][0] if rows else None


class PgTimerReads(TimerReads):
    """`store.timers`, whose due timers are claimed with a lease (on the write pool), and a
    game's pending timers read grouped with other moves' (`grouped.timers`). There is no wake
    table here (migration 34): what is due is read by the due-time index."""

    __slots__ = ("_write_pool", "_grouped")

    def __init__(self, reader: Reader, new_tx: Callable[[], Tx], write: Callable[[Tx], Awaitable[TxResult]],
                 write_pool: asyncpg.Pool, grouped: GroupedReads) -> None:
        super().__init__(reader, new_tx, write)
        self._write_pool = write_pool
        self._grouped = grouped

    async def pending(self, game_id: int) -> list[TimerRow]:
        """A game's pending timers, soonest first (as `TimerReads.pending`)."""
        return list(await self._grouped.timers.get(game_id) or [])

    async def due(self, now: float, limit: int = 100) -> list[TimerRow]:
        """Pending timers due at or before `now`, earliest first (as `TimerReads.due`), claimed
        or not."""
        rows = await self._read.fetch(
            f"SELECT {T_COLUMNS} FROM timers AS t JOIN games AS g ON g.id = t.game_id"
            f" WHERE t.due_at <= ?{ACTIONABLE} ORDER BY t.due_at, t.id LIMIT ?",
            (now, limit),
        )
        return [TimerRow.from_row(r) for r in rows]

    async def next_due(self) -> float | None:
        """When the next pending timer falls due (None: none is pending)."""
        rows = await self._read.fetch("SELECT min(due_at) FROM timers WHERE fired_at IS NULL AND cancelled_at IS NULL",
                                      ())
        return rows[0][0] if rows else None

    async def claim(self, now: float, limit: int, *, owner: str, lease: float) -> list[TimerRow]:
        """Claim due timers no other process holds, for `lease` seconds. The timer still fires
        once through its guarded UPDATE; the claim only keeps two processes from both loading
        the game and playing the turn for nothing."""
        async with self._write_pool.acquire() as conn, conn.transaction():
            rows = await conn.fetch(
                f"UPDATE timers AS t SET claimed_by = $2, claimed_until = $3 WHERE t.id IN ("
                "  SELECT c.id FROM timers AS c JOIN games AS g ON g.id = c.game_id"
                "   WHERE c.due_at <= $1 AND c.fired_at IS NULL AND c.cancelled_at IS NULL"
                "     AND (c.for_seq IS NULL OR c.for_seq = g.seq) AND g.status IN ('lobby', 'setup', 'playing')"
                "     AND (c.claimed_until IS NULL OR c.claimed_until <= $1 OR c.claimed_by = $2"
                f"          OR NOT {live('c.claimed_by')})"
                "   ORDER BY c.due_at, c.id LIMIT $4 FOR UPDATE OF c SKIP LOCKED)"
                f" RETURNING {T_COLUMNS}",
                now, owner, now + lease, limit,
            )
        out = [TimerRow.from_row(tuple(r)) for r in rows]
        return sorted(out, key=lambda t: (t.due_at, t.id))

    async def next_claimable(self, now: float, owner: str) -> float | None:
        """When a pending timer this process could claim falls due."""
        rows = await self._read.fetch(
            "SELECT min(CASE WHEN claimed_by <> ? AND claimed_until > ? AND claimed_until > due_at"
            f" AND {live('claimed_by')}"
            " THEN claimed_until ELSE due_at END) FROM timers WHERE fired_at IS NULL AND cancelled_at IS NULL",
            (owner, now),
        )
        return rows[0][0] if rows else None
