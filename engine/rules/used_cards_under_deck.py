"""Alsace: "Throughout the game, the used train cards should be shuffled and placed under the
deck." (seed [A:60]; AMBIGUITIES A9, reading (a)): at the end of every turn the discard pile
is shuffled and put under the draw deck. A draw that empties the deck still reshuffles the
discards in, as in the base game (core)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.rules.burn_five import put_discards_under_deck
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


@dataclass(frozen=True)
class UsedCardsUnderDeck(RuleModule):
    name: ClassVar[str] = "used_cards_under_deck"
    events: ClassVar[tuple[str, ...]] = ("discards_under_deck", "shuffle")
    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion (rules/README.md)

    def on_turn_end(self, game: Game) -> None:
        put_discards_under_deck(game)
