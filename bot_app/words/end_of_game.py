"""Words for the usual end of the game (engine/rules/end_of_game.py)."""

from __future__ import annotations

from bot_app.words.base import Ctx, Words, plural, presents
from engine.rules.end_of_game import TrainsEndTrigger


@presents(TrainsEndTrigger)
class EndWords(Words):
    def topics(self, c: Ctx) -> dict[str, list[str]]:
        module = self.module
        assert isinstance(module, TrainsEndTrigger)
        return {"end": [
            f"When a player ends a turn with {plural(module.threshold, 'train')} or fewer, everyone — that player "
            "included — plays one more turn; then the game ends and the final scores are posted."]}
