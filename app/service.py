"""The game service: the only way the Discord layer changes a game.

It joins the pure engine (rules) and the store (SQLite). Every move goes through `submit`:

1. take the game's lock (moves of one game are serialised; other games go on in parallel);
2. load the game (from the in-memory cache, else from the database, checking the snapshot
   against a replay of the log);
3. refuse a stale `expected_seq` — a double click or an old button — with StaleAction;
4. apply the action with the engine (an illegal one raises the engine's IllegalAction);
5. write the action, its events, the new snapshot and the game's new seq in ONE transaction,
   guarded so it writes nothing if the game moved on meanwhile (even from another process);
6. only then update the cache and return the public events and each seat's private ones.

Nothing secret is logged: log lines name games, seqs, seats and action types, never hands,
tickets, deck order or the seed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import (
    GameBroken,
    GameNotFound,
    LimitReached,
    LobbyError,
    NotAPlayer,
    OtherServer,
    ServiceError,
    StaleAction,
)
from app.limits import Limits
from app.models import Actor, GameSummary, Lobby, LogEntry, PlayerStats, Seat, SubmitResult, Timer
from engine.actions import Action, action_from_json
from engine.ai import AI_LEVELS, make_ai
from engine.errors import IllegalAction
from engine.events import PRIVATE, PUBLIC, Event
from engine.game import actors, apply, new_game
from engine.game import legal_actions as legal_for
from engine.game import view as view_for
from engine.state import RULES_VERSION, GameState, canonical_json
from engine.variants import build_ruleset
from store import GameRow, PlayerRow, ResultRow, Store, Tx, WriteConflict
from store.records import ActionRow, SnapshotRow

log = logging.getLogger(__name__)

# The start of a game is entry 0 of its log; this is its action.
START_ACTION = canonical_json({"type": "start"})
ACTIVE = ("setup", "playing")
OPEN = ("lobby", *ACTIVE)


@dataclass(slots=True)
class _Loaded:
    """A game in the cache: its state after action `seq`, and its seats."""

    row: GameRow
    seats: tuple[Seat, ...]
    state: GameState
    seq: int


class _Corrupt(Exception):
    """Stored data that cannot be read (the message says which and why)."""


class GameService:
    """The application service. Create it with `await GameService.open(path)` (or around an
    open Store) and close it with `close()`."""

    def __init__(self, store: Store, *, clock: Callable[[], float] | None = None, cache_size: int = 2000,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.clock = clock or store.clock
        self.cache_size = cache_size
        self.limits = limits or Limits()
        # When each user last opened a table (the cooldown). Bounded; losing it in a restart
        # only forgives one cooldown.
        self._last_lobby: OrderedDict[int, float] = OrderedDict()
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        # A lock lives while someone holds or waits for it, so the dict does not grow for ever.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Opening a lobby is checked-then-written; this makes a double click see the first one.
        self._create_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path | None = None, *, clock: Callable[[], float] = time.time,
                   cache_size: int = 2000, limits: Limits | None = None) -> GameService:
        """Open the store at `path` (migrating it) and a service on it."""
        return cls(await Store.open(path, clock=clock), clock=clock, cache_size=cache_size, limits=limits)

    async def close(self) -> None:
        """Finish the queued writes and close the database."""
        await self.store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    # ======================================================================================
    # Lobby
    # ======================================================================================

    async def create_lobby(self, guild_id: int, channel_id: int, host_user_id: int, host_name: str, variant: str,
                           options: Mapping[str, Any] | None = None, seats_wanted: int = 4,
                           turn_hours: float | None = None, host_plays: bool = True) -> Lobby:
        """Open a table for `seats_wanted` players. A host has at most one open lobby per
        channel: asking again (a double click) returns that lobby with `changed=False`. The
        variant, options and table size are checked now (the engine's IllegalAction), so a
        table that could never start is not created."""
        options = dict(options or {})
        build_ruleset(variant, seats_wanted, options)  # IllegalAction: unknown variant, option or table size
        if turn_hours is not None and turn_hours <= 0:
            raise LobbyError("A turn limit must be a positive number of hours.", "bad_turn_limit")
        async with self._create_lock:
            existing = await self.store.open_lobby_of(guild_id, channel_id, host_user_id)
            if existing is not None:
                return await self._lobby(existing.id, changed=False)
            await self._check_new_table(guild_id, host_user_id, host_plays)
            tx = self.store.tx()
            index = tx.create_game(guild_id=guild_id, channel_id=channel_id, host_user_id=host_user_id,
                                   variant=variant, options_json=canonical_json(options), seats_wanted=seats_wanted,
                                   turn_hours=turn_hours)
            if host_plays:
                tx.join_lobby(None, user_id=host_user_id, is_ai=False, ai_level=None, name=host_name,
                              seats_wanted=seats_wanted)
            try:
                done = await self.store.write(tx)
            except WriteConflict:
                # Another process opened it first (one open lobby per host and channel).
                existing = await self.store.open_lobby_of(guild_id, channel_id, host_user_id)
                if existing is None:
                    raise
                return await self._lobby(existing.id, changed=False)
        game_id = done.lastrowids[index]
        assert game_id is not None
        self._last_lobby[host_user_id] = self.clock()
        self._last_lobby.move_to_end(host_user_id)
        while len(self._last_lobby) > 10_000:
            self._last_lobby.popitem(last=False)
        log.info("game %d: lobby opened (%s, %d seats)", game_id, variant, seats_wanted)
        return await self._lobby(game_id)

    async def lobby(self, game_id: int) -> Lobby:
        """A table and who sits at it."""
        return await self._lobby(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        """Take a seat. Joining again is harmless (`changed=False`)."""
        async with self._lock(game_id):
            row = await self._lobby_row(game_id)
            players = await self.store.players(game_id)
            if any(p.user_id == user_id for p in players):
                return await self._lobby(game_id, changed=False)
            if len(players) >= row.seats_wanted:
                raise LobbyError("This table is full.", "lobby_full")
            counts = await self.store.table_counts(row.guild_id, user_id)
            if counts.user_games >= self.limits.games_per_user:
                raise LimitReached(f"You already sit at {counts.user_games} tables and games, the most one "
                                   "player may; finish or leave one first.")
            tx = self.store.tx()
            tx.join_lobby(game_id, user_id=user_id, is_ai=False, ai_level=None, name=name,
                          seats_wanted=row.seats_wanted)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def leave(self, game_id: int, user_id: int) -> Lobby:
        """Give up a seat before the start. Leaving twice is harmless. When the host leaves,
        the table closes (status "cancelled")."""
        async with self._lock(game_id):
            row = await self.store.game(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.status == "cancelled":
                return await self._lobby(game_id, changed=False)
            if row.status != "lobby":
                raise LobbyError("The game has started; you can no longer leave the table.", "already_started")
            if user_id == row.host_user_id:
                tx = self.store.tx()
                tx.set_status(game_id, "lobby", "cancelled")
                tx.cancel_timers(game_id)
                await self._write_lobby(game_id, tx)
                return await self._lobby(game_id)
            mine = [p for p in await self.store.players(game_id) if p.user_id == user_id]
            if not mine:
                return await self._lobby(game_id, changed=False)
            tx = self.store.tx()
            tx.leave_lobby(game_id, mine[0].seat)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def cancel_lobby(self, game_id: int, by_user_id: int) -> Lobby:
        """Close a table before its start (host only). Cancelling twice is harmless."""
        async with self._lock(game_id):
            row = await self.store.game(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can close this table.", "not_host")
            if row.status == "cancelled":
                return await self._lobby(game_id, changed=False)
            if row.status != "lobby":
                raise LobbyError("The game has already started.", "already_started")
            tx = self.store.tx()
            tx.set_status(game_id, "lobby", "cancelled")
            tx.cancel_timers(game_id)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def add_ai(self, game_id: int, by_user_id: int, level: str, expected_seats: int) -> Lobby:
        """Seat a computer player (host only). `expected_seats` is how many seats the host saw
        taken: if that changed (a double click already added one), nothing is added and
        StaleAction says so."""
        if level not in AI_LEVELS:
            raise LobbyError(f"There is no AI level “{level[:20]}”; choose one of {', '.join(AI_LEVELS)}.",
                             "bad_ai_level")
        async with self._lock(game_id):
            row = await self._lobby_row(game_id)
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can add computer players.", "not_host")
            players = await self.store.players(game_id)
            if len(players) != expected_seats:
                raise StaleAction(game_id, None, "That already happened: the table has changed since you saw it.")
            if len(players) >= row.seats_wanted:
                raise LobbyError("This table is full.", "lobby_full")
            taken = {p.name for p in players}
            number = sum(1 for p in players if p.is_ai) + 1
            name = f"Bot {number}"
            while name in taken:
                number += 1
                name = f"Bot {number}"
            tx = self.store.tx()
            tx.join_lobby(game_id, user_id=None, is_ai=True, ai_level=level, name=name, seats_wanted=row.seats_wanted)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def start(self, game_id: int, by_user_id: int) -> SubmitResult:
        """Deal the game (host only): draw a seed with `secrets`, call the engine, and store
        the seats, the seed, entry 0 of the log and the first snapshot in one transaction.
        Starting twice gives StaleAction; too few players gives IllegalAction."""
        async with self._lock(game_id):
            row = await self.store.game(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.status == "cancelled":
                raise LobbyError("This table was closed.", "cancelled")
            if row.status != "lobby":
                raise StaleAction(game_id, row.seq, "That already happened: the game has already started.")
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can start the game.", "not_host")
            counts = await self.store.table_counts(row.guild_id, by_user_id)
            if counts.server_games >= self.limits.games_per_server:
                raise LimitReached(f"This server already has {counts.server_games} games running, the most it "
                                   "may; wait until one ends.")
            players = await self.store.players(game_id)
            options = json.loads(row.options_json)
            seed = secrets.randbits(63)  # SQLite integers are signed 64-bit
            names = [p.name for p in players]
            state, events = new_game(row.variant, len(players), seed, options, names=names)
            waiting = actors(state)
            tx = self.store.tx()
            tx.start_game(game_id, seed=seed, rules_version=state.rules_version, status=state.status,
                          waiting_json=canonical_json(waiting), seats=players)
            tx.append_action(game_id, 0, actor=None, user_id=by_user_id, action_json=START_ACTION,
                             events_json=_events_json(events))
            tx.put_snapshot(game_id, 0, rules_version=state.rules_version, state_json=state.to_canonical())
            try:
                await self.store.write(tx)
            except WriteConflict as exc:
                raise StaleAction(game_id, None, "That already happened: the game has already started.") from exc
            seats = tuple(Seat(i, p.user_id, p.is_ai, p.ai_level, p.name) for i, p in enumerate(players))
            fresh = await self.store.game(game_id)
            assert fresh is not None
            self._remember(game_id, _Loaded(fresh, seats, state, 0))
            log.info("game %d: started with %d players", game_id, len(players))
            return _result(game_id, 0, None, state, events)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Record the Discord thread where the game is played. Idempotent."""
        async with self._lock(game_id):
            tx = self.store.tx()
            tx.set_thread(game_id, thread_id)
            try:
                await self.store.write(tx)
            except WriteConflict as exc:
                raise GameNotFound(game_id) from exc
            cached = self._cache.get(game_id)
            if cached is not None:
                fresh = await self.store.game(game_id)
                if fresh is not None:
                    cached.row = fresh

    async def _lobby_row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        if row.status == "cancelled":
            raise LobbyError("This table was closed.", "cancelled")
        if row.status != "lobby":
            raise LobbyError("The game has already started.", "already_started")
        return row

    async def _write_lobby(self, game_id: int, tx: Tx) -> None:
        try:
            await self.store.write(tx)
        except WriteConflict as exc:
            # Another process changed the table between our read and our write.
            raise StaleAction(game_id, None, "That already happened: the table has changed since you saw it.") from exc

    async def _check_new_table(self, guild_id: int, user_id: int, host_plays: bool) -> None:
        """Refuse a new table over the caps of app.limits, or too soon after the last one."""
        limits = self.limits
        last = self._last_lobby.get(user_id)
        if last is not None and self.clock() - last < limits.lobby_cooldown_seconds:
            wait = max(1, round(limits.lobby_cooldown_seconds - (self.clock() - last)))
            raise LimitReached(f"You opened a table a moment ago; wait {wait} s before opening another.")
        counts = await self.store.table_counts(guild_id, user_id)
        if counts.lobbies_hosted >= limits.lobbies_per_user:
            raise LimitReached(f"You already host {counts.lobbies_hosted} open tables, the most one player may; "
                               "start or cancel one first.")
        if counts.server_lobbies >= limits.lobbies_per_server:
            raise LimitReached(f"This server already has {counts.server_lobbies} open tables, the most it may; "
                               "start or cancel one first.")
        if host_plays and counts.user_games >= limits.games_per_user:
            raise LimitReached(f"You already sit at {counts.user_games} tables and games, the most one player "
                               "may; finish or leave one first.")

    async def _lobby(self, game_id: int, changed: bool = True) -> Lobby:
        row = await self.store.game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        players = await self.store.players(game_id)
        try:
            options = json.loads(row.options_json)
        except ValueError:
            options = {}
        return Lobby(
            game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
            host_user_id=row.host_user_id, variant=row.variant, options=options, seats_wanted=row.seats_wanted,
            turn_hours=row.turn_hours, status=row.status, seats=tuple(_seat(p) for p in players), changed=changed,
        )

    # ======================================================================================
    # Playing
    # ======================================================================================

    async def submit(self, game_id: int, actor: Actor, action: Action | Mapping[str, Any], expected_seq: int, *,
                     timer_id: int | None = None) -> SubmitResult:
        """Apply one move, durably.

        `expected_seq` is the seq the player saw (put it in the button). If the game has moved
        on, StaleAction ("that already happened") and nothing is applied. An illegal move
        raises the engine's IllegalAction. With `timer_id` (a turn limit acting for an absent
        player), the timer is marked fired in the same transaction, so it acts exactly once."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if expected_seq != loaded.seq:
                raise StaleAction(game_id, loaded.seq)
            seat = self._seat_for(loaded, actor, timer_id)
            move = _bind(action, seat)
            after, events = apply(loaded.state, move)
            return await self._commit_move(game_id, loaded, seat, actor.user_id, move, after, events, timer_id)

    async def play_ai(self, game_id: int, expected_seq: int) -> SubmitResult | None:
        """Let an AI seat the game is waiting for make its move; None when the game is not
        waiting for an AI. Call it again until it returns None."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            if expected_seq != loaded.seq:
                raise StaleAction(game_id, loaded.seq)
            waiting = actors(loaded.state)
            ai_seats = [s for s in loaded.seats if s.is_ai and s.seat in waiting]
            if not ai_seats:
                return None
            seat = ai_seats[0]
            # A fresh seed per decision: an AI keeps no memory between moves, so a restart
            # cannot change how it plays, and its dice have nothing to do with the deck's.
            ai = make_ai(seat.ai_level or "random", secrets.randbits(32))
            move = ai.choose(view_for(loaded.state, seat.seat), legal_for(loaded.state, seat.seat))
            after, events = apply(loaded.state, move)
            return await self._commit_move(game_id, loaded, seat.seat, None, move, after, events, None)

    async def _commit_move(self, game_id: int, loaded: _Loaded, seat: int, user_id: int | None, move: Action,
                           after: GameState, events: list[Event], timer_id: int | None) -> SubmitResult:
        seq = loaded.seq + 1
        tx = self.store.tx()
        tx.advance_game(game_id, from_seq=loaded.seq, to_seq=seq, status=after.status,
                        waiting_json=canonical_json(actors(after)))
        tx.append_action(game_id, seq, actor=seat, user_id=user_id, action_json=canonical_json(move.to_json()),
                         events_json=_events_json(events))
        tx.put_snapshot(game_id, seq, rules_version=after.rules_version, state_json=after.to_canonical())
        if timer_id is not None:
            tx.fire_timer(timer_id)  # before the next line would cancel it as out of date
        tx.cancel_timers_before(game_id, seq)
        if after.status == "over":
            tx.cancel_timers(game_id)
            tx.add_results(_results(loaded, after, tx.now))
        try:
            await self.store.write(tx)
        except WriteConflict as exc:
            # Another process moved the game on (or the timer had fired): our copy is stale.
            self._forget(game_id)
            raise StaleAction(game_id, None, str(exc)) from exc
        except BaseException:
            # The write may or may not have happened (cancelled mid-flight, I/O error): reload
            # from the database next time rather than trust the cache.
            self._forget(game_id)
            raise
        loaded.state = after
        loaded.seq = seq
        log.debug("game %d: seq %d %s by seat %d", game_id, seq, move.TYPE, seat)
        if after.status == "over":
            log.info("game %d: over after %d moves", game_id, seq)
        return _result(game_id, seq, seat, after, events, move)

    def _seat_for(self, loaded: _Loaded, actor: Actor, timer_id: int | None) -> int:
        game_id = loaded.row.id
        if actor.user_id is not None:
            for s in loaded.seats:
                if s.user_id == actor.user_id:
                    return s.seat
            raise NotAPlayer(game_id)
        if actor.seat is None or not 0 <= actor.seat < len(loaded.seats):
            raise NotAPlayer(game_id)
        if not loaded.seats[actor.seat].is_ai and timer_id is None:
            raise ServiceError("The bot only moves for computer players, or for a player whose time ran out.",
                               "not_ai")
        return actor.seat

    # ======================================================================================
    # Reading a game
    # ======================================================================================

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        """The seat of `user_id` in the game, or None."""
        for p in await self.store.players(game_id):
            if p.user_id == user_id:
                return p.seat
        return None

    async def view(self, game_id: int, user_id: int | None = None) -> dict[str, Any]:
        """The game as `user_id` may see it: their own hand and tickets if they play, else
        only what anyone may see. Also carries "seq" for the next move's `expected_seq`."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            seat = _seat_of(loaded.seats, user_id)
            out = view_for(loaded.state, seat)
            out["seq"] = loaded.seq
            out["game_id"] = game_id
            return out

    async def legal_actions(self, game_id: int, user_id: int) -> list[Action]:
        """What `user_id` may do now (empty when it is not their turn or they do not play)."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)
            seat = _seat_of(loaded.seats, user_id)
            return [] if seat is None else legal_for(loaded.state, seat)

    async def recent_log(self, game_id: int, limit: int = 20, user_id: int | None = None) -> list[LogEntry]:
        """The last `limit` entries of the game's log with the events `user_id` may see: the
        public ones, plus their own private ones. Never anyone else's."""
        async with self._lock(game_id):
            loaded = await self._load(game_id)  # checks the whole log can be read
            seat = _seat_of(loaded.seats, user_id)
            rows = await self.store.recent_actions(game_id, limit)
        entries = []
        for r in rows:
            events = tuple(e for e in (Event.from_json(d) for d in json.loads(r.events_json)) if e.visible_to(seat))
            entries.append(LogEntry(r.seq, r.actor, r.created_at, events))
        return entries

    async def game(self, game_id: int, user_id: int | None = None) -> GameSummary:
        """One game's summary (works for lobbies and broken games too)."""
        row = await self.store.game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        players = await self.store.players(game_id)
        return _summary(row, players, user_id)

    async def game_for(self, game_id: int, *, guild_id: int | None, user_id: int) -> GameSummary:
        """The game, if `user_id` may reach it from where they ask: from a server, only that
        server's games; from a direct message (`guild_id` None), only games they sit at.
        Otherwise OtherServer, whose words do not tell whether the game exists."""
        summary = await self.game(game_id, user_id)
        if guild_id is None:
            if summary.your_seat is None:
                raise OtherServer(game_id)
        elif summary.guild_id != guild_id:
            raise OtherServer(game_id)
        return summary

    async def games_of(self, user_id: int, guild_id: int | None = None, include_finished: bool = False
                       ) -> list[GameSummary]:
        """The games `user_id` sits in (lobbies and running ones; finished and broken ones too
        with `include_finished`), most recently active first, each with whom it waits for."""
        statuses = OPEN + (("over", "broken") if include_finished else ())
        pairs = await self.store.seats_of_user(user_id, statuses, guild_id)
        players = await self.store.players_of(row.id for row, _ in pairs)
        return [_summary(row, players[row.id], user_id) for row, _ in pairs]

    async def active_game_ids(self) -> list[int]:
        """Every game being played (for example to resume AI moves after a restart)."""
        return await self.store.game_ids(ACTIVE)

    # ======================================================================================
    # Loading and recovery
    # ======================================================================================

    async def _load(self, game_id: int) -> _Loaded:
        """The game from the cache, else from the database. The caller holds the game's lock."""
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            return cached
        row = await self.store.game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        if row.status == "broken":
            raise GameBroken(game_id, row.broken_reason or "its stored data could not be read.")
        if row.status == "lobby":
            raise ServiceError(f"Game #{game_id} has not started yet.", "not_started")
        if row.status == "cancelled":
            raise ServiceError(f"Game #{game_id} was closed before it started.", "cancelled")
        players = await self.store.players(game_id)
        snapshot = await self.store.snapshot(game_id)
        rows = await self.store.actions(game_id)
        try:
            state, repairs = self._rebuild(row, players, snapshot, rows)
        except _Corrupt as exc:
            await self._mark_broken(row, str(exc))
            raise GameBroken(game_id, str(exc)) from None
        seq = rows[-1].seq
        if repairs:
            await self._repair(row, state, seq, repairs)
            row = await self.store.game(game_id) or row
        loaded = _Loaded(row, tuple(_seat(p) for p in players), state, seq)
        self._remember(game_id, loaded)
        return loaded

    def _rebuild(self, row: GameRow, players: list[PlayerRow], snapshot: SnapshotRow | None,
                 rows: list[ActionRow]) -> tuple[GameState, list[str]]:
        """The game's state, and what in the stored copies disagreed with the log.

        When the game's rules version is the engine's, the log is replayed from the seed and
        the snapshot must match it: if not, that is logged and the log wins. A game from older
        rules cannot be replayed, so its snapshot is used as it is."""
        game_id = row.id
        unreadable = _unreadable(row, players, rows)
        if unreadable:
            raise _Corrupt(unreadable)
        if not rows or rows[0].seq != 0:
            raise _Corrupt("the start of its log (entry 0) is missing.")
        for expected, r in enumerate(rows):
            if r.seq != expected:
                raise _Corrupt(f"entry {expected} of its log is missing.")
        last = rows[-1].seq
        if row.seed is None or not players:
            raise _Corrupt("its seed or its seats are missing.")
        if [p.seat for p in players] != list(range(len(players))):
            raise _Corrupt("its seats are not numbered 0, 1, 2, …")
        repairs: list[str] = []
        if row.rules_version != RULES_VERSION:
            state = self._old_rules_state(row, snapshot, last)
            return state, repairs
        try:
            options = json.loads(row.options_json)
        except ValueError:
            raise _Corrupt("its options are not valid JSON.") from None
        try:
            state, _ = new_game(row.variant, len(players), row.seed, options, names=[p.name for p in players])
        except IllegalAction as exc:
            raise _Corrupt(f"it cannot be dealt again ({exc.code}).") from None
        except Exception as exc:  # options of the wrong type, say: stored data, not a bug here
            raise _Corrupt(f"it cannot be dealt again ({type(exc).__name__}).") from None
        for r in rows[1:]:
            state = self._replay_one(game_id, state, r)
        for r in rows:
            try:
                json.loads(r.events_json)
            except ValueError:
                raise _Corrupt(f"the events of entry {r.seq} of its log are not valid JSON.") from None
        canonical = state.to_canonical()
        if snapshot is None:
            repairs.append("the snapshot was missing")
        elif snapshot.unreadable:
            repairs.append(f"the snapshot at seq {snapshot.seq} was not valid UTF-8")
        elif snapshot.seq != last:
            repairs.append(f"the snapshot was at seq {snapshot.seq}, the log at {last}")
        elif snapshot.state_json != canonical:
            repairs.append(f"the snapshot at seq {last} differed from a replay of the log")
        if row.seq != last or row.status != state.status or row.waiting_json != canonical_json(actors(state)):
            repairs.append(f"the game row said seq {row.seq} ({row.status}), the log seq {last} ({state.status})")
        return state, repairs

    @staticmethod
    def _replay_one(game_id: int, state: GameState, r: ActionRow) -> GameState:
        try:
            data = json.loads(r.action_json)
        except ValueError:
            raise _Corrupt(f"action {r.seq} of its log is not valid JSON.") from None
        try:
            move = action_from_json(data)
        except IllegalAction:
            raise _Corrupt(f"action {r.seq} of its log is not an action the game understands.") from None
        if r.actor is not None and move.player != r.actor:
            raise _Corrupt(f"action {r.seq} of its log names seat {move.player} but was made by seat {r.actor}.")
        try:
            after, _ = apply(state, move)
        except IllegalAction as exc:
            # Only the code: the message may describe a player's hand.
            raise _Corrupt(f"action {r.seq} of its log is refused by the rules on replay ({exc.code}).") from None
        except Exception as exc:  # an engine crash on stored data must not take the bot down
            log.exception("game %d: replaying action %d crashed the engine", game_id, r.seq)
            raise _Corrupt(f"action {r.seq} of its log cannot be replayed ({type(exc).__name__}).") from None
        return after

    def _old_rules_state(self, row: GameRow, snapshot: SnapshotRow | None, last: int) -> GameState:
        if snapshot is None or snapshot.seq != last:
            raise _Corrupt(
                f"it was played under rules version {row.rules_version}, this bot has version {RULES_VERSION}, "
                "and its snapshot does not reach the end of its log."
            )
        try:
            state = GameState.from_canonical(snapshot.state_json)
        except (ValueError, KeyError, TypeError):
            raise _Corrupt(
                f"it was played under rules version {row.rules_version} and its snapshot cannot be read."
            ) from None
        log.info("game %d: rules version %s (engine %d): using its snapshot without a replay check",
                 row.id, row.rules_version, RULES_VERSION)
        return state

    async def _repair(self, row: GameRow, state: GameState, seq: int, repairs: list[str]) -> None:
        for what in repairs:
            log.warning("game %d: %s; the log wins", row.id, what)
        tx = self.store.tx()
        tx.put_snapshot(row.id, seq, rules_version=state.rules_version, state_json=state.to_canonical())
        tx.repair_game(row.id, seq=seq, status=state.status, waiting_json=canonical_json(actors(state)))
        await self.store.write(tx)

    async def _mark_broken(self, row: GameRow, reason: str) -> None:
        log.error("game %d is broken: %s", row.id, reason)
        self._forget(row.id)
        tx = self.store.tx()
        tx.mark_broken(row.id, reason)
        await self.store.write(tx)

    def _remember(self, game_id: int, loaded: _Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    @property
    def cached_games(self) -> int:
        return len(self._cache)

    # ======================================================================================
    # Timers
    # ======================================================================================

    async def schedule_timer(self, game_id: int, kind: str, due_at: float, *, seat: int | None = None,
                             for_seq: int | None = None, payload: Mapping[str, Any] | None = None) -> Timer:
        """Set a reminder or turn limit, replacing a pending one of the same kind for the same
        seat. With `for_seq` it only matters while the game is at that seq: the move that
        moves the game on cancels it, and scheduling it once the game has moved on raises
        StaleAction."""
        async with self._lock(game_id):
            tx = self.store.tx()
            index = tx.schedule_timer(game_id, kind, due_at, seat=seat, for_seq=for_seq,
                                      payload_json=canonical_json(dict(payload or {})))
            try:
                done = await self.store.write(tx)
            except WriteConflict as exc:
                if await self.store.game(game_id) is None:
                    raise GameNotFound(game_id) from exc
                raise StaleAction(game_id, None) from exc
        timer_id = done.lastrowids[index]
        assert timer_id is not None
        row = await self.store.timer(timer_id)
        assert row is not None
        return _timer(row)

    async def cancel_timers(self, game_id: int, kind: str | None = None) -> None:
        """Cancel a game's pending timers (of one kind, or all)."""
        tx = self.store.tx()
        tx.cancel_timers(game_id, kind=kind)
        await self.store.write(tx)

    async def pending_timers(self, game_id: int) -> list[Timer]:
        return [_timer(r) for r in await self.store.pending_timers(game_id)]

    async def due_timers(self, now: float | None = None, limit: int = 100) -> list[Timer]:
        """Pending timers that are due, earliest first (leaving out those for a point the game
        has passed)."""
        rows = await self.store.due_timers(self.clock() if now is None else now, limit)
        return [_timer(r) for r in rows]

    async def next_timer_due(self) -> float | None:
        """When the next pending timer falls due (for the scheduler's sleep)."""
        return await self.store.next_timer_due()

    async def mark_timer_fired(self, timer_id: int) -> bool:
        """Claim a timer: True for exactly one caller, ever (across restarts and processes);
        False if it already fired or was cancelled. Claim before sending a reminder. For a
        turn limit that moves for the absent player, pass `timer_id` to `submit` instead, so
        that the move and the claim are one transaction."""
        tx = self.store.tx()
        tx.fire_timer(timer_id)
        try:
            await self.store.write(tx)
        except WriteConflict:
            return False
        return True

    # ======================================================================================
    # Results and backups
    # ======================================================================================

    async def results(self, game_id: int) -> list[ResultRow]:
        """The final results of a finished game, one row per seat."""
        return await self.store.results_of_game(game_id)

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's record over their finished games (in one server, or everywhere)."""
        rows = await self.store.results_of_user(user_id, guild_id, limit=1_000_000)
        scores = [r.score for r in rows]
        return PlayerStats(
            user_id=user_id,
            games=len(rows),
            wins=sum(1 for r in rows if r.won),
            average_score=sum(scores) / len(scores) if scores else 0.0,
            best_score=max(scores) if scores else None,
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows),
        )

    async def backup(self, dest: str | Path) -> Path:
        """Copy the live database to `dest` (SQLite's online backup)."""
        return await self.store.backup(dest)


# --- helpers ------------------------------------------------------------------------------


def _bind(action: Action | Mapping[str, Any], seat: int) -> Action:
    """The action as an Action of `seat`: a JSON dict without "player" gets the seat; naming
    another seat is refused."""
    if not isinstance(action, Action):
        if not isinstance(action, Mapping):
            raise IllegalAction("That action is not in a form the game understands.", "malformed")
        data = dict(action)
        data.setdefault("player", seat)
        action = action_from_json(data)
    if action.player != seat:
        raise IllegalAction("You can only act for your own seat.", "not_your_seat")
    return action


def _events_json(events: Iterable[Event]) -> str:
    return canonical_json([e.to_json() for e in events])


def _result(game_id: int, seq: int, seat: int | None, state: GameState, events: Sequence[Event],
            action: Action | None = None) -> SubmitResult:
    private: dict[int, list[Event]] = {}
    for e in events:
        if e.visibility == PRIVATE and e.seat is not None:
            private.setdefault(e.seat, []).append(e)
    return SubmitResult(
        game_id=game_id,
        seq=seq,
        actor=seat,
        status=state.status,
        ended=state.status == "over",
        waiting_for=tuple(actors(state)),
        public_events=tuple(e for e in events if e.visibility == PUBLIC),
        private_events={s: tuple(evs) for s, evs in private.items()},
        result=state.result,
        action=action.to_json() if action is not None else None,
        _state=state,
    )


def _results(loaded: _Loaded, state: GameState, now: float) -> list[ResultRow]:
    result = state.result or {}
    sheets = result.get("sheets", [])
    winners = set(result.get("winners", []))
    rows = []
    for sheet in sheets:
        seat = loaded.seats[sheet["seat"]]
        tickets = sheet.get("tickets", [])
        rows.append(ResultRow(
            game_id=loaded.row.id, seat=seat.seat, user_id=seat.user_id, is_ai=seat.is_ai, ai_level=seat.ai_level,
            name=seat.name, guild_id=loaded.row.guild_id, variant=loaded.row.variant, score=sheet["total"],
            place=1 + sum(1 for other in sheets if other["total"] > sheet["total"]), won=seat.seat in winners,
            tickets_completed=sum(1 for t in tickets if t.get("completed")),
            tickets_failed=sum(1 for t in tickets if not t.get("completed")), finished_at=now,
        ))
    return rows


def _unreadable(row: GameRow, players: list[PlayerRow], rows: list[ActionRow]) -> str:
    """Why the game's stored text cannot be read (it is not valid UTF-8), or "". Only names
    columns and seqs: the text itself may be a hand or the deck."""
    if row.unreadable:
        return f"its game row holds text that is not valid UTF-8 ({', '.join(row.unreadable)})."
    for p in players:
        if p.unreadable:
            return f"the row of seat {p.seat} holds text that is not valid UTF-8 ({', '.join(p.unreadable)})."
    for r in rows:
        if "action" in r.unreadable:
            return f"action {r.seq} of its log is not valid UTF-8."
        if r.unreadable:
            return f"the events of entry {r.seq} of its log are not valid UTF-8."
    return ""


def _seat(p: PlayerRow) -> Seat:
    return Seat(p.seat, p.user_id, p.is_ai, p.ai_level, p.name)


def _seat_of(seats: Iterable[Seat], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return next((s.seat for s in seats if s.user_id == user_id), None)


def _summary(row: GameRow, players: list[PlayerRow], user_id: int | None) -> GameSummary:
    try:
        waiting = tuple(int(s) for s in json.loads(row.waiting_json))
    except (ValueError, TypeError):
        waiting = ()  # a derived column: a bad value only loses the "whose turn" hint
    seats = tuple(_seat(p) for p in players)
    return GameSummary(
        game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
        variant=row.variant, status=row.status, seq=row.seq, your_seat=_seat_of(seats, user_id), seats=seats,
        waiting_for=waiting, turn_hours=row.turn_hours, updated_at=row.updated_at, broken_reason=row.broken_reason,
    )


def _timer(row: Any) -> Timer:
    try:
        payload = json.loads(row.payload_json)
    except ValueError:
        payload = {}
    return Timer(row.id, row.game_id, row.kind, row.seat, row.for_seq, row.due_at, payload, row.fired_at,
                 row.cancelled_at)
