"""What the service hands to the Discord layer: small frozen dataclasses, no database rows
and no raw game state (the state holds every secret; only `view` may show it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.events import Event
from engine.game import view as engine_view
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a Discord user, or the bot acting for a seat (an AI, or a turn limit
    acting for an absent player)."""

    user_id: int | None = None
    seat: int | None = None

    @classmethod
    def user(cls, user_id: int) -> Actor:
        return cls(user_id=user_id)

    @classmethod
    def bot(cls, seat: int) -> Actor:
        return cls(seat=seat)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at a table."""

    seat: int
    user_id: int | None
    is_ai: bool
    ai_level: str | None
    name: str


@dataclass(frozen=True, slots=True)
class Lobby:
    """A table before (or after) its game starts. `changed` is False when the request was a
    harmless repeat (joining twice, leaving twice, creating the same lobby twice)."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_user_id: int
    variant: str
    options: Mapping[str, Any]
    seats_wanted: int
    turn_hours: float | None
    status: str
    seats: tuple[Seat, ...]
    changed: bool = True

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.seats_wanted


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What one move (or the start) did.

    `public_events` go to the game's thread; `private_events[seat]` only to that seat. Hidden
    events are never here. `result` holds the final scores once `ended`. `seq` is what the next
    move's `expected_seq` must be. `view(seat)` is the one way to show the new state."""

    game_id: int
    seq: int
    actor: int | None
    status: str
    ended: bool
    waiting_for: tuple[int, ...]
    public_events: tuple[Event, ...]
    private_events: Mapping[int, tuple[Event, ...]]
    result: Mapping[str, Any] | None = None
    # The move as stored. It can hold the actor's secrets (the tickets they kept): show it to
    # nobody but the actor.
    action: Mapping[str, Any] | None = None
    _state: GameState | None = field(default=None, repr=False, compare=False)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game after this move as `seat` may see it (None: what anyone may see)."""
        if self._state is None:
            raise ValueError("this result carries no state")
        return engine_view(self._state, seat)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of "your games": where it is, whose turn, and your seat."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    variant: str
    status: str
    seq: int
    your_seat: int | None
    seats: tuple[Seat, ...]
    waiting_for: tuple[int, ...]
    turn_hours: float | None
    updated_at: float
    broken_reason: str | None = None

    @property
    def your_turn(self) -> bool:
        return self.your_seat is not None and self.your_seat in self.waiting_for

    @property
    def waiting_users(self) -> tuple[int, ...]:
        """The Discord users the game waits for (AI seats have none)."""
        return tuple(s.user_id for s in self.seats if s.seat in self.waiting_for and s.user_id is not None)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a game's log, with only the events its reader may see."""

    seq: int
    actor: int | None
    at: float
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Timer:
    """A reminder or turn limit. `for_seq`: it only matters while the game is at that seq."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    for_seq: int | None
    due_at: float
    payload: Mapping[str, Any]
    fired_at: float | None = None
    cancelled_at: float | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record over finished games."""

    user_id: int
    games: int
    wins: int
    average_score: float
    best_score: int | None
    tickets_completed: int
    tickets_failed: int
