"""Words for drawing train cards (engine/rules/train_cards.py): the draws, the face-up display
and its flush, the cards in a hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_app.presentation.words.base import (
    CARD_EMOJI,
    YOU,
    Ctx,
    Doing,
    Event,
    Words,
    hidden,
    plural,
    presents,
    private,
    public,
    quiet,
)
from engine.actions import Action, DrawCard
from engine.cards import LOCO, card_word
from engine.rules.train_cards import CardDrawn, CardReceived, DisplayFlushed, HandDealt, TrainCardDraw


def _face_up(card: Any) -> str:
    return "face-up locomotive" if card == LOCO else f"face-up {card_word(card) if isinstance(card, str) else 'card'}"


def _card_name(c: Ctx, card: Any) -> str:
    """A card as a face-up one is named: its colour, "locomotive", or "card"."""
    return c.card(card) if isinstance(card, str) else c.t("cards.card")


def _card_drawn(e: Event, c: Ctx, who: str) -> str | None:
    drew = e.of(CardDrawn)
    if drew is None:
        return None
    if drew.source == "display":
        return c.say("cards.took_face_up", who, card=_card_name(c, drew.card))
    return c.say("cards.drew_deck", who)


def _two_draws(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    one, two = first.of(CardDrawn), second.of(CardDrawn)
    if one is None or two is None or one.player != two.player:
        return None
    shown = [d.card for d in (one, two) if d.source == "display"]
    if len(shown) == 2:
        return c.say("cards.took_two_face_up", who, cards=c.joined(_card_name(c, x) for x in shown))
    if not shown:
        return c.say("cards.drew_two_deck", who)
    key = "cards.drew_deck_then_face_up" if one.source != "display" else "cards.drew_face_up_then_deck"
    return c.say(key, who, card=_card_name(c, shown[0]))


def _card_received(e: Event, c: Ctx, who: str) -> str | None:
    got = e.of(CardReceived)
    if got is None:
        return None
    return c.say("cards.drew_card_deck", who, card=c.card_a(got.card))


def _two_received(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    one, two = first.of(CardReceived), second.of(CardReceived)
    if one is None or two is None:
        return None
    return c.say("cards.drew_two_cards_deck", who, first=c.card_a(one.card), second=c.card_a(two.card))


def hand_words(hand: Mapping[str, int], c: Ctx | None = None) -> str:
    """A hand of cards: "🟥 3 red · 🌈 1 locomotive" (in `c`'s language, else English)."""
    order = [*CARD_EMOJI]
    items = sorted(((k, n) for k, n in hand.items() if n), key=lambda kv: (order.index(kv[0])
                                                                            if kv[0] in order else 99, kv[0]))
    if c is None:
        return " · ".join(f"{CARD_EMOJI.get(k, '')} {n} {card_word(k, n)}".strip() for k, n in items) or "none"
    return " · ".join(f"{CARD_EMOJI.get(k, '')} {c.lang.number(n)} {c.card(k, n)}".strip()
                      for k, n in items) or c.t("cards.none_held")


def _hand_dealt(e: Event, c: Ctx, who: str) -> str | None:
    dealt = e.of(HandDealt)
    if dealt is None:
        return None
    hand = dealt.hand
    n = sum(hand.values())
    if who == YOU:
        return c.n("cards.dealt.you", n, hand=hand_words(hand, c))
    return f"{who} were dealt {plural(n, 'train card')}: {hand_words(hand)}"


def _flushed(e: Event, c: Ctx, who: str) -> str | None:
    flush = e.of(DisplayFlushed)
    if flush is None:
        return None
    old = flush.discarded
    new = " ".join(CARD_EMOJI.get(x, "?") for x in flush.display if x)
    rule = c.rules.module("train_cards")
    flush_cards = getattr(rule, "flush_cards", ()) or ()
    if any(x in flush_cards for x in old):
        return c.t("cards.flushed_controller", now=new or c.t("cards.none_held"))
    return c.n("cards.flushed", old.count(LOCO), now=new or c.t("cards.none_held"))


def _no_second(e: Event, c: Ctx, who: str) -> str:
    return c.say("cards.no_second", who)


def _slot_card(view: Any, slot: int | None) -> str | None:
    if slot is None or view is None or not 0 <= slot < len(view.display):
        return None
    return view.display[slot]


def _draw_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, DrawCard)
    if a.slot is None:
        return c.t("cards.draw_blind_label")
    card = _slot_card(c.view, a.slot)
    slot = str(a.slot + 1)
    if c.lang.code == "en":  # as before: a card name no colour has is said as card_word says it
        return f"take the {_face_up(card)} (slot {slot})" if card else f"take the face-up card in slot {slot}"
    if not card:
        return c.t("cards.take_slot_label", slot=slot)
    return c.t("cards.take_face_up_label", card=_card_name(c, card), slot=slot)


