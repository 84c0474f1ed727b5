"""What the service hands to the Discord layer: small frozen dataclasses, no database rows
and no raw game state (the state holds every secret; only `view` may show it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.events import Event
from engine.game import view as engine_view
from engine.state import GameState
from engine.timeline import TimelineStep
from engine.view import View


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
    dm_closed: bool = False  # Discord refused to DM them: not tried again until they ask
    absent_turns: int = 0  # turns in a row the AI played for them when their time ran out
    stand_in: str | None = None  # the AI level holding their seat while they are away

    @property
    def bot_plays(self) -> bool:
        """The bot moves for this seat: an AI, or an AI standing in for an absent player."""
        return self.is_ai or self.stand_in is not None


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
    max_away_days: float = 7.0  # the longest vacation a player's clock stops for here

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

    def view(self, seat: int | None) -> View:
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
    host_user_id: int | None = None
    paused_reason: str | None = None  # why the clocks are stopped (None: they run)
    turn_post_id: int | None = None  # the thread message showing the current turn
    turn_post_seq: int | None = None  # the seq that message shows
    max_away_days: float = 7.0  # the longest vacation a player's clock stops for here
    language: str = "en"  # the table's language (its `language` option): its thread's notices

    @property
    def your_turn(self) -> bool:
        return self.your_seat is not None and self.your_seat in self.waiting_for

    def still_waits_for(self, seat: object, user_id: int | None) -> bool:
        """Whether the game, as it is now, still waits for `user_id` in `seat` to move: it is
        being played, its clocks run, it is that seat's turn, and they still play it themselves
        (the check before a reminder goes out, which may be sent late)."""
        return (self.status in ("setup", "playing") and self.paused_reason is None and isinstance(seat, int)
                and seat in self.waiting_for and 0 <= seat < len(self.seats) and user_id is not None
                and self.seats[seat].user_id == user_id and self.seats[seat].stand_in is None)

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
    # The row's revision (rescheduled in place for the next turn): it fires only at this one.
    rev: int = 0


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


@dataclass(frozen=True, slots=True)
class Delivery:
    """Something a move owes the players, waiting to be delivered (see app.owed for the kinds).
    `message_id` is the message an earlier attempt made, if any."""

    id: int
    game_id: int
    seq: int
    kind: str
    key: str
    user_id: int | None
    payload: Mapping[str, Any]
    attempts: int
    message_id: int | None


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks for a host's action (pause, resume, kick): a user, and whether they may manage
    the server the game belongs to."""

    user_id: int
    manages_server: bool = False


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """A player's own preferences (`/ttr settings`), the same in every game they play.

    `colorblind`: a mark on every colour in the pictures they receive (their hand; and the
    public board of any table they sit at). `hand_picture`: their hand comes with its picture
    (off: in words only). `dms`: the bot may DM them (off when Discord refused or they asked).

    Their own clock (app/player_clock.py): `timezone` (an IANA name), `quiet` hours in it
    (minutes after local midnight, start and end; None: none), a vacation until `away_until`
    (None: none; each game counts it up to its own maximum), and `digest_hour`: one DM a day
    at that local hour listing the games waiting for them, instead of a ping per turn (None)."""

    colorblind: bool = False
    hand_picture: bool = True
    dms: bool = True
    timezone: str = "UTC"
    quiet: tuple[int, int] | None = None
    away_from: float | None = None
    away_until: float | None = None
    digest_hour: int | None = None
    digest_due: float | None = None  # when the next digest goes out
    language: str | None = None  # their own language for answers and DMs (None: their Discord locale)


@dataclass(frozen=True, slots=True)
class PostData:
    """Everything a turn post needs, read in one call: the game, what happened since the post
    last shown (public events only), the public view now, and the buttons' moves."""

    summary: GameSummary
    view: View  # public: no hand, no ticket, no deck
    events: tuple[Event, ...]  # public events after the seq the thread last showed
    from_seq: int
    new_turn: bool
    notes: tuple[Mapping[str, Any], ...]  # what else the post must say (time ran out, …)
    deliveries: tuple[int, ...]  # the deliveries one post settles
    legal: tuple[Any, ...]  # the moves of the one human the game waits for (empty: several, or none)
    final: bool = False
    deadlines: Mapping[int, float] = field(default_factory=dict)  # seat → when the AI plays for them
    colorblind: bool = False  # someone seated here has colour-blind marks on: the board gets them
    away: Mapping[int, float] = field(default_factory=dict)  # seat → on vacation until (this table's count)
    quiet_users: tuple[int, ...] = ()  # users not to ping now (quiet hours, away, a daily digest)
    replay: tuple[TimelineStep, ...] = ()  # the final post's replay: public views, one per claim or station


@dataclass(frozen=True, slots=True)
class HandData:
    """A player's private view and what only they saw in one log entry (for a DM)."""

    summary: GameSummary
    seat: int
    view: View
    private_events: tuple[Event, ...]
    settings: PlayerSettings = PlayerSettings()  # the player's own: marks, the picture on or off


@dataclass(frozen=True, slots=True)
class OutboxData:
    """What one game's due deliveries need, from one read (DeliveryOps.outbox_data): the turn
    post (None: no post pending), each DM's player view (delivery id → None when they no longer
    play there), and the DM channels known for those players (user id → channel id).
    `dropped`: why none of it could be read (the game is gone or broken), else None."""

    post: PostData | None = None
    hands: Mapping[int, HandData | None] = field(default_factory=dict)
    dm_channels: Mapping[int, int] = field(default_factory=dict)
    dropped: str | None = None


@dataclass(slots=True)
class Settlement:
    """What came of sending a game's deliveries, to be stored in ONE transaction
    (DeliveryOps.settle): the turn post (the deliveries it settles, its message and the seq
    it shows), the deliveries sent (with their messages) or dropped (with why), and the DM
    channels Discord opened (user id → channel id) or said were gone."""

    game_id: int
    post: tuple[tuple[int, ...], int, int] | None = None
    sent: list[tuple[int, int | None]] = field(default_factory=list)
    dropped: list[tuple[int, str]] = field(default_factory=list)
    opened: dict[int, int] = field(default_factory=dict)
    gone: list[tuple[int, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.post or self.sent or self.dropped or self.opened or self.gone)

    def clear(self) -> None:
        self.post = None
        self.sent, self.dropped, self.opened, self.gone = [], [], {}, []


@dataclass(frozen=True, slots=True)
class Panel:
    """What a player's turn panel needs, from one read: the game, their seat (None: they do not
    play), their own view, the public view, and the moves they may make now."""

    summary: GameSummary
    seat: int | None
    view: View
    public: View
    legal: tuple[Any, ...]

    @property
    def your_turn(self) -> bool:
        return bool(self.legal)
