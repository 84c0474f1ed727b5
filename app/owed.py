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
  the game is paused or the AI holds their seat;
- when the game ends: besides the final post, every person who played it the news — the
  result, their place and score, a link to the final post (`game_over`): by direct message,
  or a mention in the thread where their DMs are known to be closed; held until their quiet
  hours end, or for their next daily digest (which carries it) if they take one.

A move the mover may still take back (engine/undo.py) begins the next turn like any other —
the next player is pinged at once: the table sees the move at once, and the window lasts until
they act — and keeps the mover's turn clock as it stood (`held_clock`). Taking the move back
gives the turn back, not time: the mover's reminder and limit return as they were, still
counting (`restored_clock`; once the limit has passed the move stays), votes to skip them still
count, and whoever had been pinged for the turn taken back is told so (`taken_back`).

Each person's own clock (app/player_clock.py) shapes this: their turn limit counts only the
time their clock runs (not their quiet hours, not their vacation), the reminder comes at half
of that running time (none for a player who takes a daily digest instead), and their turn DM
waits until their quiet hours end (none with a daily digest: the digest lists the game).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.player_clock import PlayerClock
from engine.core import GameStarted, MoveUndone, TurnStarted
from engine.events import PRIVATE, Event
from engine.game import opening
from engine.state import GameState

# Delivery kinds.
POST, FINAL, DM, TURN_DM, DM_CLOSED, NOTICE, HOST_NOTICE = (
    "post", "final", "dm", "turn", "dm_closed", "notice", "host_notice")
# A player's daily digest (one DM listing the games waiting for them), the hand of a seat
# handed to a substitute (by DM), and the word to someone pinged for a turn that was then
# taken back (by DM).
DIGEST, SEAT_DM, TAKEN_BACK = "digest", "seat", "taken_back"
# The news that a game ended, to each person who played it (see the module's docstring).
GAME_OVER = "game_over"
# How long news held for a daily digest waits after that digest was due before it goes out on
# its own (a digest turned off meanwhile releases it at once: app/settings_ops.py).
DIGEST_HOLD = 86400.0
# Timer kinds.
REMINDER, LIMIT = "reminder", "limit"
TURN_TIMERS = (REMINDER, LIMIT)
# A timer that never falls due: the mover's turn timers as they stood when they made a move they
# may still take back. It is set for that point of the game (`for_seq`), so the next move,
# whatever it is, cancels it.
HELD_CLOCK = "held_clock"
NEVER = 4_102_444_800.0  # 2100-01-01: the due time of a timer that is not meant to fall due
ABSENT_LIMIT = 3  # turns in a row the AI plays for an absent player before it keeps the seat
DEFAULT_TURN_HOURS = 48.0


@dataclass(frozen=True, slots=True)
class Owed:
    """One delivery: `key` is unique within the game, so owing it twice stores it once."""

    kind: str
    key: str
    user_id: int | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)
    due_at: float | None = None  # not before (None: at once)


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
    clock: PlayerClock = PlayerClock()  # when their turn clock runs (their quiet hours, vacation)
    digest: bool = False  # they take one DM a day instead of a ping per turn
    digest_due: float | None = None  # when their next daily digest goes out

    @property
    def human_present(self) -> bool:
        """A person plays this seat now (not an AI, and no AI stands in for them)."""
        return self.user_id is not None and self.stand_in is None


# A commit asks these questions of its events several times (the policy, the timers, the
# mover's clock, the plans): a tuple of classes, made once, not a union built on every call
# (about half the cost of each question).
_TURN_BEGINS = (TurnStarted, GameStarted)


def turn_began(events: Iterable[Event]) -> bool:
    """Whether these events start a turn (or the game)."""
    return any(isinstance(e.payload, _TURN_BEGINS) for e in events)


def move_undone(events: Iterable[Event]) -> bool:
    """Whether these events take a move back (the mover's turn is theirs again)."""
    return any(isinstance(e.payload, MoveUndone) for e in events)


def turn_restarts(events: Iterable[Event]) -> bool:
    """Whether someone's turn (re)starts with these events: its clocks start afresh and the
    player gets their hand."""
    return turn_began(events) or move_undone(events)


def turn_key(state: GameState) -> dict[str, Any]:
    """Which turn the game is in: a turn timer only acts while this is unchanged."""
    return {"turn": state.turn, "setup": opening(state)}


