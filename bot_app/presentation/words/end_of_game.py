"""Words for the usual end of the game (engine/rules/end_of_game.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Words, presents
from engine.rules.end_of_game import TrainsEndTrigger


@presents(TrainsEndTrigger)
class EndWords(Words):
    def topics(self, c: Ctx) -> dict[str, list[str]]:
        module = self.module
        assert isinstance(module, TrainsEndTrigger)
        return {"end": [c.n("rules.end", module.threshold)]}