@presents(TrainCardDraw)
class TrainCards(Words):
    events = {
        "shuffle": hidden(),
        "hand_dealt": private(_hand_dealt),
        "display_refilled": quiet(),
        "display_flushed": public(_flushed),
        "card_drawn": public(_card_drawn),
        "card_received": private(_card_received),
        "no_second_card": public(_no_second),
    }
    folds = {("card_drawn", "card_drawn"): _two_draws, ("card_received", "card_received"): _two_received,
             # told to the drawer: the card they drew says it all
             ("card_drawn", "card_received"): lambda first, second, c, who: _card_received(second, c, who)}
    actions = {"draw_card": Doing(_draw_label, "Draw", "🃏", "primary", key="button.draw")}
    waiting = {"second_card": lambda c, who: c.t("waiting.second_card", who=who)}

    @property
    def r(self) -> TrainCardDraw:
        assert isinstance(self.module, TrainCardDraw)
        return self.module

    def status(self, c: Ctx, seat: int) -> list[str]:
        return [c.n("status.cards", c.v.players[seat].hand_size)]

    def table(self, c: Ctx) -> list[str]:
        shown = " · ".join(f"{CARD_EMOJI.get(x, '')} {c.card(x)}".strip() for x in c.v.display if x)
        return [c.n("status.face_up", c.v.deck, shown=shown or c.t("cards.none_held"))]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        hand = dict(me.hand or {})
        return [c.n("hand.cards", sum(hand.values()), hand=hand_words(hand, c))]

    def at_hand(self, c: Ctx) -> list[str]:
        return self.hand(c)

    def turn_options(self, c: Ctx) -> list[str]:
        r = self.r
        if r.faceup_loco_whole_draw:
            how = c.t("rules.cards.loco_whole" if r.faceup_loco_second else "rules.cards.loco_whole_never_second")
        elif r.faceup_loco_second:
            how = c.t("rules.cards.loco_ordinary")
        else:
            how = c.t("rules.cards.loco_first")
        return [c.t("rules.option.draw", how=how)]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        r = self.r
        deck: dict[str, int] = {}
        for name, n in r.deck:
            deck[name] = deck.get(name, 0) + n
        colours = [k for k in deck if k not in (LOCO, "controller")]
        size = sum(deck.values())
        parts = [c.n("rules.cards.each_colour", len(colours), each=deck[colours[0]]) if colours and
                 len({deck[k] for k in colours}) == 1 else c.joined(f"{c.lang.number(deck[k])} {c.card(k, deck[k])}"
                                                                    for k in colours)]
        if deck.get(LOCO):
            parts.append(c.n("rules.cards.locos", deck[LOCO]))
        if deck.get("controller"):
            parts.append(c.n("rules.cards.controllers", deck["controller"]))
        text = [c.t("rules.cards.deck", size=size, parts=c.joined(parts), hand=r.hand_size, shown=r.display_size)]
        if r.flush_locos is None:
            text.append(c.t("rules.cards.never_replaced"))
        else:
            text.append(c.t("rules.cards.flush", locos=r.flush_locos, shown=r.display_size))
        if r.flush_cards:
            text.append(c.t("rules.cards.controller_flush"))
        text.append(self.turn_options(c)[0])
        return {"cards": text}
