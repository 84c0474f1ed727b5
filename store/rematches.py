"""Rematches (migration 15): who pressed Rematch under a finished game, and the table opened
for it. The store keeps them; app/rematch_ops.py knows when a rematch opens.

`RematchWrites` is a transaction's part (`tx.rematches`), `RematchReads` the store's
(`store.rematches`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from store.reader import Reader

if TYPE_CHECKING:
    from store.repository import Tx

REMATCH_VOTE_COLUMNS = "game_id, user_id, created_at"
REMATCH_COLUMNS = "game_id, new_game_id, created_at"
ALREADY = "A rematch of this game was opened meanwhile."


class RematchWrites:
    """Statements on rematches (`tx.rematches`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def add_vote(self, game_id: int, user_id: int) -> None:
        """`user_id` pressed Rematch under game `game_id` (guarded: not twice, not after the
        rematch opened)."""
        self._tx.add(
            "INSERT INTO rematch_votes (game_id, user_id, created_at) SELECT ?, ?, ?"
            " WHERE NOT EXISTS (SELECT 1 FROM rematches WHERE game_id = ?)"
            " AND NOT EXISTS (SELECT 1 FROM rematch_votes WHERE game_id = ? AND user_id = ?)",
            (game_id, user_id, self._tx.now, game_id, game_id, user_id),
            expect_rows=1, conflict=ALREADY,
        )

    def link(self, game_id: int) -> None:
        """The game created last in this transaction is game `game_id`'s rematch (a second
        link fails the transaction: the button works once)."""
        self._tx.add("INSERT INTO rematches (game_id, new_game_id, created_at) VALUES (?, last_insert_rowid(), ?)",
                     (game_id, self._tx.now))


class RematchReads:
    """Reads of rematches (`store.rematches`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def votes(self, game_id: int) -> list[int]:
        """Who pressed Rematch under the game, in the order they pressed."""
        rows = await self._read.fetch(
            "SELECT user_id FROM rematch_votes WHERE game_id = ? ORDER BY created_at, user_id", (game_id,))
        return [int(r[0]) for r in rows]

    async def of(self, game_id: int) -> int | None:
        """The game opened as the rematch of `game_id` (None: none yet)."""
        rows = await self._read.fetch("SELECT new_game_id FROM rematches WHERE game_id = ?", (game_id,))
        return int(rows[0][0]) if rows else None
