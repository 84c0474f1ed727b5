"""The core: start a game, list legal actions, apply an action, and show a player their view.

The core knows turns, pending decisions, the train deck and the end of the game. Everything a
rule set adds or changes lives in the rule modules of its `RuleSet` (engine/rules/), which the
core loops over; there is no `if variant == …` here.

`apply(state, action)` is a pure function: it works on a clone and returns the new state and
the events the action caused. Replaying a game's seed and its actions gives the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from engine import undo
from engine.actions import Action, Pass, Undo, action_from_json
from engine.cards import Cards
from engine.errors import IllegalAction
from engine.events import HIDDEN, PRIVATE, PUBLIC, Event
from engine.maps import GameMap
from engine.rng import Rng, seed_state
from engine.rules.tickets import completed_tickets
from engine.scoring import final_scores
from engine.state import RULES_VERSION, GameState, PlayerState, copy_data
from engine.variants import build_ruleset, ruleset_for
from engine.view import PendingView, PlayerView, View

if TYPE_CHECKING:
    from engine.chance import Chance, ChanceSource
    from engine.ruleset import RuleSet

A = TypeVar("A", bound=Action)
T = TypeVar("T")


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
    def emit(self, kind: str, **data: Any) -> None:
        """A public event."""
        self.events.append(Event(kind, data, PUBLIC))

    def tell(self, seat: int, kind: str, **data: Any) -> None:
        """An event only `seat` may see."""
        self.events.append(Event(kind, data, PRIVATE, seat))

    def record(self, kind: str, **data: Any) -> None:
        """A hidden event: kept for replay checks, shown to nobody."""
        self.events.append(Event(kind, data, HIDDEN))

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
        self.emit("deck_reshuffled", size=len(s.deck))
        self.record("shuffle", deck=len(s.deck), rng=self.rng.state)

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
    def set_pending(self, kind: str, **data: Any) -> None:
        self.state.pending = {"kind": kind, **data}

    def trigger_final_round(self, seat: int, reason: str) -> None:
        """Start the final round: every player, the trigger player included, takes one more
        turn. Later triggers are ignored (X5)."""
        s = self.state
        if s.final_turns_left is not None:
            return
        s.final_turns_left = self.n_players
        self.triggered_now = True
        self.emit("final_round", player=seat, reason=reason)

    def begin_play(self, first: int) -> None:
        """Setup is over: the first player's first turn begins."""
        self.state.status = "playing"
        self.start_turn(first)

    def start_turn(self, seat: int) -> None:
        s = self.state
        s.current = seat
        self.set_pending("turn")
        self.emit("turn_started", player=seat, turn=s.turn)
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

    def finish_game(self) -> None:
        s = self.state
        s.status = "over"
        s.pending = {}
        s.result = final_scores(self)
        self.emit("game_over", result=copy_data(s.result))

    def finish(self) -> tuple[GameState, list[Event]]:
        self.state.rng = self.rng.state
        return self.state, self.events


# --- the public functions ---------------------------------------------------------------


def new_game(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    first_player: int | None = None,
    names: Sequence[str] | None = None,
    chance: ChanceSource | None = None,
) -> tuple[GameState, list[Event]]:
    """Deal a new game. The first player is drawn with the game's generator unless given, as
    `first_player` or as the table option of that name (the host's choice, kept in the state's
    options so that a replay deals the same game).
    `chance`: another source of chance than the seed's generator (tests, engine/chance.py)."""
    opts = dict(options or {})
    rules = build_ruleset(variant, players, opts)
    if first_player is None:
        first_player = opts.get("first_player")
    game_map = rules.game_map
    state = GameState(
        rules_version=RULES_VERSION,
        variant=variant,
        options=opts,
        map_id=rules.map_id,
        seed=seed,
        rng=seed_state(seed),
        players=[PlayerState(seat, rules.trains, rules.stations) for seat in range(players)],
        deck=[],
        discard=[],
        display=[],
        ticket_decks={},
        current=0,
        pending={},
        names=[str(n) for n in (names or [])],
    )
    game = Game(state, rules, game_map, chance)
    if first_player is None:
        first_player = game.chance.below(players)
    elif not 0 <= first_player < players:
        raise IllegalAction(f"There is no seat {first_player + 1} in a {players}-player game.", "bad_seat")
    state.current = first_player
    state.first_player = first_player
    game.emit("game_started", variant=variant, players=players, first_player=first_player)
    for module in rules.modules:
        module.setup(game)
    if not state.pending:
        game.begin_play(first_player)
    return game.finish()