def same_turn(payload: Mapping[str, Any], state: GameState) -> bool:
    """Whether a timer's payload is for the turn the game is in (the payload may carry more:
    how much running time was left when, see `timers_for_turn`)."""
    key = turn_key(state)
    return {k: payload.get(k) for k in key} == key


def owed_by_commit(*, last_seq: int, events: Sequence[Event], mover: SeatInfo | None, after: GameState,
                   waiting: Sequence[int], seats: Sequence[SeatInfo], now: float | None = None,
                   waiting_before: Sequence[int] = ()) -> list[Owed]:
    """The deliveries one commit owes (see the module's docstring). `events` are all the
    commit's events; `mover` is the human who made the move, if a human did; `waiting_before`,
    whom the game waited for before it (an undo tells them that their turn was taken back)."""
    if after.status == "over":
        return [Owed(FINAL, FINAL), *game_over_news(seats, now)]
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
                if s.digest:
                    continue  # their daily digest lists this game
                dm = _dm(s, TURN_DM, f"{TURN_DM}:{last_seq}:{s.seat}", {"seq": last_seq})
                if now is not None and dm.kind == TURN_DM and s.clock.stopped_at(now):
                    dm = Owed(dm.kind, dm.key, dm.user_id, dm.payload, s.clock.resumes(now))  # after their quiet
                owed.append(dm)
    if undone and mover is not None:
        owed += taken_back(seats, waiting_before, waiting, mover.seat, last_seq)
    if (mover is not None and mover.seat not in turn_dms and mover.user_id is not None
            and any(e.visibility == PRIVATE and e.seat == mover.seat for e in events)):
        owed.append(_dm(mover, DM, f"{DM}:{last_seq}:{mover.seat}", {"seq": last_seq}))
    return owed


def taken_back(seats: Sequence[SeatInfo], waiting_before: Sequence[int], waiting: Sequence[int], mover: int,
               last_seq: int) -> list[Owed]:
    """For an undo stored at `last_seq`: a word to each person the game waited for before it
    and no longer does. Each names the turn DM they were sent (`turn_dm`): the dispatcher sends
    the word only if that DM went out (one still held for their quiet hours is dropped instead,
    and they never hear of the turn at all)."""
    return [Owed(TAKEN_BACK, f"{TAKEN_BACK}:{last_seq}:{s.seat}", user_id=s.user_id,
                 payload={"seat": s.seat, "by": mover, "turn_dm": f"{TURN_DM}:{last_seq - 1}:{s.seat}"})
            for s in seats if s.seat in waiting_before and s.seat not in waiting and s.human_present
            and not s.dm_closed and not s.digest]


def game_over_news(seats: Sequence[SeatInfo], now: float | None = None) -> list[Owed]:
    """The news of the game's end owed to each person who played it, an AI standing in for
    them or not: a mention in the thread where their DMs are known to be closed; held for their
    next daily digest (which carries it; on its own DIGEST_HOLD later if none did); held until
    their quiet hours end; else a direct message at once."""
    out = []
    for s in seats:
        if s.user_id is None:
            continue
        key, payload = f"{GAME_OVER}:{s.seat}", {"seat": s.seat}
        if s.dm_closed:
            out.append(Owed(GAME_OVER, key, s.user_id, {**payload, "mention": True}))
        elif s.digest and s.digest_due is not None:
            out.append(Owed(GAME_OVER, key, s.user_id, {**payload, "digest": True}, s.digest_due + DIGEST_HOLD))
        elif now is not None and s.clock.stopped_at(now):
            out.append(Owed(GAME_OVER, key, s.user_id, payload, s.clock.resumes(now)))
        else:
            out.append(Owed(GAME_OVER, key, s.user_id, payload))
    return out


def _dm(s: SeatInfo, kind: str, key: str, payload: dict[str, Any]) -> Owed:
    if s.dm_closed:
        # One notice per game and player, in the thread: the hand stays a button away.
        return Owed(DM_CLOSED, f"{DM_CLOSED}:{s.user_id}", user_id=s.user_id)
    return Owed(kind, key, user_id=s.user_id, payload={"seat": s.seat, **payload})


