"""The engine's front door: start a game, list legal actions, apply an action, and show a
player their view.

Each function works over a `RuleSet` handed in (`rules=`), or, by default, the one the
registry (engine/rulesets/) builds for the state's variant and options — a saved game names
its own. The turns, the train deck and the end of the game are the working copy's
(`engine.core.Game`); what a rule set adds is in its rule modules.

`apply(state, action)` is a pure function: it works on a clone and returns the new state and
the events the action caused. Replaying a game's seed and its actions gives the same state.
`apply_in_place` is the same step on a state its caller owns and gives up (a replay), without
the clone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from engine import undo
from engine.actions import Action, Pass, Undo, action_from_json
from engine.core import Game, GameStarted
from engine.decisions import decision_of
from engine.errors import IllegalAction
from engine.events import Event
from engine.rng import seed_state
from engine.rules.tickets import ChooseTickets, completed_tickets
from engine.rulesets import build_ruleset, ruleset_for
from engine.state import RULES_VERSION, GameState, PlayerState, copy_data
from engine.view import PendingView, PlayerView, View

if TYPE_CHECKING:
    from engine.chance import ChanceSource
    from engine.ruleset import RuleSet

A = TypeVar("A", bound=Action)


# --- the public functions ---------------------------------------------------------------


def new_game(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    first_player: int | None = None,
    names: Sequence[str] | None = None,
    chance: ChanceSource | None = None,
    *,
    rules: RuleSet | None = None,
) -> tuple[GameState, list[Event]]:
    """Deal a new game. The first player is drawn with the game's generator unless given, as
    `first_player` or as the table option of that name (the host's choice, kept in the state's
    options so that a replay deals the same game).
    `chance`: another source of chance than the seed's generator (tests, engine/chance.py).
    `rules`: the rule set to play, if not the registry's for `variant` and `options` (a rule
    set of a test's own; every later call on the game is then handed the same)."""
    opts = dict(options or {})
    if rules is None:
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
    game.emit(GameStarted(variant=variant, players=players, first_player=first_player))
    for module in rules.modules:
        module.setup(game)
    if not state.pending:
        game.begin_play(first_player)
    return game.finish()


def load_game(state: GameState, chance: ChanceSource | None = None, *, rules: RuleSet | None = None) -> Game:
    """A working Game around a state (read-only use: it is not cloned), under `rules` or the
    rule set the state was started with."""
    if rules is None:
        rules = ruleset_for(state)
    return Game(state, rules, rules.game_map, chance)


def actors(state: GameState) -> list[int]:
    """The seats the game is waiting for: one player, or several for a simultaneous choice."""
    if state.status == "over":
        return []
    offers = state.pending.get("offers")
    if offers is not None:
        return [seat for seat, offer in enumerate(offers) if offer is not None]
    return [state.current]


def apply(
    state: GameState, action: Action | Mapping[str, Any], chance: ChanceSource | None = None, *,
    rules: RuleSet | None = None,
) -> tuple[GameState, list[Event]]:
    """Apply one action and return (new state, events). An illegal action raises
    IllegalAction with one plain sentence and leaves `state` untouched. `chance`: another
    source of chance than the state's generator (tests, engine/chance.py); `rules`: the rule
    set the game was started with, if not the registry's."""
    return _apply(state, action, chance, rules, owned=False)


def apply_in_place(
    state: GameState, action: Action | Mapping[str, Any], chance: ChanceSource | None = None, *,
    rules: RuleSet | None = None,
) -> tuple[GameState, list[Event]]:
    """`apply` on a state the caller owns and gives up: the action works on `state` itself
    instead of a clone (a replay of stored entries, which keeps only the last state, saves a
    copy per entry). The new state and events are those `apply` gives; use the returned
    state, not `state`, afterwards (an undo returns another object). If it raises, `state` may
    be half changed: throw it away."""
    return _apply(state, action, chance, rules, owned=True)


