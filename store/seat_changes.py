"""Changes to a running game's seats that are not moves (migration 10): a seat handed to another
person (a substitute), and the other players' votes to hand a seat's turn to the AI.

`SeatWrites` adds its statements to a transaction (`Tx`), `SeatReads` reads the votes (both
mixed into the store's classes). Nothing here knows the rules of a vote or of a substitute:
app/seats_ops.py does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

SKIP_VOTE_COLUMNS = "game_id, seat, voter, turn, created_at"


class SeatWrites:
    """Statements on seats and votes (mixed into `Tx`)."""

    now: float
    add: Callable[..., int]  # Tx.add

    def hand_seat(self, game_id: int, seat: int, *, user_id: int, name: str, dm_closed: bool) -> None:
        """Seat `user_id` in `seat` of a running game, in place of whoever held it (a person, an
        AI, or a person the AI stood in for); guarded: the user has no other seat there."""
        self.add(
            "UPDATE players SET user_id = ?, is_ai = 0, ai_level = NULL, name = ?, dm_closed = ?, absent_turns = 0,"
            " stand_in = NULL WHERE game_id = ? AND seat = ?"
            " AND NOT EXISTS (SELECT 1 FROM players AS o WHERE o.game_id = ? AND o.user_id = ?)",
            (user_id, name, int(dm_closed), game_id, seat, game_id, user_id),
            expect_rows=1,
            conflict="That player already has a seat in this game.",
        )

    def add_skip_vote(self, game_id: int, seat: int, voter: int, turn: str) -> None:
        """A vote to hand `seat`'s turn to the AI (voting twice counts once)."""
        self.add(
            "INSERT INTO skip_votes (game_id, seat, voter, turn, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat, voter) DO UPDATE SET turn = excluded.turn, created_at = excluded.created_at",
            (game_id, seat, voter, turn, self.now),
        )

    def clear_skip_votes(self, game_id: int, *, keep_turn: str | None = None) -> None:
        """A turn has begun: the votes of the turns before are gone, but those of `keep_turn`
        (the turn just ended, while its move may still be taken back)."""
        if keep_turn is None:
            self.add("DELETE FROM skip_votes WHERE game_id = ?", (game_id,))
        else:
            self.add("DELETE FROM skip_votes WHERE game_id = ? AND turn <> ?", (game_id, keep_turn))


class SeatReads:
    """Reads of the votes (mixed into `Store`)."""

    _fetch: Callable[..., Awaitable[list[Any]]]  # Store._fetch

    async def skip_votes(self, game_id: int, seat: int, turn: str) -> list[int]:
        """Who voted to hand `seat`'s turn `turn` to the AI, in the order they voted."""
        rows = await self._fetch("SELECT voter FROM skip_votes WHERE game_id = ? AND seat = ? AND turn = ?"
                                 " ORDER BY created_at, voter", (game_id, seat, turn))
        return [int(r[0]) for r in rows]