def turn_timers(*, events: Sequence[Event], after: GameState, waiting: Sequence[int], seats: Sequence[SeatInfo],
                now: float, turn_hours: float | None, paused: bool,
                restored: Mapping[int, Sequence[TurnTimer]] | None = None) -> list[TurnTimer]:
    """The reminder and limit of each human the game waits for, when a turn has just begun
    (none while the game is paused, over, or for a seat the AI holds). `restored`: the timers
    a seat gets back with an undo (`restored_clock`) instead of a full turn's."""
    if paused or not turn_restarts(events):
        return []
    restored = restored or {}
    fresh = [s for s in seats if s.seat not in restored]
    return ([t for seat in sorted(restored) if seat in waiting for t in restored[seat]]
            + timers_for_turn(after=after, waiting=waiting, seats=fresh, now=now, turn_hours=turn_hours))


def held_clock(seat: int, state: GameState, pending: Iterable[tuple[str, int | None, float, Mapping[str, Any]]]
               ) -> dict[str, Any]:
    """The payload of a HELD_CLOCK timer: `seat`'s pending turn timers (kind, seat, due time,
    payload) for the turn of `state` (the one their move ends), as they stand."""
    key = turn_key(state)
    return {**key, "timers": [{"kind": kind, "due_at": due_at, "payload": dict(payload)}
                              for kind, at, due_at, payload in pending
                              if at == seat and kind in TURN_TIMERS and same_turn(payload, state)]}


def restored_clock(seat: int, after: GameState, held: Mapping[str, Any] | None, now: float
                   ) -> list[TurnTimer] | None:
    """The turn timers `seat` gets back when they take their move back (`after`: the state
    the undo restored), from what `held_clock` kept: each as it was, due when it was due — the
    time the move stood counts — but a reminder whose time has passed, since they are here.
    None when nothing was kept for this turn (the game was paused meanwhile, which restarts
    clocks anyway): a full turn then. Raises TimeRanOut when their limit passed meanwhile."""
    if held is None or not same_turn(held, after):
        return None
    timers = [t for t in held.get("timers") or () if isinstance(t, Mapping)]
    out = []
    for t in timers:
        kind, due_at, payload = t.get("kind"), t.get("due_at"), t.get("payload")
        if kind not in TURN_TIMERS or not isinstance(due_at, int | float) or not isinstance(payload, Mapping):
            continue
        if kind == LIMIT and due_at <= now:
            raise TimeRanOut()
        if kind == REMINDER and due_at <= now:
            continue
        out.append(TurnTimer(str(kind), seat, float(due_at), dict(payload)))
    return out


class TimeRanOut(Exception):
    """The mover's turn limit passed while the move they want to take back stood."""


def timers_for_turn(*, after: GameState, waiting: Sequence[int], seats: Sequence[SeatInfo], now: float,
                    turn_hours: float | None) -> list[TurnTimer]:
    """A full turn's reminder and limit for each human the game waits for (also when the
    clocks start again after a pause). The limit is `turn_hours` of the player's running time
    (their clock stops in quiet hours and on vacation), the reminder half of it (none for a
    player who takes a daily digest). Each payload says which turn it is for, and how much
    running time was `left` `from` when: a change of the player's settings moves it on from
    there (app/clocks.py, `retime`)."""
    if after.status == "over":
        return []
    hours = turn_hours or DEFAULT_TURN_HOURS
    if hours <= 0:
        return []
    key = turn_key(after)
    out = []
    for s in seats:
        if s.seat in waiting and s.human_present:
            if not s.digest:
                half = hours * 1800
                out.append(TurnTimer(REMINDER, s.seat, s.clock.advance(now, half), {**key, "from": now, "left": half}))
            full = hours * 3600
            out.append(TurnTimer(LIMIT, s.seat, s.clock.advance(now, full), {**key, "from": now, "left": full}))
    return out


def retimed(payload: Mapping[str, Any], old: PlayerClock, new: PlayerClock,
            now: float) -> tuple[float, dict[str, Any]] | None:
    """A pending turn timer after its player's clock changed from `old` to `new` at `now`: the
    running time used so far counts by the old clock, what is left runs by the new one. None
    for a timer that says nothing of its running time (stored before clocks were per player)."""
    start, left = payload.get("from"), payload.get("left")
    if not isinstance(start, int | float) or not isinstance(left, int | float):
        return None
    remaining = max(0.0, float(left) - old.running(float(start), now))
    return new.advance(now, remaining), {**payload, "from": now, "left": remaining}
