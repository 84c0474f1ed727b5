"""Running a plan when its seat's turn arrives: choose the step, play its moves.

`choose_step` looks only at the seat's View and legal actions (as a computer player does): the
first step (the fallback last) whose condition holds and whose first move is legal now.
`run_plan` then plays that step's moves one decision after another, each only if it is legal
at that moment; it stops — and the player is asked for the rest, as usual — at a move that is
not legal then (a face-up colour no longer shown, a tunnel whose extra is not the payment the
plan stated) or when the step has no more moves (which tickets to keep is always asked). A plan
never plays what its author could not have stated: it cannot keep tickets or take a move back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.owed import turn_began
from app.plans.conditions import check as check_condition
from app.plans.conditions import holds
from app.plans.model import Plan, PlanBook, PlanError, PlanMove
from engine.actions import Action, DrawCard, Pass, action_from_json
from engine.chance import ChanceSource
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import actors, apply
from engine.game import legal_actions as legal_for
from engine.game import view as view_for
from engine.ruleset import RuleSet
from engine.rulesets import ruleset_for
from engine.state import GameState
from engine.view import View

# Moves a plan may not hold, and why (the sentence a player gets).
NOT_PLANNABLE = {
    "keep_tickets": "Which tickets to keep is asked when they are drawn; a plan cannot say it beforehand.",
    "undo": "A plan cannot take a move back.",
}


@dataclass(slots=True)
class PlanRun:
    """What running a plan did: the step that ran (an index into `Plan.options()`, the fallback
    last; None: no step applied, the plan is dropped), the moves it played with their events,
    and the state after them. `finished`: the step's moves ended the seat's turn (else the
    player is asked for the rest)."""

    step: int | None
    state: GameState
    moves: list[tuple[Action, list[Event]]] = field(default_factory=list)
    finished: bool = False

    @property
    def events(self) -> list[Event]:
        return [e for _, es in self.moves for e in es]


def resolve(move: PlanMove, view: View, seat: int) -> Action | None:
    """The engine action a planned move stands for now (None: it stands for none — a face-up
    colour not shown, a move that does not decode)."""
    data = dict(move.action)
    if data.get("type") == DrawCard.TYPE and "colour" in data:
        colour = data.pop("colour")
        slot = next((i for i, card in enumerate(view.display) if card == colour), None)
        if slot is None:
            return None
        data["slot"] = slot
    try:
        return action_from_json({**data, "player": seat})
    except IllegalAction:
        return None


def _legal(move: PlanMove, view: View, legal: Sequence[Action], seat: int) -> Action | None:
    action = resolve(move, view, seat)
    return action if action is not None and action in legal else None


def choose_step(plan: Plan, view: View, legal: Sequence[Action]) -> int | None:
    """The index (into `plan.options()`) of the step to run, or None when none applies."""
    if view.you is None:
        return None
    for index, step in enumerate(plan.options()):
        if holds(step.condition, view) and _legal(step.moves[0], view, legal, view.you) is not None:
            return index
    return None


def run_plan(state: GameState, seat: int, plan: Plan, chance: ChanceSource | None = None) -> PlanRun:
    """Play `seat`'s plan in `state` (whose turn has just arrived): see the module's docstring.
    `chance`: another source of chance than the state's own (tests' rigged dice)."""
    if state.status != "playing" or actors(state) != [seat]:
        return PlanRun(None, state)
    step = choose_step(plan, view_for(state, seat), legal_for(state, seat))
    if step is None:
        return PlanRun(None, state)
    run = PlanRun(step, state)
    for move in plan.options()[step].moves:
        if run.state.status == "over" or seat not in actors(run.state):
            break
        action = _legal(move, view_for(run.state, seat), legal_for(run.state, seat), seat)
        if action is None:
            break  # the rest of the turn is the player's, asked as usual
        run.state, events = apply(run.state, action, chance)
        run.moves.append((action, events))
        if turn_began(events):
            break
    run.finished = run.state.status == "over" or seat not in actors(run.state)
    return run


def check_plan(book: PlanBook, state: GameState, seat: int) -> None:
    """Raise PlanError, in one sentence, when a plan cannot mean anything in this game: a
    condition or move of a kind this game does not have, a route or city not on its board, a
    move no plan may hold."""
    rules = ruleset_for(state)
    board = rules.game_map
    routes, cities = set(board.routes), set(board.cities)
    decks = set(state.ticket_decks) | {t.deck for t in board.tickets.values()}
    for plan in book.plans:
        for step in plan.options():
            check_condition(step.condition, routes=routes, decks=decks)
            for move in step.moves:
                _check_move(move, rules, seat, routes, cities)


def _check_move(move: PlanMove, rules: RuleSet, seat: int, routes: set[str], cities: set[str]) -> None:
    if move.type in NOT_PLANNABLE:
        raise PlanError(NOT_PLANNABLE[move.type])
    data = dict(move.action)
    if move.type == DrawCard.TYPE:
        if "slot" in data:
            raise PlanError("Name a face-up card by its colour, not its place: the cards change before your turn.")
        data.pop("colour", None)
    try:
        action = action_from_json({**data, "player": seat})
    except IllegalAction as exc:
        raise PlanError(str(exc)) from None
    if not isinstance(action, Pass) and not rules.knows(type(action)):
        raise PlanError(f"You cannot {action.DOES} in this game.")
    route = getattr(action, "route", None)
    if isinstance(route, str) and route not in routes:
        raise PlanError(f"There is no route {route!r} on this board.")
    city = getattr(action, "city", None)
    if isinstance(city, str) and city not in cities:
        raise PlanError(f"There is no city {city!r} on this board.")
