"""Taking back a move: the mover may undo their last move until the next player acts, but only
a move that revealed nothing hidden.

Which moves: those whose action type says `UNDOABLE` (claiming a route, building a station,
playing the Controller) — and only when, after the fact, nothing irreversible happened during
the move: the working game (`Game.irreversible`) records every card taken from the top of a
hidden pile (`Game.take_top`), every reshuffle of the discards into a new deck, every die
rolled and every random pick. Nor may the move have told another player anything privately or
ended the game. A claim that turns out to be a tunnel reveals cards, so it cannot be undone —
even when the deck was empty and the reveal came from the reshuffled discards; nor can a card
or ticket draw ever. Cards shuffled *under* a pile (Alsace's used cards) reveal nothing: the
restored generator would shuffle them the same way, unseen.

The record is kept where the cards move rather than worked out afterwards from the piles: an
empty deck refilled from the discards, or a reshuffled top of the same colours, looks untouched
to any comparison of colour names.

How: just before such a move, the state as it was (without any older undo point) is kept in
the state's `secret` part, which no view ever shows. Any later action closes the window by
dropping it. `Undo` puts that state back. The undo is an action of its own in the log, so the
log stays append-only and replaying it gives the same state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, TypeVar

from engine.actions import Action, Undo
from engine.core import MoveUndone
from engine.errors import IllegalAction
from engine.events import PRIVATE, Event
from engine.state import GameState

if TYPE_CHECKING:
    from engine.chance import Chance
    from engine.core import Game

KEY = "undo"
_T = TypeVar("_T")


class WatchedChance:
    """Passes every draw on to the game's chance, marking the game irreversible when one could
    have shown its outcome: a die or a pick can; a shuffle cannot by itself (it orders a hidden
    pile; a card then taken from its top marks the game through `Game.take_top`)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.inner: Chance = game.chance

    def below(self, n: int) -> int:
        self.game.irreversible = True
        return self.inner.below(n)

    def shuffle(self, items: MutableSequence[_T]) -> None:
        self.inner.shuffle(items)

    def roll(self, faces: Sequence[str]) -> str:
        self.game.irreversible = True
        return self.inner.roll(faces)


def before_move(state: GameState, action: Action) -> str | None:
    """The state to come back to if `action` turns out undoable (None: it never can be)."""
    if not action.UNDOABLE:
        return None
    if KEY in state.secret:  # an older undo point is not part of the state to come back to
        state = dataclasses.replace(state, secret={k: v for k, v in state.secret.items() if k != KEY})
    return state.to_canonical()


def after_move(before_text: str | None, action: Action, after: GameState, events: Sequence[Event],
               irreversible: bool) -> None:
    """Keep the undo point in `after` when the move did nothing irreversible (`Game.irreversible`)
    and told nobody else anything."""
    if before_text is None or irreversible or after.status == "over":
        return
    if any(e.visibility == PRIVATE and e.seat != action.player for e in events):
        return
    after.secret[KEY] = {"seat": action.player, "state": before_text}


def close(state: GameState) -> None:
    """Another action is being taken: the last move can no longer be taken back."""
    if state.secret:
        state.secret.pop(KEY, None)


def can_undo(state: GameState, seat: int) -> bool:
    """Whether `seat` may take back their last move now."""
    point = state.secret.get(KEY)
    return isinstance(point, dict) and point.get("seat") == seat


def apply_undo(state: GameState, action: Undo) -> tuple[GameState, list[Event]]:
    """The state before the mover's last move, with a public event saying it was taken back."""
    if not can_undo(state, action.player):
        raise IllegalAction("There is no move of yours to take back: only your last claim, station or Controller "
                            "card, before the next player acts, and only if it revealed nothing.", "cannot_undo")
    restored = GameState.from_canonical(state.secret[KEY]["state"])
    return restored, [Event(MoveUndone(player=action.player, turn=restored.turn))]


def renamed(state: GameState, names: Sequence[str]) -> GameState:
    """The state with its seats labelled `names` — its undo point too, so that taking a move
    back after a seat changed hands keeps the new names, as a replay from the seat's new name
    does (app/seat_ops.py hands seats to substitutes)."""
    out = dataclasses.replace(state, names=list(names), secret=dict(state.secret))
    point = out.secret.get(KEY)
    if isinstance(point, dict) and isinstance(point.get("state"), str):
        inner = dataclasses.replace(GameState.from_canonical(point["state"]), names=list(names))
        out.secret[KEY] = {**point, "state": inner.to_canonical()}
    return out
