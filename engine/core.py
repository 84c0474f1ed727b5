"""The working copy every rule module receives: `Game`.

A `Game` wraps one state with its rule set, its board, its source of chance and the events
being collected, and knows what every rule set shares: the seats, the train deck, turns and
the final round, passing when nothing else can be done, the end of the game. Everything a rule
set adds or changes lives in the rule modules of its `RuleSet` (engine/rules/), which `Game`
loops over; there is no `if variant == …` here.

This module imports no rule and no rule set (only their types), so every rule may import it
without a circle; the facade that starts and advances games (engine/game.py) sits above the
rules and hands each `Game` the rule set it was built with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from engine.actions import Action, Pass
from engine.cards import Cards
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import HIDDEN, PRIVATE, PUBLIC, Event, Payload, absent
from engine.rng import Rng
from engine.scoring import final_scores
from engine.state import GameState, PlayerState, copy_data

if TYPE_CHECKING:
    from engine.chance import Chance, ChanceSource
    from engine.maps import GameMap
    from engine.ruleset import RuleSet


T = TypeVar("T")


# --- the core's own decision ----------------------------------------------------------------
@dataclass(frozen=True)
class Turn(Decision):
    """The current player takes their turn."""

    kind = "turn"
    is_turn = True


# --- the core's own events (engine/rules/module.py CORE_EVENTS) ---------------------------------
DEADLOCK = "Nobody can do anything any more, so the game ends."


@dataclass(frozen=True, kw_only=True)
class GameStarted(Payload):
    kind = "game_started"
    variant: str
    players: int
    first_player: int


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Payload):
    kind = "turn_started"
    player: int
    turn: int


@dataclass(frozen=True, kw_only=True)
class DeckReshuffled(Payload):
    kind = "deck_reshuffled"
    size: int


@dataclass(frozen=True, kw_only=True)
class Shuffle(Payload):
    """A hidden record of a shuffle: what was shuffled (each shuffle names its own piles) and
    the generator's state after it."""

    kind = "shuffle"
    deck: int | None = absent()
    passengers: int | None = absent()
    discards: int | None = absent()
    tickets: int | str | None = absent()  # a count, or the deck shuffled (Germany)
    tourist: int | None = absent()
    rng: int


@dataclass(frozen=True, kw_only=True)
class FinalRound(Payload):
    kind = "final_round"
    player: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class GameOver(Payload):
    kind = "game_over"
    result: dict[str, Any] | None


@dataclass(frozen=True, kw_only=True)
class Passed(Payload):
    kind = "passed"
    player: int


@dataclass(frozen=True, kw_only=True)
class Deadlock(Payload):
    kind = "deadlock"
    text: str


@dataclass(frozen=True, kw_only=True)
class MoveUndone(Payload):
    kind = "move_undone"
    player: int
    turn: int


# The kinds the core emits itself whatever the rule set (engine/undo.py's too): those declared here.
CORE_EVENTS: tuple[str, ...] = tuple(k for k, cls in Payload.registry.items() if cls.__module__ == __name__)


