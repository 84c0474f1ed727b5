"""Words for the end-of-game bonuses (engine/rules/bonuses.py): the longest path and the most
completed tickets. Their score line is their label; here is what they are for."""

from __future__ import annotations

from bot_app.words.base import Ctx, Words, presents
from engine.rules.bonuses import LongestPathBonus, MostTicketsBonus


class BonusWords(Words):
    """A bonus: one sentence for the scoring topic ("Name: +N to …")."""

    WHAT = "…"

    def what(self, c: Ctx) -> str:
        """Who scores it, after "+N to"."""
        return self.WHAT

    def bonus_text(self, c: Ctx) -> str:
        label = getattr(self.module, "label", "Bonus")
        points = getattr(self.module, "points", 0)
        return f"{label}: +{points} for {self.what(c)}."

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"scoring": [self.bonus_text(c)]}

    def bonus_name(self) -> str:
        """"Longest Path +10", for the overview."""
        return f"{getattr(self.module, 'label', 'a bonus')} +{getattr(self.module, 'points', 0)}"


@presents(LongestPathBonus)
class LongestPathWords(BonusWords):
    WHAT = "the longest continuous line of your own trains (stations do not count)"


@presents(MostTicketsBonus)
class MostTicketsWords(BonusWords):
    WHAT = "the most completed tickets"
