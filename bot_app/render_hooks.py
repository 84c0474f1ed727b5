"""How the bot turns views into PNG bytes: the real renderer, off the event loop. `Renderer` is
the seam (tests pass tests.fake_discord.renderer.StubRenderer instead); nothing else in the
bot imports `render`.

`colorblind` comes from the players' settings (`/ttr settings colorblind:`): a hand picture
gets marks when its player has them on, the public board when anyone seated at the table has.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from engine.view import View


@cache
def _takes_colorblind(draw: Callable[..., Any]) -> bool:
    """Whether a render function accepts `colorblind=` (the board does; the hand picture's own
    marks are being added beside this seam, and the flag reaches it as soon as it takes it)."""
    return "colorblind" in inspect.signature(draw).parameters


class Renderer:
    """The real pictures, drawn in render's thread pool so the event loop never waits on Pillow.
    Every method takes a view: board and scores only ever get public views (`you` is None)."""

    async def board(self, view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), *,
                    colorblind: bool = False) -> bytes:
        from render import render_async, render_board

        assert view.you is None, "the board is public: render it from view(state, None)"
        pic = await render_async(render_board, view, highlight_routes=tuple(routes),
                                 highlight_cities=tuple(cities), colorblind=colorblind)
        return pic.png

    async def hand(self, view: View, *, colorblind: bool = False) -> bytes:
        from render import render_async, render_hand

        if colorblind and _takes_colorblind(render_hand):
            return (await render_async(render_hand, view, colorblind=True)).png
        return (await render_async(render_hand, view)).png

    async def scores(self, view: View) -> bytes:
        from render import render_async, render_scores

        assert view.you is None
        return (await render_async(render_scores, view)).png
