"""Words for the end-of-game bonuses (engine/rules/bonuses.py): the longest path and the most
completed tickets. Their score line is their label; here is what they are for."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Words, presents
from engine.rules.bonuses import LongestPathBonus, MostTicketsBonus


class BonusWords(Words):
    """A bonus: one sentence for the scoring topic ("Name: +N for …"); `WHAT` is the catalogue
    key of who scores it (`rules.bonus.…`)."""

    WHAT = "rules.bonus.longest_path"

    def what(self, c: Ctx) -> str:
        """Who scores it, after "+N for"."""
        return c.t(self.WHAT)

    def label(self, c: Ctx) -> str:
        """The bonus's name (its score line) in the reader's language, where a catalogue has it."""
        label = str(getattr(self.module, "label", "Bonus"))
        key = f"score.{label}"
        return c.t(key) if c.lang.has(key) else label

    def bonus_text(self, c: Ctx) -> str:
        points = getattr(self.module, "points", 0)
        return c.t("rules.bonus.text", label=self.label(c), points=points, what=self.what(c))

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"scoring": [self.bonus_text(c)]}

    def bonus_name(self, c: Ctx) -> str:
        """"Longest Path +10", for the overview."""
        return f"{self.label(c)} +{c.lang.number(getattr(self.module, 'points', 0))}"


@presents(LongestPathBonus)
class LongestPathWords(BonusWords):
    WHAT = "rules.bonus.longest_path"


@presents(MostTicketsBonus)
class MostTicketsWords(BonusWords):
    WHAT = "rules.bonus.most_tickets"
