"""Changes to a running game's seats that are not moves (migration 10): a seat handed to another
person (a substitute), and the other players' votes to hand a seat's turn to the AI.

`SeatWrites` is a transaction's part (`tx.seats`, with the per-seat flags: DMs closed, the AI
standing in), `SeatReads` the store's (`store.seats`: the votes). Nothing here knows the rules
of a vote or of a substitute: app/seat_ops.py does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from store.reader import Reader

if TYPE_CHECKING:
    from store.repository import Tx

SKIP_VOTE_COLUMNS = "game_id, seat, voter, turn, created_at"


class SeatWrites:
    """Statements on seats, their flags and votes (`tx.seats`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def hand(self, game_id: int, seat: int, *, user_id: int, name: str, dm_closed: bool) -> None:
        """Seat `user_id` in `seat` of a running game, in place of whoever held it (a person, an
        AI, or a person the AI stood in for); guarded: the user has no other seat there."""
        self._tx.add(
            "UPDATE players SET user_id = ?, is_ai = 0, ai_level = NULL, name = ?, dm_closed = ?, absent_turns = 0,"
            " stand_in = NULL WHERE game_id = ? AND seat = ?"
            " AND NOT EXISTS (SELECT 1 FROM players AS o WHERE o.game_id = ? AND o.user_id = ?)",
            (user_id, name, int(dm_closed), game_id, seat, game_id, user_id),
            expect_rows=1,
            conflict="That player already has a seat in this game.",
        )

    def add_skip_vote(self, game_id: int, seat: int, voter: int, turn: str) -> None:
        """A vote to hand `seat`'s turn to the AI (voting twice counts once)."""
        self._tx.add(
            "INSERT INTO skip_votes (game_id, seat, voter, turn, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat, voter) DO UPDATE SET turn = excluded.turn, created_at = excluded.created_at",
            (game_id, seat, voter, turn, self._tx.now),
        )

    def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        """Whether the bot could not DM the player of this seat."""
        self._tx.add("UPDATE players SET dm_closed = ? WHERE game_id = ? AND seat = ?", (int(closed), game_id, seat))

    def set_dm_closed_for_user(self, user_id: int, closed: bool) -> None:
        """A user's DMs are closed (or open again) in every game they play."""
        self._tx.add("UPDATE players SET dm_closed = ? WHERE user_id = ?", (int(closed), user_id))

    def set_absence(self, game_id: int, seat: int, absent_turns: int, stand_in: str | None) -> None:
        """How many turns in a row the AI has played for a seat, and which AI holds it now."""
        self._tx.add("UPDATE players SET absent_turns = ?, stand_in = ? WHERE game_id = ? AND seat = ?",
                     (absent_turns, stand_in, game_id, seat))

    def clear_skip_votes(self, game_id: int, *, keep_turn: str | None = None) -> None:
        """A turn has begun: the votes of the turns before are gone, but those of `keep_turn`
        (the turn just ended, while its move may still be taken back)."""
        if keep_turn is None:
            self._tx.add("DELETE FROM skip_votes WHERE game_id = ?", (game_id,))
        else:
            self._tx.add("DELETE FROM skip_votes WHERE game_id = ? AND turn <> ?", (game_id, keep_turn))


class SeatReads:
    """Reads of the votes (`store.seats`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def skip_votes(self, game_id: int, seat: int, turn: str) -> list[int]:
        """Who voted to hand `seat`'s turn `turn` to the AI, in the order they voted."""
        rows = await self._read.fetch("SELECT voter FROM skip_votes WHERE game_id = ? AND seat = ? AND turn = ?"
                                      " ORDER BY created_at, voter", (game_id, seat, turn))
        return [int(r[0]) for r in rows]
