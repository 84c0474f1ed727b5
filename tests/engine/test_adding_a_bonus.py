"""Adding a score-only bonus card is adding its parts, with no other file changed
(docs/architecture.md, "Worked examples", b): this file declares a bonus the game never had —
"Short hauls": 6 points to whoever holds the most routes of one or two spaces — and its words,
here and nowhere else. A rule set with it scores it on its own score line, names it in the final
results and in `/ttr rules` (scoring), and the overview lists it, in every language (a language
without the words reads the English ones)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

import pytest

from bot_app.lang import language
from bot_app.presentation.words.base import _REGISTRY, Ctx, presents
from bot_app.presentation.words.bonuses import BonusWords
from bot_app.presentation.words.wording import Wording
from engine.game import load_game, new_game
from engine.rules.bonuses import award_most
from engine.rules.module import RuleModule
from engine.rulesets import build_ruleset
from engine.scoring import final_scores

if TYPE_CHECKING:
    from engine.core import Game


@dataclasses.dataclass(frozen=True)
class ShortHaulsBonus(RuleModule):
    """`points` to the player(s) holding the most routes of one or two spaces."""

    name: ClassVar[str] = "short_hauls"
    points: int = 6
    label: str = "Short hauls"

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        routes = game.map.routes
        award_most(sheets, [sum(1 for r in game.player(s["seat"]).routes if routes[r].length <= 2) for s in sheets],
                   self.label, self.points)


class ShortHaulsWords(BonusWords):
    def what(self, c: Ctx) -> str:
        return "the most routes of one or two spaces"


@pytest.fixture
def short_hauls() -> Iterator[ShortHaulsBonus]:
    """The bonus's words registered for this test only (the words registry is the process's)."""
    presents(ShortHaulsBonus)(ShortHaulsWords)
    yield ShortHaulsBonus()
    _REGISTRY.pop(ShortHaulsBonus, None)


def _usa_with(bonus: RuleModule):
    usa = build_ruleset("usa", 2)
    return dataclasses.replace(usa, name="usa_short_hauls", modules=(*usa.modules, bonus))


def _ended(rules) -> Game:
    state, _ = new_game("usa_short_hauls", 2, seed=4, rules=rules)
    state.status, state.pending = "over", {}
    short = [rid for rid, r in sorted(rules.game_map.routes.items()) if r.length <= 2][:3]
    long_ = [rid for rid, r in sorted(rules.game_map.routes.items()) if r.length >= 5][:1]
    state.players[0].routes, state.players[1].routes = short, long_
    for seat, player in enumerate(state.players):
        for rid in player.routes:
            state.route_owner[rid] = seat
            state.route_scored[rid] = 1
    return load_game(state, rules=rules)


def test_the_bonus_scores_on_a_line_of_its_own(short_hauls):
    result = final_scores(_ended(_usa_with(short_hauls)))
    first, second = result["sheets"]
    assert first["lines"]["Short hauls"] == 6 and first["bonuses"]["Short hauls"] == 6
    assert "Short hauls" not in second["lines"]
    assert sum(first["lines"].values()) == first["total"]


def test_the_final_results_name_its_line(short_hauls):
    rules = _usa_with(short_hauls)
    sheet = final_scores(_ended(rules))["sheets"][0]
    lines = dict(Wording(rules).score_lines(sheet))
    assert lines["Short hauls"] == 6


def test_the_rules_explain_it_in_every_language(short_hauls):
    rules = _usa_with(short_hauls)
    wording = Wording(rules)
    for code in ("en", "de", "fr", "ru", "sv"):
        c = wording.ctx(lang=language(code))
        said = ShortHaulsWords(short_hauls).bonus_text(c)
        assert "Short hauls" in said and "6" in said and "one or two spaces" in said, (code, said)
    topics = wording.topics()
    assert "Short hauls" in topics["scoring"] and "the most routes of one or two spaces" in topics["scoring"]
    assert "Longest Path +10 and Short hauls +6" in topics["overview"]


def test_without_its_words_the_rule_set_is_refused_by_name():
    """A bonus with no words is found at once, not in a player's final post."""
    with pytest.raises(LookupError, match="ShortHaulsBonus has no words"):
        Wording(_usa_with(ShortHaulsBonus()))
