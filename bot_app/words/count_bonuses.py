"""Words for "most routes / tunnels / ferries" bonuses (engine/rules/count_bonuses.py)."""

from __future__ import annotations

from bot_app.words.base import Ctx, presents
from bot_app.words.bonuses import BonusWords
from engine.rules.count_bonuses import MostCountBonus


@presents(MostCountBonus)
class MostCountWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, MostCountBonus)
        counts = module.counts
        thing = counts[4:] + " routes" if counts.startswith("tag:") else counts
        return f"the most {thing} held at the end"
