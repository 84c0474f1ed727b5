"""Taking back a move: the mover may undo their last move until the next player acts, but only
a move that revealed nothing hidden.

Which moves: those whose action type says `UNDOABLE` (claiming a route, building a station,
playing the Controller) — and only when, after the fact, the move rolled no die and made no
random pick, took no card from the top of a hidden pile (cards shuffled under a pile, as
Alsace's used cards are, reveal nothing), told no other player anything privately and did not
end the game. A claim that turns out to be a tunnel reveals cards, so it cannot be undone;
nor can a card or ticket draw ever.

How: just before such a move, the state as it was (without any older undo point) is kept in
the state's `secret` part, which no view ever shows. Any later action closes the window by
dropping it. `Undo` puts that state back. The undo is an action of its own in the log, so the
log stays append-only and replaying it gives the same state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Action, Undo
from engine.errors import IllegalAction
from engine.events import PRIVATE, Event
from engine.state import GameState

if TYPE_CHECKING:
    from engine.chance import Chance

KEY = "undo"


class WatchedChance:
    """Passes every draw on to the game's chance, remembering whether one could have shown its
    outcome: a die or a pick can; a shuffle cannot by itself (it orders a hidden pile, and
    whether a card then left the top of a pile is checked apart)."""

    def __init__(self, inner: Chance) -> None:
        self.inner = inner
        self.used = False

    def below(self, n: int) -> int:
        self.used = True
        return self.inner.below(n)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.inner.shuffle(items)

    def roll(self, faces: Sequence[str]) -> str:
        self.used = True
        return self.inner.roll(faces)


def before_move(state: GameState, action: Action) -> str | None:
    """The state to come back to if `action` turns out undoable (None: it never can be)."""
    if not action.UNDOABLE:
        return None
    if KEY in state.secret:  # an older undo point is not part of the state to come back to
        state = dataclasses.replace(state, secret={k: v for k, v in state.secret.items() if k != KEY})
    return state.to_canonical()


def after_move(before: GameState, before_text: str | None, action: Action, after: GameState,
               events: Sequence[Event], chance_used: bool) -> None:
    """Keep the undo point in `after` when the move revealed nothing hidden."""
    if before_text is None or chance_used or after.status == "over":
        return
    if not _nothing_drawn(before.deck, after.deck):
        return
    for name, deck in before.ticket_decks.items():
        if not _nothing_drawn(deck, after.ticket_decks.get(name, [])):
            return
    if any(e.visibility == PRIVATE and e.seat != action.player for e in events):
        return
    after.secret[KEY] = {"seat": action.player, "state": before_text}


def _nothing_drawn(before: list[str], after: list[str]) -> bool:
    """Whether no card left the top of a hidden pile (its end is its top). Cards put under it
    (Alsace's used cards) reveal nothing."""
    return len(after) >= len(before) and after[len(after) - len(before):] == before


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
    return restored, [Event("move_undone", {"player": action.player, "turn": restored.turn})]
