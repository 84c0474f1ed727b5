"""Words for Alsace's nine bonus cards (engine/rules/alsace_bonuses.py)."""

from __future__ import annotations

from bot_app.words.base import Ctx, presents
from bot_app.words.bonuses import BonusWords
from engine.rules.alsace_bonuses import (
    LeastIncompleteTicketsBonus,
    LongestTaggedPathBonus,
    MostVisitedBonus,
    TaggedRouteOwnerBonus,
)

VISITED = {
    "foreign_countries": "the most foreign countries visited (you visit a town when one of your own routes ends there)",
    "french_cities": "the most French towns visited",
    "french_regions": "the most French regions visited",
}


@presents(LongestTaggedPathBonus)
class LongestTaggedWords(BonusWords):
    WHAT = "the longest continuous line of your own routes along the edge of the board"


@presents(MostVisitedBonus)
class MostVisitedWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, MostVisitedBonus)
        return VISITED.get(module.counts, f"the most {module.counts.replace('_', ' ')} visited")


@presents(LeastIncompleteTicketsBonus)
class LeastIncompleteWords(BonusWords):
    WHAT = "everyone with the fewest failed tickets, 0 included (tourist cards are not tickets)"


@presents(TaggedRouteOwnerBonus)
class TaggedOwnerWords(BonusWords):
    def what(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, TaggedRouteOwnerBonus)
        pairs = {f"{c.city(r.a)} – {c.city(r.b)}": None for r in c.gmap.routes.values() if module.tag in r.tags}
        return f"everyone who owns a track of {' or '.join(pairs) or 'that route'}"