def _apply(state: GameState, action: Action | Mapping[str, Any], chance: ChanceSource | None,
           rules: RuleSet | None, *, owned: bool) -> tuple[GameState, list[Event]]:
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
        game = load_game(state, rules=rules)
        who = ", ".join(game.name(s) for s in waiting)
        raise IllegalAction(f"It is not your turn; the game is waiting for {who}.", "not_your_turn")
    # The state to come back to is the one before anything below changes it (in place, the
    # working copy is `state` itself).
    before_text = undo.before_move(state, action) if state.options.get("undo") else None
    game = load_game(state if owned else state.clone(), chance, rules=rules)
    undo.close(game.state)
    kind = game.state.pending.get("kind", "")
    handler = game.rules.handler(kind, action)
    if handler is None:
        if isinstance(action, Pass) and kind == "turn":
            game.pass_turn(action)
            return game.finish()
        if not isinstance(action, Pass) and not game.rules.knows(type(action)):
            raise IllegalAction(f"You cannot {action.DOES} in this game.", "not_in_these_rules")
        raise IllegalAction(f"Right now you must {game.rules.prompt(kind)}.", "wrong_step")
    game.state.passes_in_a_row = 0
    if before_text is not None:
        game.chance = undo.WatchedChance(game)
    handler.apply(game, action)
    irreversible = game.irreversible
    after, events = game.finish()
    if before_text is not None:
        undo.after_move(before_text, action, after, events, irreversible)
    return after, events


def legal_actions(state: GameState, seat: int, *, rules: RuleSet | None = None) -> list[Action]:
    """Every action `seat` may take now (empty when the game is not waiting for them).

    When nothing else is possible on a turn, the only legal action is Pass (X4)."""
    if seat not in actors(state):
        return []
    game = load_game(state, rules=rules)
    out = game.module_actions(seat)
    if not out and state.pending.get("kind") == "turn":
        out.append(Pass(seat))
    return out


def legal_actions_of(state: GameState, seat: int, action_type: type[A], *, rules: RuleSet | None = None) -> list[A]:
    """The legal actions of one type: those `legal_actions` lists of it, in its order, asking
    only the modules that handle that type now (a rollout wanting the claims need not have
    every station of the board listed as well)."""
    if seat not in actors(state):
        return []
    game = load_game(state, rules=rules)
    kind = state.pending.get("kind", "")
    out: list[A] = []
    for module in game.rules.modules_for(kind):
        if action_type in module.actions.get(kind, ()):
            out.extend(a for a in module.legal_actions(game, seat) if isinstance(a, action_type))
    return out


def replay(variant: str, players: int, seed: int, actions: Iterable[Action | Mapping[str, Any]],
           options: Mapping[str, Any] | None = None, first_player: int | None = None,
           names: Sequence[str] | None = None, chance: ChanceSource | None = None, *,
           rules: RuleSet | None = None) -> GameState:
    """The state reached by a seed and a list of actions (and the chance source the game was
    played with, if it was not the seed's own generator; the rule set, if not the registry's)."""
    state, _ = new_game(variant, players, seed, options, first_player, names, chance, rules=rules)
    for action in actions:
        state, _ = apply(state, action, chance, rules=rules)
    return state


def view(state: GameState, seat: int | None, *, rules: RuleSet | None = None) -> View:
    """What the player in `seat` may know (None: what anyone may know).

    Their own hand, tickets and offers; only counts for everyone else; never the deck order,
    the generator or the seed (either would reveal the deck). Each rule module adds its own
    part (`RuleModule.view_part`)."""
    if rules is None:
        rules = ruleset_for(state)
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


def opening(state: GameState) -> bool:
    """Whether the game waits for the opening choice of tickets (the setup)."""
    decision = decision_of(state.pending)
    return isinstance(decision, ChooseTickets) and decision.setup


def offered(state: GameState, seat: int) -> Any:
    """What `seat` is offered to choose from in the decision the game waits for: a list of
    tickets, or lists by kind (Alsace's tourist cards); None when nothing is."""
    decision = decision_of(state.pending)
    if not isinstance(decision, ChooseTickets) or not 0 <= seat < len(decision.offers):
        return None
    return decision.offers[seat]


def _offer_size(offer: list[str] | Mapping[str, list[str]]) -> int:
    """How many cards an offer holds (what the other seats see of it): a ticket draw is a list,
    an offer of several kinds (Alsace's tourist cards) a dict of lists."""
    if isinstance(offer, dict):
        return sum(len(v) for v in offer.values())
    return len(offer)
