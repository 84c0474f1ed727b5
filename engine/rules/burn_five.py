"""Alsace: "burn 5" (seed [A:58]; AMBIGUITIES A8).

A whole turn: discard exactly 5 train cards of the player's choice (locomotives allowed) to the
discard pile, then draw 5 from the top of the deck. If the deck runs short, the discards (the
5 just burned included) are first shuffled under the deck (A9); if still short, the player
draws what exists. Needs at least 5 train cards in hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, register
from engine.cards import Cards, cards, count, has_cards
from engine.core import Shuffle
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class BurnedFive(Payload):
    kind = "burned_five"
    player: int
    burned: dict[str, int]
    drew: int


@dataclass(frozen=True, kw_only=True)
class CardsReceived(Payload):
    kind = "cards_received"
    cards: dict[str, int]
    source: str


@dataclass(frozen=True, kw_only=True)
class DiscardsUnderDeck(Payload):
    kind = "discards_under_deck"
    size: int



@register
@dataclass(slots=True, unsafe_hash=True)
class BurnFive(Action):
    """Discard these 5 train cards and draw 5 new ones."""

    TYPE: ClassVar[str] = "burn_five"
    DOES: ClassVar[str] = "burn 5 train cards"
    payment: Cards = ()


def _multisets(hand: list[tuple[str, int]], size: int) -> list[Cards]:
    """Every set of `size` cards from `hand` (sorted (name, count) pairs), each in canonical
    form, larger counts of earlier names first.

    This runs for every turn of every Alsace game, and a hand of 30 cards holds a thousand
    such sets, so they are built bottom-up as canonical tuples (the hand is sorted, so the
    pairs come out in order) rather than by a recursion per set: `row[left]` holds the sets
    of `left` cards from the names after the current one."""
    before = [0]  # before[i]: the cards of the names ahead of name i
    for _, have in hand:
        before.append(before[-1] + have)
    nothing: Cards = ()
    row: list[list[Cards]] = [[nothing]] + [[] for _ in range(size)]
    for i in range(len(hand) - 1, -1, -1):
        name, have = hand[i]
        lowest = max(0, size - before[i])  # fewer cards here can never be made up ahead
        new: list[list[Cards]] = [[] for _ in range(size + 1)]
        for left in range(lowest, size + 1):
            sets = new[left]
            for k in range(min(have, left), 0, -1):
                head = ((name, k),)
                sets.extend([head + rest for rest in row[left - k]])
            sets.extend(row[left])
        row = new
    return row[size]


@dataclass(frozen=True)
class BurnFiveCards(RuleModule):
    name: ClassVar[str] = "burn_five"
    events: ClassVar[tuple[str, ...]] = ("burned_five", "cards_received", "discards_under_deck", "shuffle")
    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion (rules/README.md)
    actions: ClassVar = {"turn": (BurnFive,)}

    size: int = 5

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        hand = game.player(seat).hand
        if sum(hand.values()) < self.size:
            return []
        return [BurnFive(seat, c) for c in _multisets(sorted(hand.items()), self.size)]

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, BurnFive)
        seat = action.player
        payment = cards(dict(action.payment)) if action.payment else ()
        if count(payment) != self.size:
            raise IllegalAction(f"Burn exactly {self.size} train cards.", "bad_burn")
        if not has_cards(game.player(seat).hand, payment):
            raise IllegalAction("You do not hold those cards.", "missing_cards")
        game.take_cards(seat, payment)
        game.discard_cards(payment)
        s = game.state
        if len(s.deck) < self.size and s.discard:
            put_discards_under_deck(game)
        drawn: dict[str, int] = {}
        for _ in range(self.size):
            card = game.draw_train_card()
            if card is None:
                break
            drawn[card] = drawn.get(card, 0) + 1
        game.give_cards(seat, cards(drawn))
        game.emit(BurnedFive(player=seat, burned=dict(payment), drew=sum(drawn.values())))
        game.tell(seat, CardsReceived(cards=drawn, source="burn_five"))
        game.end_turn()


def put_discards_under_deck(game: Game) -> None:
    """A9: shuffle the used train cards and place them under the deck (the deck's order is
    kept; its bottom is the start of the list)."""
    s = game.state
    if not s.discard:
        return
    used = list(s.discard)
    game.chance.shuffle(used)
    s.deck = used + s.deck
    s.discard = []
    game.emit(DiscardsUnderDeck(size=len(used)))
    game.record(Shuffle(discards=len(used), rng=game.rng.state))
