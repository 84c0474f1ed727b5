"""How the bot turns views into PNG bytes: the real renderer off the event loop, or (for the
fuzz test only) a stub that returns a tiny PNG. `Renderer` is the seam; nothing else in the
bot imports `render`."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

# A 1×1 transparent PNG: what the stub renderer returns.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


class Renderer:
    """The real pictures, drawn in render's thread pool so the event loop never waits on Pillow.
    Every method takes a view: board and scores only ever get public views (`you` is None)."""

    async def board(self, view: Mapping[str, Any], routes: Sequence[str] = (), cities: Sequence[str] = ()) -> bytes:
        from render import render_async, render_board

        assert view.get("you") is None, "the board is public: render it from view(state, None)"
        pic = await render_async(render_board, dict(view), highlight_routes=tuple(routes),
                                 highlight_cities=tuple(cities))
        return pic.png

    async def hand(self, view: Mapping[str, Any]) -> bytes:
        from render import render_async, render_hand

        return (await render_async(render_hand, dict(view))).png

    async def scores(self, view: Mapping[str, Any]) -> bytes:
        from render import render_async, render_scores

        assert view.get("you") is None
        return (await render_async(render_scores, dict(view))).png


class StubRenderer(Renderer):
    """Tiny PNGs and no Pillow work: for the fuzz test, where thousands of interactions would
    otherwise spend their time drawing. Records what it was asked to draw."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def board(self, view: Mapping[str, Any], routes: Sequence[str] = (), cities: Sequence[str] = ()) -> bytes:
        assert view.get("you") is None
        self.calls.append("board")
        return TINY_PNG

    async def hand(self, view: Mapping[str, Any]) -> bytes:
        self.calls.append("hand")
        return TINY_PNG

    async def scores(self, view: Mapping[str, Any]) -> bytes:
        assert view.get("you") is None
        self.calls.append("scores")
        return TINY_PNG
