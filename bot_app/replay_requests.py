"""`/ttr replay` at a bounded cost: a replay takes one to three seconds of a render worker, so
each user has at most one being drawn at a time, and the last few finished games' GIFs are kept
(a finished game never changes, and a thread tends to ask for the same one)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot_app.answers import Refusal

KEPT = 4  # GIFs kept (each at most 8 MB, usually 1-2 MB)
STILL_DRAWING = "Your last replay is still being drawn: it will appear in a moment. Ask again after it."


class ReplayRequests:
    """Who is waiting for a replay, and the most recent GIFs by game."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._drawing: set[int] = set()
        self._recent: OrderedDict[int, bytes] = OrderedDict()

    def check(self, user_id: int, game_id: int) -> None:
        """Refuse, before anything is said in public, a second replay while one of this user's
        is being drawn (a kept one is always given)."""
        if game_id not in self._recent and user_id in self._drawing:
            raise Refusal(STILL_DRAWING)

    async def gif(self, user_id: int, game_id: int, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        """The replay of finished game `game_id` for `user_id`: kept, or drawn by `draw` (one at
        a time per user; a second request meanwhile is refused in a sentence)."""
        if game_id in self._recent:
            self._recent.move_to_end(game_id)
            return self._recent[game_id]
        self.check(user_id, game_id)
        self._drawing.add(user_id)
        try:
            gif = await draw()
        finally:
            self._drawing.discard(user_id)
        self._recent[game_id] = gif
        while len(self._recent) > self.kept:
            self._recent.popitem(last=False)
        return gif
