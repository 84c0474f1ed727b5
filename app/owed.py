"""What a move owes the players: the policy, as plain data.

The service stores these in the same transaction as the move (the delivery outbox and the
timers), so a restart or a Discord error can never leave a game waiting silently. Nothing here
says how a delivery looks in Discord — the Discord layer renders it when it sends it — and no
payload holds a secret: a direct message is drawn from the player's own view when it is sent.

What one commit (one move, or a bot's whole turn) owes:
- the game's thread: an update of the turn post (`post`), a new post when a turn began, or
  the final results (`final`) when the game ended; a move taken back corrects the turn post;
- the human who moved: a direct message with what only they saw (the cards they drew), if
  anything (`dm`);
- each human the game now waits for at the start of a turn: a direct message with their hand
  (`turn`), or, if their DMs are known to be closed, one notice in the thread (`dm_closed`);
- the same humans: a reminder at half their turn limit and the limit itself (timers), unless
  the game is paused or the AI holds their seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.events import PRIVATE, Event
from engine.state import GameState

# Delivery kinds.
POST, FINAL, DM, TURN_DM, DM_CLOSED, NOTICE, HOST_NOTICE = (
    "post", "final", "dm", "turn", "dm_closed", "notice", "host_notice")
# Timer kinds.
REMINDER, LIMIT = "reminder", "limit"
TURN_TIMERS = (REMINDER, LIMIT)
ABSENT_LIMIT = 3  # turns in a row the AI plays for an absent player before it keeps the seat
DEFAULT_TURN_HOURS = 48.0


@dataclass(frozen=True, slots=True)
class Owed:
    """One delivery: `key` is unique within the game, so owing it twice stores it once."""

    kind: str
    key: str
    user_id: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """A reminder or turn limit for one seat, for the turn `payload` names."""

    kind: str
    seat: int
    due_at: float
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What the policy needs to know of a seat."""

    seat: int
    user_id: int | None  # None: an AI seat
    dm_closed: bool = False
    stand_in: str | None = None  # the AI level holding a human's seat while they are away

    @property
    def human_present(self) -> bool:
        """A person plays this seat now (not an AI, and no AI stands in for them)."""
        return self.user_id is not None and self.stand_in is None


def turn_began(events: Iterable[Event]) -> bool:
    """Whether these events start a turn (or the game)."""
    return any(e.kind in ("turn_started", "game_started") for e in events)


def move_undone(events: Iterable[Event]) -> bool:
    """Whether these events take a move back (the mover's turn is theirs again)."""
    return any(e.kind == "move_undone" for e in events)


def turn_restarts(events: Iterable[Event]) -> bool:
    """Whether someone's turn (re)starts with these events: its clocks start afresh and the
    player gets their hand."""
    return turn_began(events) or move_undone(events)


def turn_key(state: GameState) -> dict[str, Any]:
    """Which turn the game is in: a turn timer only acts while this is unchanged."""
    return {"turn": state.turn, "setup": bool(state.pending.get("setup"))}


def owed_by_commit(*, last_seq: int, events: Sequence[Event], mover: SeatInfo | None, after: GameState,
                   waiting: Sequence[int], seats: Sequence[SeatInfo]) -> list[Owed]:
    """The deliveries one commit owes (see the module's docstring). `events` are all the
    commit's events; `mover` is the human who made the move, if a human did."""
    if after.status == "over":
        return [Owed(FINAL, FINAL)]
    new_turn = turn_began(events)
    undone = move_undone(events)
    # An undo corrects the turn post in place (the board as it was before the move).
    owed = [Owed(POST, f"{POST}:{last_seq}", payload={"new_turn": new_turn, "undone": True} if undone
                 else {"new_turn": new_turn})]
    turn_dms: set[int] = set()
    if new_turn or undone:
        for s in seats:
            if s.seat in waiting and s.human_present:
                turn_dms.add(s.seat)
                owed.append(_dm(s, TURN_DM, f"{TURN_DM}:{last_seq}:{s.seat}", {"seq": last_seq}))
    if (mover is not None and mover.seat not in turn_dms and mover.user_id is not None
            and any(e.visibility == PRIVATE and e.seat == mover.seat for e in events)):
        owed.append(_dm(mover, DM, f"{DM}:{last_seq}:{mover.seat}", {"seq": last_seq}))
    return owed


def _dm(s: SeatInfo, kind: str, key: str, payload: dict[str, Any]) -> Owed:
    if s.dm_closed:
        # One notice per game and player, in the thread: the hand stays a button away.
        return Owed(DM_CLOSED, f"{DM_CLOSED}:{s.user_id}", user_id=s.user_id)
    return Owed(kind, key, user_id=s.user_id, payload={"seat": s.seat, **payload})


def turn_timers(*, events: Sequence[Event], after: GameState, waiting: Sequence[int], seats: Sequence[SeatInfo],
                now: float, turn_hours: float | None, paused: bool) -> list[TurnTimer]:
    """The reminder and limit of each human the game waits for, when a turn has just begun
    (none while the game is paused, over, or for a seat the AI holds)."""
    if paused or not turn_restarts(events):
        return []
    return timers_for_turn(after=after, waiting=waiting, seats=seats, now=now, turn_hours=turn_hours)


def timers_for_turn(*, after: GameState, waiting: Sequence[int], seats: Sequence[SeatInfo], now: float,
                    turn_hours: float | None) -> list[TurnTimer]:
    """A full turn's reminder and limit for each human the game waits for (also when the
    clocks start again after a pause)."""
    if after.status == "over":
        return []
    hours = turn_hours or DEFAULT_TURN_HOURS
    if hours <= 0:
        return []
    key = turn_key(after)
    out = []
    for s in seats:
        if s.seat in waiting and s.human_present:
            out.append(TurnTimer(REMINDER, s.seat, now + hours * 1800, key))
            out.append(TurnTimer(LIMIT, s.seat, now + hours * 3600, key))
    return out
