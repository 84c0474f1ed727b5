"""Typed rows. JSON columns stay as text (`*_json`): the store does not interpret them, so a
corrupted value reaches the application layer, which can mark just that game broken.

The store reads text as bytes and decodes it here. A value that is not valid UTF-8 reads as ""
and its column is named in the row's `unreadable`; nothing raises. (Python's own decoding
raises an error whose message quotes the text around the bad byte, and in a snapshot or an
action's events that text is a hand, a ticket or the deck order: an error message is one step
from a log line.)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, host_user_id, variant, options, seats_wanted, turn_hours, seed, "
    "rules_version, status, seq, waiting, broken_reason, created_at, updated_at, paused_reason, turn_post_id, "
    "turn_post_seq, max_away_days, version"
)
PLAYER_COLUMNS = "game_id, seat, user_id, is_ai, ai_level, name, joined_at, dm_closed, absent_turns, stand_in"
ACTION_COLUMNS = "game_id, seq, actor, user_id, action, events, created_at"
SNAPSHOT_COLUMNS = "game_id, seq, rules_version, state, created_at, digest"
TIMER_COLUMNS = (
    "id, game_id, kind, seat, for_seq, due_at, payload, created_at, fired_at, cancelled_at, rev, slot, wake_at"
)
DELIVERY_COLUMNS = (
    "id, game_id, seq, kind, key, user_id, payload, status, attempts, due_at, message_id, last_error, created_at, "
    "done_at"
)
RESULT_COLUMNS = (
    "game_id, seat, user_id, is_ai, ai_level, name, guild_id, variant, score, place, won, tickets_completed, "
    "tickets_failed, finished_at"
)


def _names(columns: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in columns.split(","))


_GAME_NAMES = _names(GAME_COLUMNS)
_PLAYER_NAMES = _names(PLAYER_COLUMNS)
_ACTION_NAMES = _names(ACTION_COLUMNS)
_SNAPSHOT_NAMES = _names(SNAPSHOT_COLUMNS)
_TIMER_NAMES = _names(TIMER_COLUMNS)
_DELIVERY_NAMES = _names(DELIVERY_COLUMNS)
_RESULT_NAMES = _names(RESULT_COLUMNS)


def utf8_or_none(value: bytes) -> str | None:
    """`value` decoded as UTF-8, or None when it is not valid UTF-8."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        # Not `as exc`, and nothing raised from here: the error's `object` and message carry
        # the bytes around the fault.
        pass
    return None


def _from_row(cls: Callable[..., T], row: Any, names: tuple[str, ...], bools: tuple[str, ...] = ()) -> T:
    """A row of `names` (the query's columns, in the order of `cls`'s fields) as a `cls`, its
    text decoded (see `decode_row`) and the integer columns in `bools` as booleans."""
    values, unreadable = decode_row(row, names)
    for index in _shape(cls, names, bools):
        values[index] = bool(values[index])
    return cls(*values, unreadable=unreadable)


@functools.lru_cache(maxsize=32)
def _shape(cls: Callable[..., Any], names: tuple[str, ...], bools: tuple[str, ...]) -> tuple[int, ...]:
    """Checks once per row class that its fields match the columns one for one (the rows are
    built positionally), and gives the positions of the columns read as booleans."""
    fields = [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]  # cls: a row dataclass below
              if f.name != "unreadable"]
    if len(fields) != len(names):
        raise TypeError(f"{cls.__name__} has {len(fields)} fields for {len(names)} columns")
    return tuple(names.index(b) for b in bools)


def decode_row(row: Any, names: tuple[str, ...]) -> tuple[list[Any], tuple[str, ...]]:
    """The row's values with text (read as bytes) decoded, and the columns that were not valid
    UTF-8 (those read as "")."""
    values = list(row)
    unreadable: list[str] = []
    for index, value in enumerate(values):
        if isinstance(value, bytes | bytearray | memoryview):
            text = utf8_or_none(value if isinstance(value, bytes) else bytes(value))
            if text is None:
                unreadable.append(names[index])
                text = ""
            values[index] = text
    return values, tuple(unreadable)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game: its table, its settings and where its log has got to."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_user_id: int
    variant: str
    options_json: str
    seats_wanted: int
    turn_hours: float | None
    seed: int | None
    rules_version: int | None
    status: str
    seq: int
    waiting_json: str
    broken_reason: str | None
    created_at: float
    updated_at: float
    paused_reason: str | None = None  # why the clocks are stopped (None: they run)
    turn_post_id: int | None = None  # the message in the thread showing the current turn
    turn_post_seq: int | None = None  # the seq that message shows
    max_away_days: float = 7.0  # the longest vacation that counts at this table (migration 10)
    # Moved by PostgreSQL at every change of the row that does not raise `seq`, and of its seats
    # (migration 35): what a process sharing the database compares (app/loader.py). SQLite's stays.
    version: int = 0
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> GameRow:
        return _from_row(cls, row, _GAME_NAMES)

    def advanced(self, seq: int, status: str, waiting_json: str, updated_at: float) -> GameRow:
        """This row as a commit left it (`dataclasses.replace` with these four fields, at
        about half its cost: every move makes one, and the frozen `__init__` sets each of the
        row's fields through `object.__setattr__`). The slots' descriptors write the copy."""
        new = object.__new__(GameRow)
        for slot in _GAME_SLOTS:
            slot.__set__(new, slot.__get__(self))
        _GAME_SEQ.__set__(new, seq)
        _GAME_STATUS.__set__(new, status)
        _GAME_WAITING.__set__(new, waiting_json)
        _GAME_UPDATED.__set__(new, updated_at)
        return new