class Game:
    """A mutable working copy of a state, with the map, the rules, chance and the events
    being collected. Rule modules receive one of these and change it in place.

    Everything random draws from `chance` (engine/chance.py): the game's own generator `rng`,
    unless a `ChanceSource` (a test's rigged dice) is given. Only `rng` is saved in the state
    (`finish`); rules read it for nothing but the hidden shuffle records."""

    def __init__(self, state: GameState, rules: RuleSet, game_map: GameMap, chance: ChanceSource | None = None) -> None:
        self.state = state
        self.rules = rules
        self.map = game_map
        self.rng = Rng(state.rng)
        self.chance: Chance = self.rng if chance is None else chance.over(self.rng)
        self.events: list[Event] = []
        # Set when the end is triggered during this action, so that the triggering turn itself
        # does not count as one of the final turns.
        self.triggered_now = False
        # Set when this action did something that cannot be taken back without the mover
        # knowing more than before: a card left the top of a hidden pile, the discards became
        # the new deck, a die was rolled or a random pick made (engine/undo.py).
        self.irreversible = False

    # --- people -------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.state.players)

    def player(self, seat: int) -> PlayerState:
        return self.state.players[seat]

    def name(self, seat: int) -> str:
        names = self.state.names
        return names[seat] if seat < len(names) and names[seat] else f"Player {seat + 1}"

    # --- events -------------------------------------------------------------------------
    def emit(self, payload: Payload) -> None:
        """A public event."""
        self.events.append(Event(payload, PUBLIC))

    def tell(self, seat: int, payload: Payload) -> None:
        """An event only `seat` may see."""
        self.events.append(Event(payload, PRIVATE, seat))

    def record(self, payload: Payload) -> None:
        """A hidden event: kept for replay checks, shown to nobody."""
        self.events.append(Event(payload, HIDDEN))

    # --- hidden piles -------------------------------------------------------------------
    # The end of a pile's list is its top.
    def take_top(self, pile: list[T]) -> T:
        """The top card of a hidden pile (the train deck, a ticket deck, a variant's deck).
        Whoever is shown it, the move can no longer be taken back."""
        self.irreversible = True
        return pile.pop()

    # --- the train deck -----------------------------------------------------------------
    def draw_train_card(self) -> str | None:
        """The top card of the train deck, reshuffling the discards in when it is empty;
        None when both are empty."""
        s = self.state
        if not s.deck:
            if not s.discard:
                return None
            self.reshuffle_discards()
        return self.take_top(s.deck)

    def reshuffle_discards(self) -> None:
        """The discards, shuffled, become the deck. Irreversible: taken back, the same
        generator would shuffle them the same way again, and whoever saw the cards drawn from
        this deck would know the next ones."""
        s = self.state
        self.irreversible = True
        s.deck = s.discard + s.deck
        s.discard = []
        self.chance.shuffle(s.deck)
        self.emit(DeckReshuffled(size=len(s.deck)))
        self.record(Shuffle(deck=len(s.deck), rng=self.rng.state))

    def train_cards_available(self) -> int:
        return len(self.state.deck) + len(self.state.discard)

    def take_cards(self, seat: int, card_set: Cards) -> None:
        """Remove cards from a hand (the caller has checked that they are there)."""
        hand = self.player(seat).hand
        for name, n in card_set:
            left = hand.get(name, 0) - n
            if left < 0:
                raise AssertionError(f"seat {seat} lacks {n} {name}")
            if left:
                hand[name] = left
            else:
                del hand[name]

    def give_cards(self, seat: int, card_set: Cards) -> None:
        hand = self.player(seat).hand
        for name, n in card_set:
            hand[name] = hand.get(name, 0) + n

    def discard_cards(self, card_set: Cards) -> None:
        for name, n in card_set:
            self.state.discard.extend([name] * n)

    # --- turns --------------------------------------------------------------------------
    def set_pending(self, decision: Decision) -> None:
        """Wait for `decision` (kept in the state as its dict: `Decision.to_pending`)."""
        self.state.pending = decision.to_pending()

    def trigger_final_round(self, seat: int, reason: str) -> None:
        """Start the final round: every player, the trigger player included, takes one more
        turn. Later triggers are ignored (X5)."""
        s = self.state
        if s.final_turns_left is not None:
            return
        s.final_turns_left = self.n_players
        self.triggered_now = True
        self.emit(FinalRound(player=seat, reason=reason))

    def begin_play(self, first: int) -> None:
        """Setup is over: the first player's first turn begins."""
        self.state.status = "playing"
        self.start_turn(first)

    def start_turn(self, seat: int) -> None:
        s = self.state
        s.current = seat
        self.set_pending(Turn())
        self.emit(TurnStarted(player=seat, turn=s.turn))
        for module in self.rules.hooked("on_turn_start"):
            module.on_turn_start(self)

    def end_turn(self) -> None:
        """The current player's turn is over: run the end-of-turn rules, count down the final
        round, and pass the turn on (or end the game).

        A module may first open one more decision of the same turn (`before_turn_end`
        returns True, e.g. the Dice Expansion's token purchase); it calls `end_turn` again
        once that decision is resolved."""
        s = self.state
        for module in self.rules.hooked("before_turn_end"):
            if module.before_turn_end(self):
                return
        for module in self.rules.hooked("on_turn_end"):
            module.on_turn_end(self)
        if s.final_turns_left is not None and not self.triggered_now:
            s.final_turns_left -= 1
            if s.final_turns_left <= 0:
                self.finish_game()
                return
        self.triggered_now = False
        s.turn += 1
        self.start_turn((s.current + 1) % self.n_players)

    # --- passing ------------------------------------------------------------------------
    def module_actions(self, seat: int) -> list[Action]:
        """The actions the rule modules offer `seat` in the decision the game waits for."""
        kind = self.state.pending.get("kind", "")
        out: list[Action] = []
        for module in self.rules.modules_for(kind):
            out.extend(module.legal_actions(self, seat))
        return out

    def pass_turn(self, action: Pass) -> None:
        """Pass when nothing else is possible (X4). When every player has passed in a row,
        nothing can ever change again (the game is deterministic from here), so the game ends."""
        if self.module_actions(action.player):
            raise IllegalAction("You can only pass when there is nothing else you can do.", "cannot_pass")
        s = self.state
        self.emit(Passed(player=action.player))
        s.passes_in_a_row += 1
        if s.passes_in_a_row >= self.n_players:
            self.emit(Deadlock(text=DEADLOCK))
            self.finish_game()
            return
        self.end_turn()

    def finish_game(self) -> None:
        s = self.state
        s.status = "over"
        s.pending = {}
        s.result = final_scores(self)
        self.emit(GameOver(result=copy_data(s.result)))

    def finish(self) -> tuple[GameState, list[Event]]:
        self.state.rng = self.rng.state
        return self.state, self.events
