"""A read-only referee: the game as the bot stored it, read straight from the database file,
for tests whose bot runs in another process (child.py).

`Table` (driver.py) decides what to play by asking a service for `game`, `view` and
`legal_actions`. With the bot in a child process there is no service in the test's process,
and opening one on the file would write (its open migrates and keeps bookkeeping) while the
child writes too. The referee only reads, through a `mode=ro` connection opened for each
look (so it never holds a read transaction that would keep the bot's WAL from being
checkpointed): the game row and seats as the service summarises them (app.records), the
engine state from the stored snapshot and the moves logged after it, and the outbox and
timers as stored.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from app import records
from app.models import GameSummary
from engine.actions import Action, action_from_json
from engine.game import apply
from engine.game import legal_actions as legal_for
from engine.game import view as view_for
from engine.state import GameState
from engine.view import View
from store import GameRow, PlayerRow
from store.records import (
    DELIVERY_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    SNAPSHOT_COLUMNS,
    TIMER_COLUMNS,
    DeliveryRow,
    SnapshotRow,
    TimerRow,
)


class Referee:
    """Reads games from the database at `db` without ever writing to it. Offers what `Table`
    asks of a service (`game`, `view`, `legal_actions`), plus the outbox and the timers."""

    def __init__(self, db: Path) -> None:
        self.db = Path(db)
        self.reads = self  # Table reads a service's part `reads`: game, view, legal_actions

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: everything read in it is from the same commit."""
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            conn.execute("BEGIN")
            yield conn
        finally:
            conn.close()

    def _game(self, conn: sqlite3.Connection, game_id: int) -> tuple[GameRow, list[PlayerRow]]:
        row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise LookupError(f"there is no game {game_id} in {self.db}")
        players = conn.execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat",
                               (game_id,)).fetchall()
        return GameRow.from_row(row), [PlayerRow.from_row(p) for p in players]

    def _state(self, game_id: int, user_id: int | None) -> tuple[GameState, int, int | None]:
        """The engine state after the game's last stored move, its seq, and `user_id`'s seat."""
        with self._reading() as conn:
            game, players = self._game(conn, game_id)
            snap = conn.execute(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()
            tail = [] if snap is None else conn.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, snap[1])).fetchall()
        if snap is None:
            raise LookupError(f"game {game_id} has no snapshot (status {game.status})")
        snapshot = SnapshotRow.from_row(snap)
        # The bot writes a snapshot every few moves: the state is the snapshot's plus the moves
        # logged after it, up to the game's seq (all written in the same transactions).
        state = GameState.from_canonical(snapshot.state_json)
        for _, action in tail:
            state, _ = apply(state, action_from_json(json.loads(action)))
        last = tail[-1][0] if tail else snapshot.seq
        assert last == game.seq, f"game {game_id}: log at {last}, game at {game.seq}"
        seat = next((p.seat for p in players if user_id is not None and p.user_id == user_id), None)
        return state, game.seq, seat

    # ---------------------------------------------------------------- what Table asks

    async def game(self, game_id: int, user_id: int | None = None) -> GameSummary:
        """The game's summary, as the service's `game` gives it."""
        with self._reading() as conn:
            game, players = self._game(conn, game_id)
        return records.summary(game, players, user_id)

    async def view(self, game_id: int, user_id: int | None = None) -> View:
        """What `user_id` may see (their own hand if they play), with "seq" and "game_id"."""
        state, seq, seat = self._state(game_id, user_id)
        out = view_for(state, seat).at(seq, game_id)
        return out

    async def legal_actions(self, game_id: int, user_id: int) -> list[Action]:
        """What `user_id` may do now (empty when it is not their turn)."""
        state, _, seat = self._state(game_id, user_id)
        return [] if seat is None else legal_for(state, seat)

    # ---------------------------------------------------------------- the outbox and the clocks

    def deliveries(self, game_id: int) -> list[DeliveryRow]:
        """The game's deliveries in the order they were owed (with status and message id)."""
        with self._reading() as conn:
            rows = conn.execute(f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? ORDER BY seq, id",
                                (game_id,)).fetchall()
        return [DeliveryRow.from_row(r) for r in rows]

    def timers(self, game_id: int) -> list[TimerRow]:
        """The game's timers, fired, cancelled and pending, in the order they were set."""
        with self._reading() as conn:
            rows = conn.execute(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY id",
                                (game_id,)).fetchall()
        return [TimerRow.from_row(r) for r in rows]

    def action_time(self, game_id: int, seq: int) -> float:
        """When move `seq` was stored (its transaction's time)."""
        with self._reading() as conn:
            row = conn.execute("SELECT created_at FROM actions WHERE game_id = ? AND seq = ?",
                               (game_id, seq)).fetchone()
        if row is None:
            raise LookupError(f"game {game_id} has no move {seq}")
        return float(row[0])
