"""Words for Alsace's used cards going under the deck after every turn
(engine/rules/used_cards_under_deck.py): bookkeeping the log leaves out, a line of the rules."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Words, hidden, presents, quiet
from engine.rules.used_cards_under_deck import UsedCardsUnderDeck


@presents(UsedCardsUnderDeck)
class UsedCardsWords(Words):
    # Said after every turn: the rules say it once, the log never.
    events = {"discards_under_deck": quiet(), "shuffle": hidden()}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"cards": [c.t("rules.cards.under_deck")]}
