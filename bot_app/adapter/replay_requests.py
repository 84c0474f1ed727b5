"""`/ttr results replay` at a bounded cost. A replay takes one to three seconds of a render worker, so:

- the same replay asked for by several people at once is drawn once, and each of them gets it
  (the drawing does not belong to whoever asked first: it goes on if they give up);
- each user has at most one replay being drawn at a time;
- at most WAITING different games' replays are in hand at once (the rest are refused in a
  sentence), and they are built one after another — the timeline in a thread, the GIF in the
  render pool's slow lane (render/pool.py), which never holds a turn post back;
- the last few finished games' replays are kept (a finished game never changes, and a thread
  tends to ask for the same one);
- a channel gets a game's replay once: whoever asks there for one posted (or being posted) in
  the last few minutes is pointed to it, privately, instead of a second copy of the same GIF
  (`shown_in`, `showing`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from bot_app.presentation import text
from bot_app.presentation.answers import Refusal

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk

T = TypeVar("T")

KEPT = 4  # replays kept (each GIF at most 8 MB, usually 1-2 MB)
SHOWN_SECONDS = 600.0  # a replay posted in a channel this recently is pointed to, not posted again
SHOWN_KEPT = 64  # (game, channel) posts remembered
WAITING = 8  # different games' replays in hand at once (being drawn, or waiting their turn)
NOT_SHOWN = "The replay could not be posted here just now; ask again in a moment."
STILL_DRAWING = "Your last replay is still being drawn: it will appear in a moment. Ask again after it."
BUSY = (f"The replays of {WAITING} other games are being drawn right now; ask again in a minute (a replay someone "
        "already asked for comes at once).")


@dataclass(frozen=True)
class Replay:
    """A finished game's replay, as `/ttr results replay` posts it."""

    gif: bytes
    pictures: int  # frames of the timeline: the first board, each claim or station, the final board
    title: str  # the rule set's title, for the caption


class ReplayRequests(Generic[T]):
    """Who is waiting for which replay, the replays being drawn, and the most recent ones."""

    def __init__(self, kept: int = KEPT, waiting: int = WAITING) -> None:
        self.kept = kept
        self.waiting = waiting
        self.drawn = 0  # replays drawn (not given from another's drawing or from those kept)
        self._users: set[int] = set()  # users waiting for a replay
        self._drawing: dict[int, asyncio.Task[T]] = {}  # game → its replay being drawn
        self._recent: OrderedDict[int, T] = OrderedDict()
        self._one_at_a_time: asyncio.Semaphore | None = None
        # (game, channel) → when its replay was posted there, and the post's link (a future
        # while it is being posted).
        self._shown: OrderedDict[tuple[int, int], tuple[float, asyncio.Future[str]]] = OrderedDict()

    def shown_in(self, game_id: int, channel_id: int | None, now: float | None = None) -> asyncio.Future[str] | None:
        """The link of game `game_id`'s replay posted in this channel lately (a future: it may
        be on its way), or None."""
        if channel_id is None:
            return None
        found = self._shown.get((game_id, channel_id))
        now = time.monotonic() if now is None else now
        if found is None or now - found[0] > SHOWN_SECONDS or found[1].cancelled() \
                or found[1].done() and found[1].exception() is not None:
            return None
        return found[1]

    def showing(self, game_id: int, channel_id: int | None) -> asyncio.Future[str]:
        """The caller posts game `game_id`'s replay in this channel: set the future to the
        post's link (or cancel it if the post fails); others asking there meanwhile wait for it."""
        link: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        if channel_id is not None:
            self._shown[(game_id, channel_id)] = (time.monotonic(), link)
            self._shown.move_to_end((game_id, channel_id))
            while len(self._shown) > SHOWN_KEPT:
                self._shown.popitem(last=False)
        link.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved, even unawaited
        return link

    @staticmethod
    def not_shown(link: asyncio.Future[str]) -> None:
        """The post `showing` announced failed: whoever waits for it is refused in a sentence."""
        if not link.done():
            link.set_exception(Refusal(NOT_SHOWN))

    def check(self, user_id: int, game_id: int) -> None:
        """Refuse, before anything is said in public, a second replay while one of this user's
        is being drawn, and a new one when WAITING others are in hand (one kept, or being drawn
        for someone else, is always given)."""
        if game_id in self._recent or game_id in self._drawing:
            return
        if user_id in self._users:
            raise Refusal(STILL_DRAWING)
        if len(self._drawing) >= self.waiting:
            raise Refusal(BUSY)

    async def replay(self, user_id: int, game_id: int, draw: Callable[[], Awaitable[T]]) -> T:
        """The replay of finished game `game_id` for `user_id`: kept, being drawn already (then
        shared), or drawn now by `draw` after the replays ahead of it."""
        if game_id in self._recent:
            self._recent.move_to_end(game_id)
            return self._recent[game_id]
        self.check(user_id, game_id)
        task = self._drawing.get(game_id)
        if task is None:
            task = asyncio.create_task(self._draw(game_id, draw), name=f"replay-{game_id}")
            self._drawing[game_id] = task
            task.add_done_callback(lambda done: self._settle(game_id, done))
        self._users.add(user_id)
        try:
            return await asyncio.shield(task)  # a caller who gives up leaves the drawing to the others
        finally:
            self._users.discard(user_id)

    async def _draw(self, game_id: int, draw: Callable[[], Awaitable[T]]) -> T:
        if self._one_at_a_time is None:
            self._one_at_a_time = asyncio.Semaphore(1)
        async with self._one_at_a_time:
            self.drawn += 1
            return await draw()

    def _settle(self, game_id: int, task: asyncio.Task[T]) -> None:
        if self._drawing.get(game_id) is task:
            del self._drawing[game_id]
        if task.cancelled() or task.exception() is not None:  # the callers were told
            return
        self._recent[game_id] = task.result()
        while len(self._recent) > self.kept:
            self._recent.popitem(last=False)


async def draw_replay(desk: Desk, game_id: int) -> Replay:
    """A finished game's replay: its public timeline rebuilt from the stored seed and moves,
    drawn as a GIF in the render pool's slow lane."""
    steps = await desk.service.replays.replay_timeline(game_id)
    gif = await desk.renderer.replay(steps)
    view = steps[-1].view
    return Replay(gif, len(steps), text.variant_title(view.variant, view.options))
