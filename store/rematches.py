"""Rematches (migration 15): who pressed Rematch under a finished game, and the table opened
for it. The store keeps them; app/rematch_ops.py knows when a rematch opens.

`RematchWrites` adds its statements to a transaction (`Tx`), `RematchReads` reads them (both
mixed into the store's classes).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

REMATCH_VOTE_COLUMNS = "game_id, user_id, created_at"
REMATCH_COLUMNS = "game_id, new_game_id, created_at"
ALREADY = "A rematch of this game was opened meanwhile."


class RematchWrites:
    """Statements on rematches (mixed into `Tx`)."""

    now: float
    add: Callable[..., int]  # Tx.add

    def add_rematch_vote(self, game_id: int, user_id: int) -> None:
        """`user_id` pressed Rematch under game `game_id` (guarded: not twice, not after the
        rematch opened)."""
        self.add(
            "INSERT INTO rematch_votes (game_id, user_id, created_at) SELECT ?, ?, ?"
            " WHERE NOT EXISTS (SELECT 1 FROM rematches WHERE game_id = ?)"
            " AND NOT EXISTS (SELECT 1 FROM rematch_votes WHERE game_id = ? AND user_id = ?)",
            (game_id, user_id, self.now, game_id, game_id, user_id),
            expect_rows=1, conflict=ALREADY,
        )

    def link_rematch(self, game_id: int) -> None:
        """The game created last in this transaction is game `game_id`'s rematch (a second
        link fails the transaction: the button works once)."""
        self.add("INSERT INTO rematches (game_id, new_game_id, created_at) VALUES (?, last_insert_rowid(), ?)",
                 (game_id, self.now))


class RematchReads:
    """Reads of rematches (mixed into `Store`)."""

    _fetch: Callable[..., Awaitable[list[Any]]]  # Store._fetch

    async def rematch_votes(self, game_id: int) -> list[int]:
        """Who pressed Rematch under the game, in the order they pressed."""
        rows = await self._fetch("SELECT user_id FROM rematch_votes WHERE game_id = ? ORDER BY created_at, user_id",
                                 (game_id,))
        return [int(r[0]) for r in rows]

    async def rematch_of(self, game_id: int) -> int | None:
        """The game opened as the rematch of `game_id` (None: none yet)."""
        rows = await self._fetch("SELECT new_game_id FROM rematches WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else None
