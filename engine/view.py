"""What one player may know of a game: a typed, read-only picture of the state.

`engine.game.view(state, seat)` builds it; it is the one way anything outside the engine sees a
game (the bot's words, the pictures, the AIs). It holds the seat's own hand, tickets and
offers; only counts for everyone else; never the deck order, the generator or the seed.

A rule module that keeps data of its own declares its part of the view (`RuleModule.view_part`,
a small frozen dataclass defined beside the rule): the dice and tokens, Germany's passengers,
Alsace's tourist cards, calling time. Readers ask for it by type — `view.part(DiceView)` — so
nobody guesses where a module keeps its data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.decisions import Decision, decision_of
from engine.state import copy_data

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat as the viewer may see it: the hand and tickets only when it is their own."""

    seat: int
    name: str
    trains: int
    stations: int
    hand_size: int
    ticket_count: int
    routes: tuple[str, ...]
    route_points: int
    hand: Mapping[str, int] | None = None  # the viewer's own seat only
    tickets: tuple[str, ...] | None = None  # the viewer's own seat only
    completed: frozenset[str] = frozenset()  # own tickets already joined by own routes


# An offer of cards to choose from: a list, or lists by kind (Alsace's tickets and tourist
# cards) or by deck (Germany). A view shows the viewer's own offer, a count for another seat's
# (its cards are hidden), None for a seat offered nothing.
Offer = Sequence[str] | Mapping[str, Sequence[str]]
SeenOffer = Offer | int | None


@dataclass(frozen=True, slots=True)
class PendingView:
    """The decision the game waits for. `offers[seat]` is that seat's offer of tickets for the
    viewer (a list, or by deck for Germany), a count for the others, None where nothing is
    offered; `data` holds the rest of the decision (a tunnel's revealed cards, …)."""

    kind: str | None = None
    setup: bool = False
    offers: tuple[SeenOffer, ...] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    # The same decision typed (engine/decisions.py): what readers outside the engine match on.
    decision: Decision | None = field(init=False, default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "decision", None if self.kind is None else decision_of(self.shown()))

    def shown(self) -> dict[str, Any]:
        """The decision as a state's pending dict, as far as the viewer sees it (another seat's
        offer is its size): what a sampler rebuilds a state from."""
        out: dict[str, Any] = {"kind": self.kind} if self.kind else {}
        if self.setup:
            out["setup"] = True
        for k, v in self.data.items():
            out[k] = copy_data(v)
        if self.offers is not None:
            out["offers"] = list(self.offers)
        return out

    def offer_of(self, seat: int | None) -> list[str]:
        """The tickets offered to `seat` (only the viewer's own are known), as one list."""
        if seat is None or self.offers is None or not 0 <= seat < len(self.offers):
            return []
        mine = self.offers[seat]
        if isinstance(mine, Mapping):
            return [t for group in mine.values() for t in group]
        return list(mine) if isinstance(mine, list | tuple) else []

    def offer_marks(self, seat: int | None) -> dict[str, str]:
        """Each card offered to `seat`, by the letter its picture and its menu name it with
        (A, B, C, … in the order of `offer_of`)."""
        return {card: offer_mark(i) for i, card in enumerate(self.offer_of(seat))}


def offer_mark(index: int) -> str:
    """The letter of the `index`-th card of an offer: A … Z, then AA, AB, …"""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    head, tail = divmod(index, len(letters))
    return (letters[head - 1] if head else "") + letters[tail]


@dataclass(frozen=True, slots=True)
class View:
    """A game as one seat (`you`; None: anyone) may see it."""

    rules_version: int
    variant: str
    options: Mapping[str, Any]
    map_id: str
    you: int | None
    players: tuple[PlayerView, ...]
    deck: int
    discard: int
    display: tuple[str | None, ...]
    ticket_decks: Mapping[str, int]
    route_owner: Mapping[str, int]
    route_scored: Mapping[str, int]
    stations: Mapping[str, int]  # city → the seat whose station stands there
    current: int
    turn: int
    status: str
    pending: PendingView
    final_turns_left: int | None
    passes_in_a_row: int
    result: Mapping[str, Any] | None
    names: tuple[str, ...]
    first_player: int
    doubles_from_players: int  # parallel tracks open to one player each from this many players
    parts: tuple[object, ...] = ()  # the rule modules' own parts (see `part`)
    can_undo: bool = False  # the viewer may take back their last move now (engine/undo.py)
    seq: int | None = None  # the log entry this shows (set by the application service)
    game_id: int | None = None

    @property
    def me(self) -> PlayerView | None:
        """The viewer's own seat, or None for a spectator's view."""
        return None if self.you is None else self.players[self.you]

    def part(self, kind: type[T]) -> T | None:
        """The part of the view a rule module declared, by its type; None when the game has
        no such rule."""
        for part in self.parts:
            if isinstance(part, kind):
                return part
        return None

    def name(self, seat: int | None) -> str:
        """A seat's name ("someone" for no seat)."""
        if seat is None:
            return "someone"
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"Player {seat + 1}"

    def at(self, seq: int, game_id: int) -> View:
        """The same view, labelled with the log entry it shows and its game."""
        return dataclasses.replace(self, seq=seq, game_id=game_id)
