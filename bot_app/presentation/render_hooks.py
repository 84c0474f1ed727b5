"""How the bot turns views into PNG bytes: the real renderer, off the event loop. `Renderer` is
the seam (tests pass tests.fake_discord.renderer.StubRenderer instead); nothing else in the
bot imports `render`.

The pictures are drawn in render's pool of worker processes (render/pool.py), so the event
loop never waits on Pillow and the bot's own Python does not compete with the drawing. The
same request twice (a player asking for their hand again, nothing changed) gets the same
bytes from a small LRU instead of a new drawing.

`colorblind` comes from the players' settings (`/ttr settings colorblind:`): a hand picture
gets marks when its player has them on, the public board when anyone seated at the table has.

The words inside a picture are in its reader's language (docs/languages.md): a table's
pictures (board, zoom, score sheet, tickets, replay) in the table's, a player's hand and ticket
offer in the language they are being answered in (a DM's is set by `lang.reading`), else the
table's; the words travel with the job, so the picture cache's key holds them too.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot_app.lang import reader, table_language
from bot_app.lang.pictures import picture_words
from engine.timeline import TimelineStep
from engine.view import View

if TYPE_CHECKING:
    from render.pool import RenderPool
    from render.stats import StatsCard
    from render.words import PictureWords

PICTURES_KEPT = 64  # recent pictures kept by request (about 5 MB of PNGs)


class PictureCache:
    """The last `size` pictures, by what was asked for (kind and pickled arguments); the least
    recently used goes first."""

    def __init__(self, size: int = PICTURES_KEPT) -> None:
        self.size = size
        self.hits = 0
        self._items: OrderedDict[bytes, bytes] = OrderedDict()

    @staticmethod
    def key(kind: str, *args: Any) -> bytes:
        return hashlib.blake2b(pickle.dumps((kind, args), protocol=pickle.HIGHEST_PROTOCOL), digest_size=20).digest()

    def get(self, key: bytes) -> bytes | None:
        png = self._items.get(key)
        if png is not None:
            self._items.move_to_end(key)
            self.hits += 1
        return png

    def put(self, key: bytes, png: bytes) -> None:
        self._items[key] = png
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class Renderer:
    """The real pictures, drawn in render's worker pool so the event loop never waits on Pillow.
    Every method takes a view: board and scores only ever get public views (`you` is None).
    `colorblind` adds each route colour's letter (the player's, or the table's, setting).
    `pool`: the render pool (default: render's process-wide one); `only` instead gives the
    renderer a pool of its own whose workers prepare just these variants (the demo plays one),
    stopped by `close`."""

    def __init__(self, pool: RenderPool | None = None, cache_size: int = PICTURES_KEPT, *,
                 only: Sequence[str] | None = None) -> None:
        self._own = False
        if pool is None and only is not None:
            from render.pool import RenderPool

            pool, self._own = RenderPool(prepare=tuple(only)), True
        self.pool = pool
        self.cache = PictureCache(cache_size)

    def close(self) -> None:
        """Stop the renderer's own pool, if it has one (the process-wide pool lives on)."""
        if getattr(self, "_own", False) and self.pool is not None:
            self.pool.close()

    def start(self) -> None:
        """Start the render workers now (each prepares the maps TTR_RENDER_PREPARE names)
        rather than at the first picture; the bot calls this when it starts."""
        from render.pool import default_pool

        (self.pool or default_pool()).start()

    async def board(self, view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), *,
                    colorblind: bool = False) -> bytes:
        from render.jobs import board_png

        assert view.you is None, "the board is public: render it from view(state, None)"
        return await self._draw(board_png, view, tuple(routes), tuple(cities), bool(colorblind), _table(view))

    async def hand(self, view: View, *, colorblind: bool = False) -> bytes:
        from render.jobs import hand_png

        return await self._draw(hand_png, view, bool(colorblind), _reader(view))

    async def zoom(self, view: View, *, city: str | None = None, route: str | None = None,
                   routes: Sequence[str] = (), cities: Sequence[str] = (), colorblind: bool = False) -> bytes:
        """The public board around a city (or a route's middle), enlarged for a phone; `routes`
        and `cities` mark the last move as on the board."""
        from render.jobs import zoom_png

        assert view.you is None, "a zoom is public: render it from view(state, None)"
        return await self._draw(zoom_png, view, city, route, tuple(routes), tuple(cities), bool(colorblind),
                                _table(view))

    async def offer(self, view: View) -> bytes:
        """The tickets offered to the view's player, on the map beside what they hold (a
        player's own view: it is theirs only)."""
        from render.jobs import offer_png

        assert view.you is not None, "an offer is private: render it from view(state, seat)"
        return await self._draw(offer_png, view, _reader(view))

    async def scores(self, view: View) -> bytes:
        from render.jobs import scores_png

        assert view.you is None
        return await self._draw(scores_png, view, _table(view))

    async def tickets(self, view: View) -> bytes:
        """Every player's tickets, completed and failed, on the map (a finished game's public
        view: the result reveals them)."""
        from render.jobs import tickets_png

        assert view.you is None
        return await self._draw(tickets_png, view, _table(view))

    async def replay(self, steps: Sequence[TimelineStep]) -> bytes:
        """The replay GIF of a finished game from its public timeline (at most 8 MB; drawn in
        the pool's slow lane, so that it never delays a turn post; not kept in the LRU)."""
        from render.jobs import replay_gif
        from render.pool import render_slow

        assert all(step.view.you is None for step in steps), "a replay shows public views only"
        words = _table(steps[-1].view) if steps else None
        return await render_slow(replay_gif, tuple(steps), words, pool=self.pool)

    async def stats(self, card: StatsCard) -> bytes:
        """A player's record on a server as a picture (`/ttr results stats`)."""
        from render.jobs import stats_png

        return await self._draw(stats_png, card, picture_words(reader().code))

    async def _draw(self, job: Callable[..., bytes], *args: Any) -> bytes:
        from render.pool import render_async

        key = PictureCache.key(job.__name__, *args)
        png = self.cache.get(key)
        if png is None:
            png = await render_async(job, *args, pool=self.pool)
            self.cache.put(key, png)
        return png


def _table(view: View) -> PictureWords:
    """A table's picture words: the table's language."""
    return picture_words(table_language(view.options).code)


def _reader(view: View) -> PictureWords:
    """A private picture's words: the reader's language, else the table's."""
    return picture_words(reader(table_language(view.options)).code)
