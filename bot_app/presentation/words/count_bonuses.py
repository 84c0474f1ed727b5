"""Words for "most routes / tunnels / ferries" bonuses (engine/rules/count_bonuses.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, presents
from bot_app.presentation.words.bonuses import BonusWords
from engine.rules.count_bonuses import MostCountBonus


@presents(MostCountBonus)
class MostCountWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, MostCountBonus)
        counts = module.counts
        if counts.startswith("tag:"):
            return c.t("rules.bonus.most_tagged", tag=counts[4:])
        key = f"rules.bonus.most.{counts}"
        return c.t(key) if c.lang.has(key) else c.t("rules.bonus.most_of", what=counts)
