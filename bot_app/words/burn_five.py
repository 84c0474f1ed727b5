"""Words for Alsace's "burn 5" (engine/rules/burn_five.py)."""

from __future__ import annotations

from bot_app.words.base import (
    Ctx,
    Doing,
    Event,
    Words,
    cards_text,
    count_of,
    data,
    hidden,
    plural,
    presents,
    private,
    public,
    quiet,
)
from engine.actions import Action
from engine.rules.burn_five import BurnFive, BurnFiveCards


def burned(e: Event, c: Ctx, who: str) -> str:
    drew = count_of(data(e, "drew"))
    return f"{who} burned 5 cards ({cards_text(data(e, 'burned') or {})}) and drew {plural(drew, 'new card')}"


def received(e: Event, c: Ctx, who: str) -> str:
    got = data(e, "cards") or {}
    return f"{who} drew {cards_text(got)}" if got else f"{who} drew no cards (the deck was empty)"


def burned_received(first: Event, second: Event, c: Ctx, who: str) -> str:
    got = data(second, "cards") or {}
    return (f"{who} burned 5 cards ({cards_text(data(first, 'burned') or {})}) and drew "
            f"{cards_text(got) if got else 'nothing (the deck was empty)'}")


def label(a: Action, c: Ctx) -> str:
    assert isinstance(a, BurnFive)
    return f"burn {cards_text(a.payment)} and draw 5 new cards"


@presents(BurnFiveCards)
class BurnFiveWords(Words):
    events = {"burned_five": public(burned), "cards_received": private(received),
              "discards_under_deck": quiet(), "shuffle": hidden()}
    folds = {("burned_five", "cards_received"): burned_received}
    actions = {"burn_five": Doing(label, "Burn 5", "🔥")}

    def turn_options(self, c: Ctx) -> list[str]:
        return ["**Burn 5**: discard any 5 of your train cards and draw 5 from the deck."]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"cards": ["Burn 5 (a whole turn): discard any 5 train cards, locomotives included, and draw 5 new "
                          "ones from the top of the deck."]}
