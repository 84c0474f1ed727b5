"""Words for Alsace's "burn 5" (engine/rules/burn_five.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import (
    Ctx,
    Doing,
    Event,
    Words,
    hidden,
    presents,
    private,
    public,
    quiet,
)
from engine.actions import Action
from engine.rules.burn_five import BurnedFive, BurnFive, BurnFiveCards, CardsReceived


def burned(e: Event, c: Ctx, who: str) -> str | None:
    burn = e.of(BurnedFive)
    if burn is None:
        return None
    return c.say("burn.burned", who, cards=c.cards(burn.burned), drew=c.n("burn.new_cards", burn.drew))


def received(e: Event, c: Ctx, who: str) -> str | None:
    got = e.of(CardsReceived)
    if got is None:
        return None
    return c.say("burn.received", who, cards=c.cards(got.cards)) if got.cards else c.say("burn.received_none", who)


def burned_received(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    burn, got = first.of(BurnedFive), second.of(CardsReceived)
    if burn is None or got is None:
        return None
    return c.say("burn.burned_received", who, cards=c.cards(burn.burned),
                 got=c.cards(got.cards) if got.cards else c.t("burn.nothing_empty"))


def label(a: Action, c: Ctx) -> str:
    assert isinstance(a, BurnFive)
    return c.t("burn.label", cards=c.cards(a.payment))


@presents(BurnFiveCards)
class BurnFiveWords(Words):
    events = {"burned_five": public(burned), "cards_received": private(received),
              "discards_under_deck": quiet(), "shuffle": hidden()}
    folds = {("burned_five", "cards_received"): burned_received}
    actions = {"burn_five": Doing(label, "Burn 5", "🔥", key="button.burn_five")}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("burn.option")]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"cards": [c.t("rules.burn_five")]}
