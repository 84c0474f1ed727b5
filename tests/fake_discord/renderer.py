"""A renderer for tests and benches: tiny PNGs and no Pillow work, for runs where thousands of
interactions would otherwise spend their time drawing. It records what it was asked to draw."""

from __future__ import annotations

import base64
from collections.abc import Sequence

from bot_app.render_hooks import Renderer
from engine.view import View

# A 1×1 transparent PNG: what the stub renderer returns.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


class StubRenderer(Renderer):
    """The bot's `Renderer` seam answered with TINY_PNG; `calls` lists "board", "hand",
    "scores" in the order they were asked for."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def board(self, view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), *,
                    colorblind: bool = False) -> bytes:
        assert view.you is None
        self.calls.append("board")
        return TINY_PNG

    async def hand(self, view: View, *, colorblind: bool = False) -> bytes:
        self.calls.append("hand")
        return TINY_PNG

    async def scores(self, view: View) -> bytes:
        assert view.you is None
        self.calls.append("scores")
        return TINY_PNG
