"""The core the service's parts share: the store, the clock, the game cache, per-game locks, and
the one way a move is stored — with everything it owes the players, in one transaction.

The parts (app/service.py lists them) each hold this core and use only its public surface:
`store`, `loader`, `clock`, `limits`, `random_bits`, `owner`, `lock`, `commit`, `owe` and the two
wake-ups (`deliveries_waiting`, `timers_changed`).

Every move goes through `commit`:

1. the caller holds the game's lock (moves of one game are serialised; other games go on);
2. it loaded the game (app.loader), checked the `expected_seq`, and applied the moves with the
   engine (an illegal one raised the engine's IllegalAction);
3. `commit` writes the actions, their events, a snapshot when one is due (every few moves:
   app/loader.py), the game's new seq — guarded, so it writes nothing if the game moved on
   meanwhile, even from another process — and, in the same transaction, what the move owes
   (app.owed: posts, direct messages, turn timers) and any change to the seats' absence;
4. only then is the cache updated and the dispatcher woken.

Nothing secret is logged: log lines name games, seqs, seats and action types, never hands,
tickets, deck order or the seed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app import records
from app.availability import seat_infos
from app.errors import ServiceError, StaleAction
from app.limits import Limits
from app.loaded import Loaded
from app.loader import CACHE_MB, GameLoader, games_for_memory
from app.models import Seat, SubmitResult
from app.owed import (
    HELD_CLOCK,
    LIMIT,
    NEVER,
    REMINDER,
    Owed,
    SeatInfo,
    TimeRanOut,
    TurnTimer,
    held_clock,
    move_undone,
    owed_by_commit,
    restored_clock,
    turn_began,
    turn_key,
    turn_restarts,
    turn_timers,
)
from app.plan_runs import planned_turns
from app.tutorial_moves import tutorial_owed
from engine.actions import Action
from engine.events import Event
from engine.game import actors
from engine.state import GameState, canonical_json
from engine.undo import can_undo
from store import Store, Tx, WriteConflict

log = logging.getLogger("app.service")

ACTIVE = ("setup", "playing")
OPEN = ("lobby", *ACTIVE)


@dataclass(slots=True)
class Move:
    """One applied move of a commit: who made it (a seat, and the user if a person did) and
    the events it caused."""

    seat: int
    user_id: int | None
    action: Action
    events: list[Event]


@dataclass(slots=True)
class SeatChange:
    """A seat's absence after a commit: turns in a row the AI played, and who holds it."""

    absent_turns: int
    stand_in: str | None


@dataclass(slots=True)
class CommitExtras:
    """What else a commit carries: a turn-limit timer it fires, seats' absence, notes for the
    turn post (for example that time ran out), and other deliveries it owes."""

    timer_id: int | None = None
    timer_rev: int | None = None
    seat_changes: dict[int, SeatChange] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    owed: list[Owed] = field(default_factory=list)  # more deliveries (a vote's outcome, …)


@dataclass(slots=True)
class MoverClock:
    """The mover's turn clock across a move they may take back: `hold`, the payload of the
    HELD_CLOCK timer that keeps it; `restored`, the timers an undo gives back (None: a full
    turn's)."""

    seat: int
    hold: dict[str, Any] | None = None
    restored: list[TurnTimer] | None = None


