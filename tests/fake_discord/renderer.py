"""A renderer for tests and benches: tiny PNGs and no Pillow work, for runs where thousands of
interactions would otherwise spend their time drawing. It records what it was asked to draw."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot_app.presentation.render_hooks import Renderer
from engine.timeline import TimelineStep
from engine.view import View

if TYPE_CHECKING:
    from render.stats import StatsCard

# A 1×1 transparent PNG: what the stub renderer returns.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
# A 1×1 GIF: what the stub renderer returns for a replay.
TINY_GIF = base64.b64decode("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")



@dataclass(frozen=True)
class Drawn:
    """One picture the stub was asked for."""

    kind: str  # "board", "zoom", "hand", "offer", "scores", "tickets", "replay" or "stats"
    game_id: int | None
    seat: int | None  # whose hand (None: a public picture)
    colorblind: bool = False


class StubRenderer(Renderer):
    """The bot's `Renderer` seam answered with TINY_PNG; `calls` lists "board", "hand",
    "scores" in the order they were asked for, and `asked` the same with what each was asked
    for (the game, whose view, and the colour-blind flag)."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.asked: list[Drawn] = []
        self.replayed: list[int] = []  # the number of pictures of each replay asked for
        self.cards: list[StatsCard] = []  # the stats pictures asked for
        self.zoomed: list[str] = []  # the city or route each zoom was asked around

    def start(self) -> None:
        """Nothing to start: the stub draws nothing."""

    async def board(self, view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), *,
                    colorblind: bool = False) -> bytes:
        assert view.you is None
        self.calls.append("board")
        self.asked.append(Drawn("board", view.game_id, None, colorblind))
        return TINY_PNG

    async def hand(self, view: View, *, colorblind: bool = False) -> bytes:
        self.calls.append("hand")
        self.asked.append(Drawn("hand", view.game_id, view.you, colorblind))
        return TINY_PNG

    async def zoom(self, view: View, *, city: str | None = None, route: str | None = None,
                   routes: Sequence[str] = (), cities: Sequence[str] = (), colorblind: bool = False) -> bytes:
        assert view.you is None
        self.calls.append("zoom")
        self.asked.append(Drawn("zoom", view.game_id, None, colorblind))
        self.zoomed.append(city or route or "")
        return TINY_PNG

    async def offer(self, view: View) -> bytes:
        assert view.you is not None
        self.calls.append("offer")
        self.asked.append(Drawn("offer", view.game_id, view.you))
        return TINY_PNG

    async def scores(self, view: View) -> bytes:
        assert view.you is None
        self.calls.append("scores")
        self.asked.append(Drawn("scores", view.game_id, None))
        return TINY_PNG

    async def tickets(self, view: View) -> bytes:
        assert view.you is None
        self.calls.append("tickets")
        self.asked.append(Drawn("tickets", view.game_id, None))
        return TINY_PNG

    async def replay(self, steps: Sequence[TimelineStep]) -> bytes:
        assert steps and all(step.view.you is None for step in steps)
        self.calls.append("replay")
        self.asked.append(Drawn("replay", steps[-1].view.game_id, None))
        self.replayed.append(len(steps))
        return TINY_GIF

    async def stats(self, card: StatsCard) -> bytes:
        self.calls.append("stats")
        self.asked.append(Drawn("stats", None, None))
        self.cards.append(card)
        return TINY_PNG
