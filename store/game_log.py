"""A game's log, its snapshot and its results in the store.

The log (`actions`) is append-only; the snapshot caches the state after one of its entries;
the results are written once, when the game ends. `LogWrites` and `ResultWrites` are a
transaction's parts (`tx.log`, `tx.results`), `LogReads` and `ResultReads` the store's
(`store.log`, `store.results`), and `load_game` reads at one moment all that loading a game
needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from store.games import G_COLUMNS, GAME_WIDTH, P_COLUMNS
from store.reader import Reader
from store.records import (
    ACTION_COLUMNS,
    RESULT_COLUMNS,
    SNAPSHOT_COLUMNS,
    ActionRow,
    GameLoad,
    GameRow,
    PlayerRow,
    ResultRow,
    SnapshotRow,
    snapshot_digest,
)

if TYPE_CHECKING:
    from store.repository import Tx


class LogWrites:
    """Statements on a game's log and its snapshot (`tx.log`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def append(self, game_id: int, seq: int, *, actor: int | None, user_id: int | None, action_json: str,
               events_json: str) -> None:
        """Append to the log. (game, seq) is unique, so the same seq can never be written twice."""
        self._tx.add(
            f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, actor, user_id, action_json, events_json, self._tx.now),
        )

    def put_snapshot(self, game_id: int, seq: int, *, rules_version: int, state_json: str) -> str:
        """Replace the game's cached state (the state after entry `seq` of its log) with its
        digest; returns the digest."""
        digest = snapshot_digest(state_json)
        self._tx.add(
            f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
            " SET seq = excluded.seq, rules_version = excluded.rules_version, state = excluded.state,"
            " created_at = excluded.created_at, digest = excluded.digest",
            (game_id, seq, rules_version, state_json, self._tx.now, digest),
        )
        return digest

    def catch_up_snapshot(self, game_id: int, seq: int, *, rules_version: int, state_json: str) -> None:
        """Replace the game's snapshot with the state after entry `seq`, if the game is still
        at `seq` and its snapshot is older (another process may have moved it on meanwhile:
        then nothing is written)."""
        self._tx.add(
            f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT) FROM games WHERE id = ? AND seq = ?"
            " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version,"
            " state = excluded.state, created_at = excluded.created_at, digest = excluded.digest"
            " WHERE snapshots.seq < excluded.seq",
            (seq, rules_version, state_json, self._tx.now, snapshot_digest(state_json), game_id, seq),
        )


class LogReads:
    """Reads of a game's log and its snapshot (`store.log`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def load_game(self, game_id: int, *, whole: bool = False) -> GameLoad:
        """What loading a game needs, read at one moment: its row, its seats, its snapshot and
        the entries of its log after the snapshot (the whole log with `whole`, or when it has
        no snapshot)."""
        after = ("-1" if whole else
                 "coalesce((SELECT seq FROM snapshots WHERE game_id = CAST(? AS BIGINT)), -1)")
        rows, snapshots, actions = await self._read.fetch_many((
            (f"SELECT {G_COLUMNS}, {P_COLUMNS} FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id"
             " WHERE g.id = ? ORDER BY p.seat", (game_id,)),
            (f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,)),
            (f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > {after} ORDER BY seq",
             (game_id,) if whole else (game_id, game_id)),
        ))
        if not rows:
            return GameLoad(None, [], None, [])
        return GameLoad(GameRow.from_row(rows[0][:GAME_WIDTH]),
                        [PlayerRow.from_row(r[GAME_WIDTH:]) for r in rows if r[GAME_WIDTH] is not None],
                        SnapshotRow.from_row(snapshots[0]) if snapshots else None,
                        [ActionRow.from_row(r) for r in actions])

    async def games_with_old_snapshots(self) -> list[int]:
        """The games being played whose snapshot is not at the end of their log, by id."""
        rows = await self._read.fetch(
            "SELECT g.id FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id"
            " WHERE g.status IN ('setup', 'playing') AND (s.seq IS NULL OR s.seq < g.seq) ORDER BY g.id", ())
        return [r[0] for r in rows]

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        """The game's cached state (None: it has none)."""
        rows = await self._read.fetch(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,))
        return SnapshotRow.from_row(rows[0]) if rows else None

    async def actions(self, game_id: int, after_seq: int = -1) -> list[ActionRow]:
        """The log of a game from `after_seq + 1` on, in order."""
        rows = await self._read.fetch(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after_seq)
        )
        return [ActionRow.from_row(r) for r in rows]

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last `limit` log entries of a game, oldest first."""
        rows = await self._read.fetch(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, limit)
        )
        return [ActionRow.from_row(r) for r in reversed(rows)]


class ResultWrites:
    """Statements on results (`tx.results`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def add(self, rows: Iterable[ResultRow]) -> None:
        """Record a finished game's result rows (one per seat)."""
        for r in rows:
            self._tx.add(
                f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (r.game_id, r.seat, r.user_id, int(r.is_ai), r.ai_level, r.name, r.guild_id, r.variant, r.score,
                 r.place, int(r.won), r.tickets_completed, r.tickets_failed, r.finished_at),
            )


class ResultReads:
    """Reads of results by game and by user (`store.results`; a server's: `store.standings`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def of_game(self, game_id: int) -> list[ResultRow]:
        """A finished game's result rows, by seat."""
        rows = await self._read.fetch(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat",
                                      (game_id,))
        return [ResultRow.from_row(r) for r in rows]

    async def of_user(self, user_id: int, guild_id: int | None = None, limit: int = 1000) -> list[ResultRow]:
        """A user's result rows (in one server, or all), newest first."""
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._read.fetch(sql + " ORDER BY finished_at DESC LIMIT ?", (*params, limit))
        return [ResultRow.from_row(r) for r in rows]