class ServiceCore:
    """What every part of the service shares: the store, the clock, the loaded-game cache,
    per-game locks, and the commit — the write path of a move and what it owes. The parts hold
    it (composition); `app.service.GameService` builds it and them."""

    def __init__(self, store: Store, *, clock: Callable[[], float] | None = None, cache_size: int | None = None,
                 limits: Limits | None = None, random_bits: Callable[[int], int] = secrets.randbits) -> None:
        """`cache_size`: the games kept loaded (default: as many as fit in the cache's memory,
        app.loader.CACHE_MB)."""
        self.store = store
        # Where deals and the AIs' choices get their randomness: real secrets in the bot, a
        # seeded generator in the offline demo (so --seed replays the same game).
        self.random_bits = random_bits
        self.clock = clock or store.clock
        self.limits = limits or Limits()
        self.loader = GameLoader(store, games_for_memory(CACHE_MB) if cache_size is None else cache_size,
                                 lock=self.lock)
        # A lock lives while someone holds or waits for it, so the dict does not grow for ever.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Set whenever a commit stored deliveries: the dispatcher waits on it.
        self.deliveries_waiting = asyncio.Event()
        # Set whenever timers were scheduled: the timer loop waits on it.
        self.timers_changed = asyncio.Event()
        # Who this process is, in the claims it makes on deliveries and timers when several
        # processes share a PostgreSQL database (docs/scaling.md): the store's name for it,
        # whose claims count only while the process lives (store/presence.py).
        self.owner = store.owner
        store.on_wake(self._woken)

    def _woken(self) -> None:
        """Another process went away or let go of its work: look for what is now free."""
        self.deliveries_waiting.set()
        self.timers_changed.set()

    async def close(self) -> None:
        """Stop the background checks, finish the queued writes and close the database."""
        await self.loader.close()
        await self.store.close()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: moves and reads of one game are serialised, other games go on."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # --------------------------------------------------------------------------------------
    # The commit
    # --------------------------------------------------------------------------------------

    async def commit(self, loaded: Loaded, moves: Sequence[Move], after: GameState,
                      extras: CommitExtras | None = None) -> SubmitResult:
        """Store `moves` (applied in order to the loaded state, giving `after`) and what they
        owe, in one transaction. The caller holds the game's lock."""
        extras = extras or CommitExtras()
        game_id = loaded.row.id
        own = moves  # the caller's; plans may add the turns they bring (app/plan_runs.py)
        events = [e for m in moves for e in m.events]
        seats = self._seats_after(loaded.seats, extras.seat_changes)
        planned = await planned_turns(self.store, game_id, seats, events, after, loaded.seq + len(moves))
        if planned is not None:
            moves = [*moves, *(Move(seat, user, action, evs) for seat, user, action, evs in planned.played)]
            after = planned.state
            events = [e for m in moves for e in m.events]
        last = loaded.seq + len(moves)
        # A turn that begins, or the game's end, needs each player's own clock (their quiet
        # hours, vacation, daily digest).
        infos = (await seat_infos(self.store, seats, loaded.row.max_away_days)
                 if turn_restarts(events) or after.status == "over" else None)
        clocks = await self._mover_clock(loaded, moves, events, after)
        tx = self.store.tx()
        waiting_json = canonical_json(actors(after))
        tx.games.advance(game_id, from_seq=loaded.seq, to_seq=last, status=after.status,
                         waiting_json=waiting_json, from_status=loaded.state.status)
        for offset, m in enumerate(moves, start=1):
            tx.log.append(game_id, loaded.seq + offset, actor=m.seat, user_id=m.user_id,
                          action_json=canonical_json(m.action.to_json()), events_json=records.events_json(m.events))
        # A snapshot every few moves (app/loader.py): a load replays the entries after it.
        snapshot = None
        if self.loader.snapshot_due(loaded, last, after):
            snapshot = tx.log.put_snapshot(game_id, last, rules_version=after.rules_version,
                                           state_json=after.to_canonical())
        if extras.timer_id is not None:
            tx.timers.fire(extras.timer_id, extras.timer_rev)  # before the cancels below would cancel it as out of date
        tx.timers.cancel_before(game_id, last)
        for seat, change in extras.seat_changes.items():
            tx.seats.set_absence(game_id, seat, change.absent_turns, change.stand_in)
        if planned is not None:
            for seat, revision, rest in planned.taken:
                tx.plans.take(game_id, seat, revision, rest)
        if after.status == "over":
            tx.timers.cancel(game_id)
            tx.plans.drop(game_id)  # plans for turns that will not come
            if not after.options.get("tutorial"):  # a tutorial is unrated: no result, no rating
                tx.results.add(records.results(loaded, after, tx.now))
        mover = seats[moves[0].seat] if moves[0].user_id is not None else None
        written: list[tuple[str, int, float, str]] = []
        votes_cleared = self.owe(tx, loaded, last, events, mover, after, seats, extras.notes, infos, clocks,
                                 written_timers=written)
        for o in [*extras.owed, *await tutorial_owed(self.store, loaded, [(m.seat, m.user_id, m.action) for m in moves],
                                                      after)]:
            tx.deliveries.owe(game_id, last, o.kind, o.key, user_id=o.user_id,
                              payload_json=canonical_json(dict(o.payload)))
        for o in planned.owed if planned is not None else ():
            # A planner's private line waits, like a turn DM, until their quiet hours end.
            info = next((i for i in infos or () if i.seat == o.payload.get("seat")), None)
            due = info.clock.resumes(tx.now) if info is not None and info.clock.stopped_at(tx.now) else None
            tx.deliveries.owe(game_id, last, o.kind, o.key, user_id=o.user_id,
                              payload_json=canonical_json(dict(o.payload)), due_at=due)
        stamp = self.store.timers_stamp(game_id)
        try:
            await self.store.write(tx)
        except WriteConflict as exc:
            # Another process moved the game on (or the timer had fired): our copy is stale.
            self.loader.forget(game_id)
            raise StaleAction(game_id, None, str(exc)) from exc
        except BaseException:
            # The write may or may not have happened (cancelled mid-flight, I/O error): reload
            # from the database next time rather than trust the cache.
            self.loader.forget(game_id)
            raise
        loaded.state, loaded.seq, loaded.seats = after, last, seats
        self._kept_turn_timers(loaded, stamp, written if turn_restarts(events) else None)
        loaded.votes = loaded.votes and not votes_cleared
        # The row as just written: on PostgreSQL each use compares the cached row's status with
        # the stored one (app/loader.py), and a status left behind (setup → playing) would load
        # the game again from the database for nothing. Its version stays: an advance raises the
        # seq, which moves no version (migration 35); if another statement of the transaction (a
        # seat's absence) or another process moved it, the next use finds it moved and reads the row.
        loaded.row = loaded.row.advanced(last, after.status, waiting_json, tx.now)
        if snapshot is not None:
            self.loader.wrote_snapshot(loaded, last, snapshot)
        self.deliveries_waiting.set()
        self.timers_changed.set()
        for m in moves:
            log.debug("game %d: %s by seat %d", game_id, m.action.TYPE, m.seat)
        if after.status == "over":
            log.info("game %d: over after %d moves", game_id, last)
        # The caller's moves, with the state after everything (the plans' moves are their
        # players' own, told to them privately).
        return records.result(game_id, last, own[-1].seat, after, [e for m in own for e in m.events], own[-1].action)

    def _kept_turn_timers(self, loaded: Loaded, before: tuple[int, int] | None,
                          written: Sequence[tuple[str, int, float, str]] | None) -> None:
        """After a commit of `loaded` (its timer stamp `before` it): keep the game's pending
        reminders and limits with it, so that the next move's `_mover_clock` need not read
        them. They are known when this commit wrote them all (`written`: `TimerWrites.turn`
        leaves exactly those pending) or left them alone (its other timer statements cancel
        only timers set for a point of the game, or its HELD_CLOCK), and no other transaction
        touched the game's timers meanwhile: the store counts each transaction twice (queued,
        done), so this one alone moves the stamp by exactly 2."""
        after = self.store.timers_stamp(loaded.row.id)
        known = written is not None or (loaded.turn_timers is not None and loaded.timers_stamp == before)
        if (before is None or after is None or not known or loaded.state.status == "over"
                or after != (before[0], before[1] + 2)):
            loaded.turn_timers, loaded.timers_stamp = None, None
            return
        if written is not None:
            loaded.turn_timers = tuple(written)
        loaded.timers_stamp = after

    async def _pending_turn_timers(self, loaded: Loaded) -> list[tuple[str, int | None, float, Mapping[str, Any]]]:
        """The game's pending timers (kind, seat, due time, payload), soonest first: as this
        process wrote them when that is still so (`_kept_turn_timers`), else as stored.
        Those kept are only the reminders and limits: what `held_clock` takes."""
        kept = loaded.turn_timers
        if kept is not None and loaded.timers_stamp is not None \
                and self.store.timers_stamp(loaded.row.id) == loaded.timers_stamp:
            # As the read orders them (by due time; a stable sort keeps the written order of
            # equal ones, the order of their ids), payloads read back from their JSON.
            return [(kind, seat, due_at, _payload(payload_json))
                    for kind, seat, due_at, payload_json in sorted(kept, key=lambda t: t[2])]
        pending = await self.store.timers.pending(loaded.row.id)
        return [(t.kind, t.seat, t.due_at, records.timer(t).payload) for t in pending]

    async def _mover_clock(self, loaded: Loaded, moves: Sequence[Move], events: Sequence[Event],
                           after: GameState) -> MoverClock:
        """The mover's turn clock across a move they may take back (app/owed.py): what to hold
        when a person's move begins the next turn but stays undoable, what to give back when
        it is taken back. Raises ServiceError when it is too late to take it back (their limit
        passed while the move stood)."""
        seat = moves[0].seat
        if moves[0].user_id is None or not (move_undone(events) or turn_began(events) and can_undo(after, seat)):
            return MoverClock(seat)
        if not move_undone(events):
            return MoverClock(seat, hold=held_clock(seat, loaded.state, await self._pending_turn_timers(loaded)))
        pending = await self.store.timers.pending(loaded.row.id)
        held = next((records.timer(t).payload for t in pending if t.kind == HELD_CLOCK and t.seat == seat), None)
        try:
            restored = restored_clock(seat, after, held, self.clock())
        except TimeRanOut:
            raise ServiceError("Too late to take that back: your time for that turn ran out while the move stood, "
                               "so it stays.", "too_late") from None
        return MoverClock(seat, restored=restored)

    def owe(self, tx: Tx, loaded: Loaded, last: int, events: Sequence[Event], mover: Seat | None,
             after: GameState, seats: Sequence[Seat], notes: Sequence[Mapping[str, Any]] = (),
             infos: Sequence[SeatInfo] | None = None, clocks: MoverClock | None = None,
             written_timers: list[tuple[str, int, float, str]] | None = None) -> bool:
        """Add to `tx` what a commit (or the start) owes: deliveries and the new turn's timers.
        `infos`: the seats with their players' clocks (read by the caller when a turn begins;
        without them every clock runs all the time); `clocks`: the mover's clock across a move
        they may take back; `written_timers`, when given, receives the turn's timers written
        (kind, seat, due time, payload JSON). Returns whether `tx` clears every vote of the game (the caller's
        `loaded.votes` is False once it is written)."""
        game_id = loaded.row.id
        cleared = False
        waiting = actors(after)
        infos = list(infos) if infos is not None else [_info(s) for s in seats]
        for owed in owed_by_commit(last_seq=last, events=events, mover=_info(mover) if mover else None,
                                   after=after, waiting=waiting, seats=infos, now=tx.now,
                                   waiting_before=actors(loaded.state)):
            payload = dict(owed.payload, notes=list(notes)) if notes and owed.kind == "post" else dict(owed.payload)
            tx.deliveries.owe(game_id, last, owed.kind, owed.key, user_id=owed.user_id,
                              payload_json=canonical_json(payload), due_at=owed.due_at)
        if turn_began(events) and loaded.votes:
            # Votes are for one turn; those against a mover who may still take the move back
            # (their turn again) stay, and count again if they do. A game with no votes stored
            # has nothing to clear (most turns: one statement less per move).
            undoable = clocks is not None and clocks.hold is not None
            tx.seats.clear_skip_votes(game_id, keep_turn=canonical_json(turn_key(loaded.state)) if undoable else None)
            cleared = not undoable
        restored = {clocks.seat: clocks.restored} if clocks is not None and clocks.restored is not None else None
        if turn_restarts(events):
            # The last turn's reminders and limits become this turn's, rescheduled in place
            # (store/timers.py: fewer pages written per move than a cancel and an insert).
            timers = turn_timers(events=events, after=after, waiting=waiting, seats=infos, now=tx.now,
                                 turn_hours=loaded.row.turn_hours, paused=loaded.row.paused_reason is not None,
                                 restored=restored)
            written = [(t.kind, t.seat, t.due_at, canonical_json(dict(t.payload))) for t in timers]
            tx.timers.turn(game_id, (REMINDER, LIMIT), written)
            if written_timers is not None:
                written_timers.extend(written)
        if clocks is not None and clocks.hold is not None:
            tx.timers.schedule(game_id, HELD_CLOCK, NEVER, seat=clocks.seat, for_seq=last,
                               payload_json=canonical_json(clocks.hold))
        return cleared

    @staticmethod
    def _seats_after(seats: tuple[Seat, ...], changes: Mapping[int, SeatChange]) -> tuple[Seat, ...]:
        return tuple(replace(s, absent_turns=changes[s.seat].absent_turns, stand_in=changes[s.seat].stand_in)
                     if s.seat in changes else s for s in seats)


def _payload(text: str) -> dict[str, Any]:
    """A timer's payload from its JSON, as `records.timer` reads a stored one."""
    try:
        payload = json.loads(text)
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


def _info(s: Seat) -> SeatInfo:
    return SeatInfo(s.seat, s.user_id, s.dm_closed, s.stand_in)
