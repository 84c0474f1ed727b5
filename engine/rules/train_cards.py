"""Drawing train cards: the deck, the starting hands, the face-up display and its flush."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, DrawCard
from engine.cards import COLOURS, LOCO
from engine.core import Shuffle
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload, absent
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class SecondCard(Decision):
    """The current player drew one card and may draw a second."""

    kind = "second_card"



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class HandDealt(Payload):
    kind = "hand_dealt"
    hand: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class DisplayRefilled(Payload):
    kind = "display_refilled"
    slot: int
    card: str | None


@dataclass(frozen=True, kw_only=True)
class DisplayFlushed(Payload):
    kind = "display_flushed"
    discarded: list[str]
    display: list[str | None]


@dataclass(frozen=True, kw_only=True)
class CardDrawn(Payload):
    kind = "card_drawn"
    player: int
    source: str  # "deck" or "display"
    slot: int | None = absent()  # a face-up card only
    card: str | None = absent()  # a face-up card only


@dataclass(frozen=True, kw_only=True)
class CardReceived(Payload):
    kind = "card_received"
    card: str
    source: str


@dataclass(frozen=True, kw_only=True)
class NoSecondCard(Payload):
    kind = "no_second_card"
    player: int


STANDARD_DECK: tuple[tuple[str, int], ...] = tuple((c, 12) for c in COLOURS) + ((LOCO, 14),)


@dataclass(frozen=True)
class TrainCardDraw(RuleModule):
    """Take two train cards, from the display or blind.

    - `faceup_loco_whole_draw`: a face-up locomotive taken first is the whole draw.
    - `faceup_loco_second`: a face-up locomotive may be the second card.
    - `flush_locos`: that many face-up locomotives flush the display (None: never).
    - `flush_cards`: cards that flush the display as soon as they show (USSR Controller).
    - `max_flushes`: when the cards in the game cannot give a clean display at all, stop after
      this many flushes in a row and leave the display as it is (U3). While a clean display is
      possible, flushing goes on ("repeat if needed").
    """

    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion
    name: ClassVar[str] = "train_cards"
    events: ClassVar[tuple[str, ...]] = (
        "shuffle", "hand_dealt", "display_refilled", "display_flushed", "card_drawn", "card_received",
        "no_second_card")
    actions: ClassVar = {"turn": (DrawCard,), "second_card": (DrawCard,)}
    prompts: ClassVar = {"second_card": "take your second card"}

    deck: tuple[tuple[str, int], ...] = STANDARD_DECK
    hand_size: int = 4
    display_size: int = 5
    faceup_loco_whole_draw: bool = True
    faceup_loco_second: bool = False
    flush_locos: int | None = 3
    flush_cards: tuple[str, ...] = ()
    max_flushes: int = 3

    # --- setup --------------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        s = game.state
        s.deck = [name for name, n in self.deck for _ in range(n)]
        game.chance.shuffle(s.deck)
        game.record(Shuffle(deck=len(s.deck), rng=game.rng.state))
        for _ in range(self.hand_size):
            for p in s.players:
                card = game.draw_train_card()
                if card is not None:
                    p.hand[card] = p.hand.get(card, 0) + 1
        for p in s.players:
            game.tell(p.seat, HandDealt(hand=dict(sorted(p.hand.items()))))
        s.display = [None] * self.display_size
        self.refill_display(game)

    # --- the display --------------------------------------------------------------------
    def needs_flush(self, display: list[str | None]) -> bool:
        if self.flush_cards and any(card in self.flush_cards for card in display):
            return True
        return self.flush_locos is not None and display.count(LOCO) >= self.flush_locos

    def clean_display_possible(self, game: Game) -> bool:
        """Whether the train cards in play (deck, discards, display) could make a display
        that does not need flushing."""
        s = game.state
        cards = s.deck + s.discard + [c for c in s.display if c is not None]
        locos = cards.count(LOCO)
        flushing = sum(1 for c in cards if c in self.flush_cards)
        clean = len(cards) - locos - flushing
        size = min(self.display_size, len(cards))
        allowed_locos = locos if self.flush_locos is None else min(locos, self.flush_locos - 1)
        return clean + allowed_locos >= size

    def refill_display(self, game: Game) -> None:
        """Fill empty slots from the deck, then flush while the rules ask for it."""
        s = game.state
        for slot, card in enumerate(s.display):
            if card is None:
                s.display[slot] = game.draw_train_card()
                if s.display[slot] is not None:
                    game.emit(DisplayRefilled(slot=slot, card=s.display[slot]))
        flushes = 0
        while self.needs_flush(s.display):
            if flushes >= self.max_flushes and not self.clean_display_possible(game):
                break
            flushes += 1
            old = [card for card in s.display if card is not None]
            s.discard.extend(old)
            s.display = [None] * self.display_size
            for slot in range(self.display_size):
                s.display[slot] = game.draw_train_card()
            game.emit(DisplayFlushed(discarded=old, display=list(s.display)))

    # --- drawing ------------------------------------------------------------------------
    def _second_card_slots(self, game: Game) -> list[int]:
        display = game.state.display
        return [
            slot
            for slot, card in enumerate(display)
            if card is not None and (card != LOCO or self.faceup_loco_second)
        ]

    def can_draw_second(self, game: Game) -> bool:
        return game.train_cards_available() > 0 or bool(self._second_card_slots(game))

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        s = game.state
        kind = s.pending.get("kind")
        if kind == "turn":
            slots = [slot for slot, card in enumerate(s.display) if card is not None]
        else:
            slots = self._second_card_slots(game)
        out: list[Action] = [DrawCard(seat, slot) for slot in slots]
        if game.train_cards_available():
            out.append(DrawCard(seat, None))
        return out

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, DrawCard)
        s = game.state
        first = s.pending.get("kind") == "turn"
        seat = action.player
        player = game.player(seat)
        if action.slot is None:
            card = game.draw_train_card()
            if card is None:
                raise IllegalAction("The train deck and the discard pile are both empty.", "deck_empty")
            player.hand[card] = player.hand.get(card, 0) + 1
            game.emit(CardDrawn(player=seat, source="deck"))
            game.tell(seat, CardReceived(card=card, source="deck"))
            ends_draw = not first
        else:
            if not 0 <= action.slot < len(s.display) or s.display[action.slot] is None:
                raise IllegalAction(f"There is no face-up card in slot {action.slot + 1}.", "no_such_card")
            card = s.display[action.slot]
            assert card is not None
            if card == LOCO and not first and not self.faceup_loco_second:
                raise IllegalAction(
                    "A face-up locomotive cannot be your second card; take another card.", "loco_second"
                )
            s.display[action.slot] = None
            player.hand[card] = player.hand.get(card, 0) + 1
            game.emit(CardDrawn(player=seat, source="display", slot=action.slot, card=card))
            ends_draw = not first or (card == LOCO and self.faceup_loco_whole_draw)
            self.refill_display(game)
        if not ends_draw and not self.can_draw_second(game):
            game.emit(NoSecondCard(player=seat))
            ends_draw = True
        if ends_draw:
            game.end_turn()
        else:
            game.set_pending("second_card")
