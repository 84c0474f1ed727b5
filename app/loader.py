"""Loading a game: from the cache, else from the database, checked against its log.

A game is its seed, its seats and its action log. Loading one replays the log from the seed
and compares the result with the stored snapshot (a cache): when they differ, that is logged
and the log wins. Stored data that cannot be read sets the game aside ("broken") with a
reason that names columns and entries, never their content (which may be a hand or the
deck). Loaded games are kept in a bounded LRU cache.

When other processes write the same database (PostgreSQL, `store.shared`), a cached game is
checked against the stored one at every use: its game row and seats are read again (one small
read by primary key), and a game whose seq or status moved on is loaded afresh. A stale copy
could not write anyway (the seq guard), but it would show a player an old board or refuse
their move as "already happened". (LISTEN/NOTIFY would save the reads but leaves a window
after each commit elsewhere, and loses notices while its connection is down; docs/scaling.md
gives the measured cost of the reads.)
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from dataclasses import dataclass

from app.errors import GameBroken, GameNotFound, ServiceError
from app.models import Seat
from engine.actions import action_from_json
from engine.errors import IllegalAction
from engine.game import actors, apply, new_game
from engine.state import RULES_VERSION, GameState, canonical_json
from store import GameRow, PlayerRow, Store
from store.records import ActionRow, SnapshotRow

log = logging.getLogger("app.service")


@dataclass(slots=True)
class Loaded:
    """A game in the cache: its row, its seats, and its state after action `seq`."""

    row: GameRow
    seats: tuple[Seat, ...]
    state: GameState
    seq: int


class Corrupt(Exception):
    """Stored data that cannot be read (the message says which and why)."""


class GameLoader:
    """Loads games and keeps the most recently used `cache_size` of them."""

    def __init__(self, store: Store, cache_size: int) -> None:
        self.store = store
        self.cache_size = cache_size
        self._cache: OrderedDict[int, Loaded] = OrderedDict()

    async def load(self, game_id: int) -> Loaded:
        """The game from the cache, else from the database. The caller holds the game's lock."""
        cached = self._cache.get(game_id)
        if cached is not None and (not self.store.shared or await self._still_current(cached)):
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
        except Corrupt as exc:
            await self._mark_broken(row, str(exc))
            raise GameBroken(game_id, str(exc)) from None
        seq = rows[-1].seq
        if repairs:
            await self._repair(row, state, seq, repairs)
            row = await self.store.game(game_id) or row
        loaded = Loaded(row, tuple(seat_of_row(p) for p in players), state, seq)
        self.remember(game_id, loaded)
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
            raise Corrupt(unreadable)
        if not rows or rows[0].seq != 0:
            raise Corrupt("the start of its log (entry 0) is missing.")
        for expected, r in enumerate(rows):
            if r.seq != expected:
                raise Corrupt(f"entry {expected} of its log is missing.")
        last = rows[-1].seq
        if row.seed is None or not players:
            raise Corrupt("its seed or its seats are missing.")
        if [p.seat for p in players] != list(range(len(players))):
            raise Corrupt("its seats are not numbered 0, 1, 2, …")
        repairs: list[str] = []
        if row.rules_version != RULES_VERSION:
            state = self._old_rules_state(row, snapshot, last)
            return state, repairs
        try:
            options = json.loads(row.options_json)
        except ValueError:
            raise Corrupt("its options are not valid JSON.") from None
        try:
            state, _ = new_game(row.variant, len(players), row.seed, options, names=[p.name for p in players])
        except IllegalAction as exc:
            raise Corrupt(f"it cannot be dealt again ({exc.code}).") from None
        except Exception as exc:  # options of the wrong type, say: stored data, not a bug here
            raise Corrupt(f"it cannot be dealt again ({type(exc).__name__}).") from None
        for r in rows[1:]:
            state = self._replay_one(game_id, state, r)
        for r in rows:
            try:
                json.loads(r.events_json)
            except ValueError:
                raise Corrupt(f"the events of entry {r.seq} of its log are not valid JSON.") from None
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
            raise Corrupt(f"action {r.seq} of its log is not valid JSON.") from None
        try:
            move = action_from_json(data)
        except IllegalAction:
            raise Corrupt(f"action {r.seq} of its log is not an action the game understands.") from None
        if r.actor is not None and move.player != r.actor:
            raise Corrupt(f"action {r.seq} of its log names seat {move.player} but was made by seat {r.actor}.")
        try:
            after, _ = apply(state, move)
        except IllegalAction as exc:
            # Only the code: the message may describe a player's hand.
            raise Corrupt(f"action {r.seq} of its log is refused by the rules on replay ({exc.code}).") from None
        except Exception as exc:  # an engine crash on stored data must not take the bot down
            log.exception("game %d: replaying action %d crashed the engine", game_id, r.seq)
            raise Corrupt(f"action {r.seq} of its log cannot be replayed ({type(exc).__name__}).") from None
        return after

    def _old_rules_state(self, row: GameRow, snapshot: SnapshotRow | None, last: int) -> GameState:
        if snapshot is None or snapshot.seq != last:
            raise Corrupt(
                f"it was played under rules version {row.rules_version}, this bot has version {RULES_VERSION}, "
                "and its snapshot does not reach the end of its log."
            )
        try:
            state = GameState.from_canonical(snapshot.state_json)
        except (ValueError, KeyError, TypeError):
            raise Corrupt(
                f"it was played under rules version {row.rules_version} and its snapshot cannot be read."
            ) from None
        log.info("game %d: rules version %s (engine %d): using its snapshot without a replay check",
                 row.id, row.rules_version, RULES_VERSION)
        return state

    async def _still_current(self, cached: Loaded) -> bool:
        """Whether the cached game is still the stored one (another process may have moved it
        on); its row and seats are brought up to date either way. The caller holds the lock."""
        game_id = cached.row.id
        row, players = await self.store.game_with_players(game_id)
        if row is None or row.seq != cached.seq or row.status != cached.row.status:
            self.forget(game_id)
            return False
        cached.row = row
        cached.seats = tuple(seat_of_row(p) for p in players)
        return True

    async def _repair(self, row: GameRow, state: GameState, seq: int, repairs: list[str]) -> None:
        for what in repairs:
            log.warning("game %d: %s; the log wins", row.id, what)
        tx = self.store.tx()
        tx.put_snapshot(row.id, seq, rules_version=state.rules_version, state_json=state.to_canonical())
        tx.repair_game(row.id, seq=seq, status=state.status, waiting_json=canonical_json(actors(state)))
        await self.store.write(tx)

    async def _mark_broken(self, row: GameRow, reason: str) -> None:
        log.error("game %d is broken: %s", row.id, reason)
        self.forget(row.id)
        tx = self.store.tx()
        tx.mark_broken(row.id, reason)
        await self.store.write(tx)

    def cached(self, game_id: int) -> Loaded | None:
        """The game if it is in the cache (without loading it)."""
        return self._cache.get(game_id)

    async def refresh(self, game_id: int) -> None:
        """Re-read a cached game's row and seats after a write that changed them but not the
        state (pause, absence, DM flags, the turn post)."""
        cached = self._cache.get(game_id)
        if cached is None:
            return
        row = await self.store.game(game_id)
        if row is None:
            self.forget(game_id)
            return
        cached.row = row
        cached.seats = tuple(seat_of_row(p) for p in await self.store.players(game_id))

    def remember(self, game_id: int, loaded: Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    @property
    def cached_games(self) -> int:
        return len(self._cache)


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


def seat_of_row(p: PlayerRow) -> Seat:
    """The service's view of a stored seat."""
    return Seat(p.seat, p.user_id, p.is_ai, p.ai_level, p.name, p.dm_closed, p.absent_turns, p.stand_in)
