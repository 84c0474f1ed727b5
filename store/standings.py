"""Leaderboard seasons and server settings in the store (`tx.standings`, `store.standings`).

Ratings themselves are never stored (app/ratings.py computes them from `results`); the store
keeps when each season began and whether a server counts games with AI seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store.reader import Reader
from store.records import RESULT_COLUMNS, ResultRow

if TYPE_CHECKING:
    from store.repository import Tx


@dataclass(frozen=True)
class Season:
    """One season of a server: results finished in [started_at, ends_at)."""

    number: int
    started_at: float
    ends_at: float | None  # None: the current season


class StandingsWrites:
    """Statements on seasons and server settings (`tx.standings`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def start_season(self, guild_id: int, number: int, by_user_id: int | None) -> None:
        """Begin season `number` now. Two managers starting one at once: one of them wins."""
        self._tx.add(
            "INSERT INTO seasons (guild_id, number, started_at, started_by) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, number) DO NOTHING",
            (guild_id, number, self._tx.now, by_user_id),
            expect_rows=1,
            conflict="Someone has just started a new season.",
        )

    def set_rate_ai_games(self, guild_id: int, on: bool) -> None:
        """Whether games with AI seats count towards this server's ratings."""
        self._tx.add(
            "INSERT INTO guild_settings (guild_id, rate_ai_games, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET rate_ai_games = excluded.rate_ai_games,"
            " updated_at = excluded.updated_at",
            (guild_id, int(on), self._tx.now),
        )


class StandingsReads:
    """Reads of seasons, server settings and a server's results (`store.standings`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of a server, first to current (season 1 always exists)."""
        rows = await self._read.fetch(
            "SELECT number, started_at FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
        starts = [(1, float("-inf")), *((int(n), float(t)) for n, t in rows)]
        return [Season(number, start, starts[i + 1][1] if i + 1 < len(starts) else None)
                for i, (number, start) in enumerate(starts)]

    async def rate_ai_games(self, guild_id: int) -> bool:
        rows = await self._read.fetch("SELECT rate_ai_games FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return bool(rows[0][0]) if rows else True

    async def results_of_guild(self, guild_id: int, *, since: float, until: float | None,
                               after: tuple[float, int] | None = None, variant: str | None = None,
                               limit: int = 100_000) -> list[ResultRow]:
        """A server's result rows finished in [since, until), in finishing order; with `after`,
        only the games that finished after that (finished_at, game_id)."""
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if since != float("-inf"):
            sql += " AND finished_at >= ?"
            params.append(since)
        if until is not None:
            sql += " AND finished_at < ?"
            params.append(until)
        if variant is not None:
            sql += " AND variant = ?"
            params.append(variant)
        if after is not None and after[0] != float("-inf"):
            sql += " AND (finished_at > ? OR (finished_at = ? AND game_id > ?))"
            params.extend((after[0], after[0], after[1]))
        rows = await self._read.fetch(sql + " ORDER BY finished_at, game_id, seat LIMIT ?", (*params, limit))
        return [ResultRow.from_row(r) for r in rows]
