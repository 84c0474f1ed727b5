"""Loading a game: from the cache, else from its snapshot and the log entries after it.

A game is its seed, its seats and its action log; the snapshot is a cache of the state after
some entry of the log, written every `snapshot_every` moves (and when the game ends), with a
digest of its text (migration 8). Loading a game that is not in the cache reads, at one
moment, its row, its seats, its snapshot and the entries after the snapshot, and replays only
those ("snapshot + tail": at most a few moves, whatever the length of the game).

A snapshot is used only when it is whole (readable, matching its digest), of the engine's
rules version, and agrees with the game row at the end of the tail; otherwise — or when
anything in the tail cannot be replayed — the game is replayed from its seed ("full replay")
and the log wins, as before: the difference is logged and the snapshot (and game row)
rewritten from the log. Stored data that cannot be read sets the game aside ("broken") with a
reason that names columns and entries, never their content (which may be a hand or the deck).

Verification. The state a snapshot holds is checked against a full replay of the log once per
process: a snapshot this process wrote from a state it had itself checked (or dealt) is known
good; any other (written before a restart, or by another process) is used at once and checked
in the background by one task, one game at a time, holding the game's lock. If the check
finds the snapshot differs from the log, it is never used again: the game is rebuilt from its
log, the snapshot rewritten, and the difference logged. If it finds the log itself damaged (an
entry before the snapshot), the game is set aside as broken, with the same reasons a load gives.

Memory. At most `loads_at_once` games are read and rebuilt from the database at once, and a
load first waits while the store's writer queue is full (`Store.room`), so a burst of moves on
thousands of games holds a bounded number of states and transactions in memory; the rest wait
as coroutines. Loaded games are kept in a bounded LRU cache, by default as many games as fit
in CACHE_MB (`games_for_memory`).

When other processes write the same database (PostgreSQL, `store.shared`), a cached game is
checked against the stored one at every use: its seq, status and version are read (three
numbers by primary key, grouped with other moves' checks: store/pg_reads.py), and a game whose
seq or status moved on is loaded afresh. The server moves a game's version at every change of
its row that does not raise its seq, and of its seats (migration 35), so the same seq and
version mean the same row and seats as cached; another version (or one not known: a row
written here without being read back) reads the row and seats again. A stale copy
could not write anyway (the seq guard), but it would show a player an old board or refuse
their move as "already happened". (LISTEN/NOTIFY would save the reads but leaves a window
after each commit elsewhere, and loses notices while its connection is down; docs/scaling.md
gives the measured cost of the reads.)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from app.errors import GameBroken
from app.loaded import Loaded, LoaderStats, playable, seat_of_row
from app.log_replay import Corrupt, Rebuilt, drain, drain_slowly, replay_log, replay_one, unreadable
from engine.game import actors
from engine.state import RULES_VERSION, GameState, canonical_json
from store import GameRow, Store
from store.records import GameLoad, snapshot_digest

log = logging.getLogger("app.service")

# A snapshot every this many moves: a load replays at most this many entries (the tail), and
# a move writes a snapshot's bytes only this often (docs/performance.md has the figures).
SNAPSHOT_EVERY = 8
# What one game in the cache holds — its row, its seats and its state: 15–17 KB, measured by
# bench/bench_store.py's [cache] line — and the memory the cache may use unless told
# (TTR_GAME_CACHE_MB): room for about 12,000 games being played, so that a bot with 10,000 of them
# reloads none from the database (docs/performance.md, issue 31).
CACHED_GAME_BYTES = 16 * 1024
CACHE_MB = 192.0


def games_for_memory(megabytes: float) -> int:
    """How many games a cache of `megabytes` holds (at least one)."""
    return max(1, int(megabytes * 1024 * 1024 // CACHED_GAME_BYTES))


# Games read and rebuilt from the database at once.
LOADS_AT_ONCE = 16
# Snapshots remembered as known good (one small entry per game; beyond this the oldest are
# forgotten and checked again, in the background, when next loaded).
TRUSTED_GAMES = 100_000
# The longest rest between two background checks, in seconds.
CHECK_REST_MAX = 0.05


def _key(seq: int, digest: str | None) -> int:
    """What the loader remembers of a stored snapshot it knows to be good (or bad)."""
    return hash((seq, digest))


class GameLoader:
    """Loads games and keeps the most recently used `cache_size` of them.

    `lock(game_id)`: the service's per-game lock, which the background check holds while it
    checks a game (without one, it checks without)."""

    def __init__(self, store: Store, cache_size: int, *,
                 lock: Callable[[int], AbstractAsyncContextManager[object]] | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY, loads_at_once: int = LOADS_AT_ONCE) -> None:
        self.store = store
        self.cache_size = cache_size
        self.snapshot_every = max(1, snapshot_every)
        self.stats = LoaderStats()
        self._lock = lock
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._loading = asyncio.Semaphore(max(1, loads_at_once))
        # The most loads from the database at once so far (a test checks the bound).
        self.loads_peak = 0
        self._loads_now = 0
        # game id -> _key of the stored snapshot known good / found bad in this process.
        self._trusted: OrderedDict[int, int] = OrderedDict()
        self._distrusted: dict[int, int] = {}
        # Games loaded from a snapshot not known good, waiting for the background check.
        self._to_check: OrderedDict[int, None] = OrderedDict()
        self._checker: asyncio.Task[None] | None = None
        self._closed = False

    # --- loading ----------------------------------------------------------------------

    async def load(self, game_id: int) -> Loaded:
        """The game from the cache, else from the database. The caller holds the game's lock."""
        cached = self._cache.get(game_id)
        if cached is not None and (not self.store.shared or await self._still_current(cached)):
            self._cache.move_to_end(game_id)
            return cached
        async with self._loading:
            self._loads_now += 1
            self.loads_peak = max(self.loads_peak, self._loads_now)
            try:
                # Not while the writer is full: what a load builds waits for it anyway.
                await self.store.room()
                loaded = await self._load(game_id)
            finally:
                self._loads_now -= 1
        self._remember(game_id, loaded)
        if not loaded.verified:
            self._check_later(game_id)
        return loaded

    async def _load(self, game_id: int) -> Loaded:
        found = await self.store.log.load_game(game_id)
        row = playable(game_id, found.row)
        loaded = self._from_snapshot(found)
        if loaded is not None:
            self.stats.from_snapshot += 1
            return loaded
        if found.snapshot is not None:  # the log before the snapshot is needed too
            found = await self.store.log.load_game(game_id, whole=True)
            row = playable(game_id, found.row)
        self.stats.full_replays += 1
        try:
            rebuilt = drain(replay_log(found))
        except Corrupt as exc:
            await self._mark_broken(row, str(exc))
            raise GameBroken(game_id, str(exc)) from None
        return await self._settle(found, rebuilt)

    def _from_snapshot(self, found: GameLoad) -> Loaded | None:
        """The game from its snapshot and the entries after it, or None when the snapshot
        cannot be used or anything about the game is not as it should be (the full replay
        then decides, and says what is wrong). The events of the entries are not read here
        (the state does not depend on them): the full replay of a check reads them all."""
        row, players, snapshot, tail = found.row, found.players, found.snapshot, found.actions
        assert row is not None
        if (snapshot is None or row.rules_version != RULES_VERSION or snapshot.rules_version != RULES_VERSION
                or not snapshot.intact or row.seed is None or not players
                or self._distrusted.get(row.id) == _key(snapshot.seq, snapshot.digest)
                or unreadable(row, players, tail)
                or [p.seat for p in players] != list(range(len(players)))
                or [r.seq for r in tail] != list(range(snapshot.seq + 1, snapshot.seq + 1 + len(tail)))):
            return None
        last = tail[-1].seq if tail else snapshot.seq
        if row.seq != last:
            return None
        try:
            state = GameState.from_canonical(snapshot.state_json)
            for r in tail:
                state = replay_one(row.id, state, r)
        except (Corrupt, ValueError):
            return None
        if row.status != state.status or row.waiting_json != canonical_json(actors(state)):
            return None
        verified = self._trusted.get(row.id) == _key(snapshot.seq, snapshot.digest)
        return Loaded(row, tuple(seat_of_row(p) for p in players), state, last, snapshot.seq, verified,
                      version=row.version)

    async def _settle(self, found: GameLoad, rebuilt: Rebuilt) -> Loaded:
        """The game as a full replay gives it, with the stored copies brought in step with the
        log (logged when they disagreed) and its snapshot remembered as known good."""
        row, snapshot = found.row, found.snapshot
        assert row is not None
        game_id, state, last = row.id, rebuilt.state, rebuilt.last
        seats = tuple(seat_of_row(p) for p in found.players)
        if row.rules_version != RULES_VERSION:
            return Loaded(row, seats, state, last, last, version=row.version)
        if rebuilt.repairs or rebuilt.upgrade:
            for what in rebuilt.repairs:
                log.warning("game %d: %s; the log wins", game_id, what)
            if snapshot is not None and rebuilt.repairs:
                self._distrusted[game_id] = _key(snapshot.seq, snapshot.digest)
            tx = self.store.tx()
            digest = tx.log.put_snapshot(game_id, last, rules_version=state.rules_version,
                                         state_json=state.to_canonical())
            if rebuilt.repairs:
                tx.games.repair(game_id, seq=last, status=state.status, waiting_json=canonical_json(actors(state)))
            await self.store.write(tx)
            self._trust(game_id, last, digest)
            if rebuilt.repairs:
                # (Read after the seats: its version is not theirs. The next use reads both.)
                row = await self.store.games.get(game_id) or row
                return Loaded(row, seats, state, last, last)
            return Loaded(row, seats, state, last, last, version=row.version)
        assert snapshot is not None and snapshot.digest is not None
        self._trust(game_id, snapshot.seq, snapshot.digest)
        return Loaded(row, seats, state, last, snapshot.seq, version=row.version)

    async def _still_current(self, cached: Loaded) -> bool:
        """Whether the cached game is still the stored one (another process may have moved it
        on); its row and seats are brought up to date either way. The caller holds the lock."""
        game_id = cached.row.id
        stamp = await self.store.games.stamp(game_id)
        if stamp is None or stamp[0] != cached.seq or stamp[1] != cached.row.status:
            self.forget(game_id)
            return False
        if cached.version is not None and stamp[2] == cached.version:
            return True  # the same seq and version: the same row and seats (migration 35)
        self.stats.row_reads += 1
        row, players = await self.store.games.with_players(game_id)
        if row is None or row.seq != cached.seq or row.status != cached.row.status:
            self.forget(game_id)
            return False
        cached.row = row
        cached.seats = tuple(seat_of_row(p) for p in players)
        cached.version = row.version
        return True

    async def _mark_broken(self, row: GameRow, reason: str) -> None:
        log.error("game %d is broken: %s", row.id, reason)
        self.forget(row.id)
        tx = self.store.tx()
        tx.games.mark_broken(row.id, reason)
        await self.store.write(tx)

    # --- snapshots ----------------------------------------------------------------------

    def snapshot_due(self, loaded: Loaded, last: int, after: GameState) -> bool:
        """Whether a commit taking `loaded` to entry `last` (state `after`) writes a snapshot:
        every `snapshot_every` moves, when the game ends (a finished game loads at once), and
        always for a game from older rules (it cannot be replayed, so it lives on its
        snapshot)."""
        return (last - loaded.snapshot_seq >= self.snapshot_every or after.status == "over"
                or after.rules_version != RULES_VERSION)

    def wrote_snapshot(self, loaded: Loaded, seq: int, digest: str) -> None:
        """A commit stored the snapshot of `loaded` at entry `seq` (with `digest`)."""
        loaded.snapshot_seq = seq
        if loaded.verified:
            self._trust(loaded.row.id, seq, digest)

    def _trust(self, game_id: int, seq: int, digest: str) -> None:
        key = _key(seq, digest)
        self._trusted[game_id] = key
        self._trusted.move_to_end(game_id)
        if self._distrusted.get(game_id) == key:
            del self._distrusted[game_id]
        while len(self._trusted) > TRUSTED_GAMES:
            self._trusted.popitem(last=False)

    # --- the background check -----------------------------------------------------------

    def _check_later(self, game_id: int) -> None:
        if self._closed:
            return
        self._to_check[game_id] = None
        if self._checker is None or self._checker.done():
            self._checker = asyncio.get_running_loop().create_task(self._check_all(), name="snapshot-checks")

    async def _check_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._to_check:
            game_id, _ = self._to_check.popitem(last=False)
            began = loop.time()
            try:
                await self.check(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # one game's trouble must not stop the checks of the others
                log.error("game %d: the background check of its snapshot failed: %s", game_id, type(exc).__name__)
            # Rest as long as the check took: after a restart, when every game loaded needs
            # one, the checks take at most about half of the time, and moves the rest.
            await asyncio.sleep(min(CHECK_REST_MAX, loop.time() - began))

    async def check(self, game_id: int) -> bool:
        """Check a game's stored snapshot (and the state in the cache) against a full replay
        of its log, holding the game's lock. True when they agree; otherwise the log wins (the
        snapshot is never used again, the game is rebuilt from its log) or, if the log itself
        cannot be replayed, the game is set aside as broken."""
        lock = self._lock(game_id) if self._lock is not None else contextlib.nullcontext()
        async with lock:
            async with self._loading:
                found = await self.store.log.load_game(game_id, whole=True)
            row = found.row
            if row is None or row.status not in ("setup", "playing", "over") or row.rules_version != RULES_VERSION:
                return True  # gone, set aside, or from older rules: nothing to replay
            self.stats.checked += 1
            cached = self._cache.get(game_id)
            try:
                rebuilt = await drain_slowly(replay_log(found))
            except Corrupt as exc:
                self.stats.check_failures += 1
                await self._mark_broken(row, str(exc))
                return False
            if cached is not None and cached.seq == rebuilt.last and not rebuilt.repairs \
                    and cached.state.to_canonical() != rebuilt.state.to_canonical():
                rebuilt.repairs.append(f"the state loaded at seq {cached.seq} differed from a replay of the log")
            if rebuilt.repairs:
                self.stats.check_failures += 1
                self.forget(game_id)
            loaded = await self._settle(found, rebuilt)
            if rebuilt.repairs:
                self._remember(game_id, loaded)
            elif cached is not None and self._cache.get(game_id) is cached:
                cached.verified = True
            return not rebuilt.repairs

    async def checks_done(self) -> None:
        """Wait until every background check asked for so far has run."""
        while self._checker is not None and not self._checker.done():
            await asyncio.wait({self._checker})

    @property
    def checks_waiting(self) -> int:
        return len(self._to_check)

    async def close(self) -> None:
        """Stop the background checks (those not run are made by the next process), then
        bring every snapshot to the end of its game's log (`catch_up`)."""
        self._closed = True
        self._to_check.clear()
        if self._checker is not None and not self._checker.done():
            self._checker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checker
        try:
            await self.catch_up()
        except Exception as exc:  # the snapshots are a cache: the next start does without
            log.warning("could not bring the snapshots up to date before closing: %s", type(exc).__name__)

    async def catch_up(self) -> int:
        """Write a snapshot at the end of the log of every game being played whose snapshot is
        older; returns how many. A clean close does this, so that a bot with other rules
        (a new RULES_VERSION: it cannot replay this one's logs) finds every game's state in its
        snapshot, and the next start loads each game without replaying anything. A game
        whose snapshot cannot be used is left for its next load (the full replay)."""
        written = 0
        ids = await self.store.log.games_with_old_snapshots()
        for start in range(0, len(ids), LOADS_AT_ONCE * 8):
            done = await asyncio.gather(*(self._catch_up(g) for g in ids[start:start + LOADS_AT_ONCE * 8]))
            written += sum(done)
        if written:
            log.info("brought the snapshots of %d games up to date", written)
        return written

    async def _catch_up(self, game_id: int) -> bool:
        lock = self._lock(game_id) if self._lock is not None else contextlib.nullcontext()
        async with lock:
            cached = self._cache.get(game_id)
            if cached is not None and not self.store.shared:
                state, seq = cached.state, cached.seq
            else:
                async with self._loading:
                    found = await self.store.log.load_game(game_id)
                if found.row is None or found.row.status not in ("setup", "playing"):
                    return False
                loaded = self._from_snapshot(found)
                if loaded is None:
                    return False
                state, seq = loaded.state, loaded.seq
            if state.rules_version != RULES_VERSION:
                return False
            tx = self.store.tx()
            tx.log.catch_up_snapshot(game_id, seq, rules_version=state.rules_version, state_json=state.to_canonical())
            done = await self.store.write(tx)
            if cached is not None and done.rowcounts[0] == 1:
                cached.snapshot_seq = seq
            return done.rowcounts[0] == 1

    # --- the cache ----------------------------------------------------------------------

    def cached(self, game_id: int) -> Loaded | None:
        """The game if it is in the cache (without loading it)."""
        return self._cache.get(game_id)

    async def refresh(self, game_id: int) -> None:
        """Re-read a cached game's row and seats after a write that changed them but not the
        state (pause, absence, DM flags, the turn post)."""
        cached = self._cache.get(game_id)
        if cached is None:
            return
        row = await self.store.games.get(game_id)
        if row is None:
            self.forget(game_id)
            return
        cached.row = row
        cached.seats = tuple(seat_of_row(p) for p in await self.store.games.players(game_id))
        cached.version = None  # (two reads: the next use reads both again, with the version)

    def turn_posted(self, game_id: int, message_id: int, seq: int, written: int = 0) -> None:
        """A cached game's turn post is now `message_id`, showing `seq` (just written: the
        row needs no read again). `written`: the rows the write changed (1: the game's row,
        which moved its version by exactly one on PostgreSQL, migration 35; so the cached
        version, if known, is one more — and if anyone else changed the game meanwhile, the
        stored one is more again, and the next use reads the row; 0: not known)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            cached.row = dataclasses.replace(cached.row, turn_post_id=message_id, turn_post_seq=seq)
            if not self.store.shared:
                return  # (SQLite's version stays: nothing compares it)
            if written == 1 and cached.version is not None:
                cached.version += 1
            else:
                cached.version = None

    def remember(self, game_id: int, loaded: Loaded) -> None:
        """Put a game in the cache (a game just dealt: its snapshot at entry 0 is known good)."""
        if loaded.verified and loaded.seq == loaded.snapshot_seq:
            self._trust(game_id, loaded.seq, snapshot_digest(loaded.state.to_canonical()))
        self._remember(game_id, loaded)

    def _remember(self, game_id: int, loaded: Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    @property
    def cached_games(self) -> int:
        return len(self._cache)