def load_game(state: GameState, chance: ChanceSource | None = None) -> Game:
    """A working Game around a state (read-only use: it is not cloned)."""
    rules = _ruleset(state)
    return Game(state, rules, rules.game_map, chance)


def _ruleset(state: GameState) -> RuleSet:
    return ruleset_for(state)


def actors(state: GameState) -> list[int]:
    """The seats the game is waiting for: one player, or several for a simultaneous choice."""
    if state.status == "over":
        return []
    offers = state.pending.get("offers")
    if offers is not None:
        return [seat for seat, offer in enumerate(offers) if offer is not None]
    return [state.current]


def apply(
    state: GameState, action: Action | Mapping[str, Any], chance: ChanceSource | None = None
) -> tuple[GameState, list[Event]]:
    """Apply one action and return (new state, events). An illegal action raises
    IllegalAction with one plain sentence and leaves `state` untouched. `chance`: another
    source of chance than the state's generator (tests, engine/chance.py)."""
    if not isinstance(action, Action):
        action = action_from_json(action)
    if state.status == "over":
        raise IllegalAction("The game is over.", "game_over")
    if not 0 <= action.player < len(state.players):
        raise IllegalAction("You are not playing in this game.", "not_a_player")
    if isinstance(action, Undo):  # the mover's, while the game already waits for the next player
        return undo.apply_undo(state, action)
    waiting = actors(state)
    if action.player not in waiting:
        game = load_game(state)
        who = ", ".join(game.name(s) for s in waiting)
        raise IllegalAction(f"It is not your turn; the game is waiting for {who}.", "not_your_turn")
    game = load_game(state.clone(), chance)
    undo.close(game.state)
    kind = state.pending.get("kind", "")
    handler = game.rules.handler(kind, action)
    if handler is None:
        if isinstance(action, Pass) and kind == "turn":
            _apply_pass(game, action)
            return game.finish()
        if not isinstance(action, Pass) and not game.rules.knows(type(action)):
            raise IllegalAction(f"You cannot {action.DOES} in this game.", "not_in_these_rules")
        raise IllegalAction(f"Right now you must {game.rules.prompt(kind)}.", "wrong_step")
    game.state.passes_in_a_row = 0
    before_text = undo.before_move(state, action) if state.options.get("undo") else None
    if before_text is not None:
        game.chance = undo.WatchedChance(game)
    handler.apply(game, action)
    irreversible = game.irreversible
    after, events = game.finish()
    if before_text is not None:
        undo.after_move(before_text, action, after, events, irreversible)
    return after, events


def _apply_pass(game: Game, action: Pass) -> None:
    """Pass when nothing else is possible (X4). When every player has passed in a row, nothing
    can ever change again (the game is deterministic from here), so the game ends."""
    if _module_actions(game, action.player):
        raise IllegalAction("You can only pass when there is nothing else you can do.", "cannot_pass")
    s = game.state
    game.emit("passed", player=action.player)
    s.passes_in_a_row += 1
    if s.passes_in_a_row >= game.n_players:
        game.emit("deadlock", text="Nobody can do anything any more, so the game ends.")
        game.finish_game()
        return
    game.end_turn()


