"""Words for Alsace's nine bonus cards (engine/rules/alsace_bonuses.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, presents
from bot_app.presentation.words.bonuses import BonusWords
from engine.rules.alsace_bonuses import (
    LeastIncompleteTicketsBonus,
    LongestTaggedPathBonus,
    MostVisitedBonus,
    TaggedRouteOwnerBonus,
)

# What each "most visited" bonus counts, by its catalogue key (`rules.bonus.visited.<counts>`).
VISITED = ("foreign_countries", "french_cities", "french_regions")


@presents(LongestTaggedPathBonus)
class LongestTaggedWords(BonusWords):
    WHAT = "rules.bonus.perimeter"


@presents(MostVisitedBonus)
class MostVisitedWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, MostVisitedBonus)
        if module.counts in VISITED:
            return c.t(f"rules.bonus.visited.{module.counts}")
        return c.t("rules.bonus.visited", what=module.counts.replace("_", " "))


@presents(LeastIncompleteTicketsBonus)
class LeastIncompleteWords(BonusWords):
    WHAT = "rules.bonus.least_incomplete"


@presents(TaggedRouteOwnerBonus)
class TaggedOwnerWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, TaggedRouteOwnerBonus)
        pairs = {f"{c.city(r.a)} – {c.city(r.b)}": None for r in c.gmap.routes.values() if module.tag in r.tags}
        if not pairs:
            return c.t("rules.bonus.owner_of_that")
        return c.t("rules.bonus.owner", routes=f" {c.t('rules.word.or')} ".join(pairs))