_GAME_SLOT: dict[str, Any] = {f.name: getattr(GameRow, f.name) for f in dataclasses.fields(GameRow)}
_GAME_SLOTS = tuple(_GAME_SLOT.values())
_GAME_SEQ, _GAME_STATUS, _GAME_WAITING, _GAME_UPDATED = (
    _GAME_SLOT["seq"], _GAME_SLOT["status"], _GAME_SLOT["waiting_json"], _GAME_SLOT["updated_at"])


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A seat: a Discord user, or an AI of some level."""

    game_id: int
    seat: int
    user_id: int | None
    is_ai: bool
    ai_level: str | None
    name: str
    joined_at: float
    dm_closed: bool = False  # Discord refused a DM (50007): not DMed again until they ask
    absent_turns: int = 0  # turns in a row the AI played for them because time ran out
    stand_in: str | None = None  # the AI level holding the seat while they are away
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> PlayerRow:
        return _from_row(cls, row, _PLAYER_NAMES, bools=("is_ai", "dm_closed"))


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One entry of the append-only log (seq 0 is the start)."""

    game_id: int
    seq: int
    actor: int | None
    user_id: int | None
    action_json: str
    events_json: str
    created_at: float
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> ActionRow:
        return _from_row(cls, row, _ACTION_NAMES)


def snapshot_digest(state_json: str) -> str:
    """The digest stored with a snapshot (migration 8): BLAKE2b of its text, 16 bytes as hex."""
    return hashlib.blake2b(state_json.encode("utf-8"), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """The cached state after action `seq`, and the digest of its text (None: written before
    migration 8)."""

    game_id: int
    seq: int
    rules_version: int
    state_json: str
    created_at: float
    digest: str | None = None
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> SnapshotRow:
        return _from_row(cls, row, _SNAPSHOT_NAMES)

    @property
    def intact(self) -> bool:
        """Whether the text is readable and still the text the digest was made of."""
        return not self.unreadable and self.digest is not None and snapshot_digest(self.state_json) == self.digest


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A reminder or turn limit. Pending while neither fired nor cancelled."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    for_seq: int | None
    due_at: float
    payload_json: str
    created_at: float
    fired_at: float | None
    cancelled_at: float | None
    # How many times the row was rescheduled in place: it fires only at the revision read.
    rev: int = 0
    # Its place among the turn's timers of its kind (None: set on its own); see migration 34.
    slot: int | None = None
    # When the timer loop looks at it next (SQLite's wake table; at or before `due_at`).
    wake_at: float | None = None
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @property
    def pending(self) -> bool:
        return self.fired_at is None and self.cancelled_at is None

    @classmethod
    def from_row(cls, row: Any) -> TimerRow:
        return _from_row(cls, row, _TIMER_NAMES)


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    """Something a move owes the players (a post, an edit, a direct message): pending until
    delivered ("sent"), found unnecessary ("dropped") or refused for good ("failed")."""

    id: int
    game_id: int
    seq: int
    kind: str
    key: str
    user_id: int | None
    payload_json: str
    status: str
    attempts: int
    due_at: float
    message_id: int | None
    last_error: str | None
    created_at: float
    done_at: float | None
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> DeliveryRow:
        return _from_row(cls, row, _DELIVERY_NAMES)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's final result in a finished game."""

    game_id: int
    seat: int
    user_id: int | None
    is_ai: bool
    ai_level: str | None
    name: str
    guild_id: int
    variant: str
    score: int
    place: int
    won: bool
    tickets_completed: int
    tickets_failed: int
    finished_at: float
    # Columns whose stored text was not valid UTF-8 (they read as "").
    unreadable: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Any) -> ResultRow:
        return _from_row(cls, row, _RESULT_NAMES, bools=("is_ai", "won"))


@dataclass(frozen=True, slots=True)
class GameLoad:
    """What loading a game reads, at one moment: its row (None: no such game), its seats, its
    snapshot, and the entries of its log after the snapshot (all of them when there is no
    snapshot, or when the whole log was asked for)."""

    row: GameRow | None
    players: list[PlayerRow]
    snapshot: SnapshotRow | None
    actions: list[ActionRow]