def _module_actions(game: Game, seat: int) -> list[Action]:
    kind = game.state.pending.get("kind", "")
    out: list[Action] = []
    for module in game.rules.modules_for(kind):
        out.extend(module.legal_actions(game, seat))
    return out


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action `seat` may take now (empty when the game is not waiting for them).

    When nothing else is possible on a turn, the only legal action is Pass (X4)."""
    if seat not in actors(state):
        return []
    game = load_game(state)
    out = _module_actions(game, seat)
    if not out and state.pending.get("kind") == "turn":
        out.append(Pass(seat))
    return out


def legal_actions_of(state: GameState, seat: int, action_type: type[A]) -> list[A]:
    """The legal actions of one type: those `legal_actions` lists of it, in its order, asking
    only the modules that handle that type now (a rollout wanting the claims need not have
    every station of the board listed as well)."""
    if seat not in actors(state):
        return []
    game = load_game(state)
    kind = state.pending.get("kind", "")
    out: list[A] = []
    for module in game.rules.modules_for(kind):
        if action_type in module.actions.get(kind, ()):
            out.extend(a for a in module.legal_actions(game, seat) if isinstance(a, action_type))
    return out


def replay(variant: str, players: int, seed: int, actions: Iterable[Action | Mapping[str, Any]],
           options: Mapping[str, Any] | None = None, first_player: int | None = None,
           names: Sequence[str] | None = None, chance: ChanceSource | None = None) -> GameState:
    """The state reached by a seed and a list of actions (and the chance source the game was
    played with, if it was not the seed's own generator)."""
    state, _ = new_game(variant, players, seed, options, first_player, names, chance)
    for action in actions:
        state, _ = apply(state, action, chance)
    return state


def view(state: GameState, seat: int | None) -> View:
    """What the player in `seat` may know (None: what anyone may know).

    Their own hand, tickets and offers; only counts for everyone else; never the deck order,
    the generator or the seed (either would reveal the deck). Each rule module adds its own
    part (`RuleModule.view_part`)."""
    rules = _ruleset(state)
    game_map = rules.game_map
    names = tuple(state.names)
    players = []
    for p in state.players:
        mine = p.seat == seat
        players.append(PlayerView(
            seat=p.seat,
            name=names[p.seat] if p.seat < len(names) and names[p.seat] else f"Player {p.seat + 1}",
            trains=p.trains,
            stations=p.stations,
            hand_size=p.hand_size(),
            ticket_count=len(p.tickets),
            routes=tuple(p.routes),
            route_points=p.route_points,
            hand=dict(p.hand) if mine else None,
            tickets=tuple(p.tickets) if mine else None,
            completed=completed_tickets(game_map, p.routes, p.tickets) if mine else frozenset(),
        ))
    pending = state.pending
    offers = pending.get("offers")
    return View(
        rules_version=state.rules_version,
        variant=state.variant,
        options=copy_data(state.options),
        map_id=state.map_id,
        you=seat,
        players=tuple(players),
        deck=len(state.deck),
        discard=len(state.discard),
        display=tuple(state.display),
        ticket_decks={name: len(cards) for name, cards in state.ticket_decks.items()},
        route_owner=dict(state.route_owner),
        route_scored=dict(state.route_scored),
        stations=dict(state.stations),
        current=state.current,
        turn=state.turn,
        status=state.status,
        pending=PendingView(
            kind=pending.get("kind"),
            setup=bool(pending.get("setup")),
            offers=None if offers is None else tuple(
                copy_data(offer) if i == seat else (None if offer is None else _offer_size(offer))
                for i, offer in enumerate(offers)),
            data={k: copy_data(v) for k, v in pending.items() if k not in ("kind", "setup", "offers")},
        ),
        final_turns_left=state.final_turns_left,
        passes_in_a_row=state.passes_in_a_row,
        result=copy_data(state.result),
        names=names,
        first_player=state.first_player,
        doubles_from_players=rules.doubles_from_players,
        parts=tuple(part for module in rules.modules
                    if (part := module.view_part(state, seat, game_map)) is not None),
        can_undo=seat is not None and undo.can_undo(state, seat),
    )


def _offer_size(offer: Any) -> int:
    if isinstance(offer, dict):
        return sum(len(v) for v in offer.values())
    return len(offer)
