"""The game store's interface: `Tx` (the statements of one transaction) and `Store` (typed
reads, `write(tx)`), the same for both back ends, each made of parts by job.

    store = await open_store("data/ttr.sqlite3")        # or "postgresql://ttr@/ttr"
    tx = store.tx()
    tx.games.advance(game_id, from_seq=4, to_seq=5, status="playing", waiting_json="[1]")
    tx.log.append(game_id, 5, actor=0, user_id=42, action_json=..., events_json=...)
    tx.log.put_snapshot(game_id, 5, rules_version=1, state_json=...)
    await store.write(tx)          # one transaction, durable when this returns
    row = await store.games.get(game_id)

The parts (one module each: games, game_log, timers, deliveries, user_settings, seat_changes,
standings, plans, rematches) hold no state of their own: a transaction's parts add their
statements to it (`Tx.add`), a store's parts read through its `Reader` (store/reader.py). A
part never calls another part or anyone's privates, so each can be read, and changed, alone.

`store.opening.open_store` picks the back end from its target: a path is an SQLite file
(store/sqlite_store.py), a `postgresql://` URL a PostgreSQL database (store/postgres.py, whose
parts that read differently are in store/pg_parts.py). The SQL is written once for both: `?`
placeholders (PostgreSQL's store numbers them), typed parameters where PostgreSQL cannot infer
a type (`CAST(? AS BIGINT)`), and the one read that differs — "is one of this list" — spelled
by each back end (`Reader.any`, `Reader.as_list`). Nothing here knows the rules of the game.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from store.deliveries import DeliveryReads, DeliveryWrites
from store.game_log import LogReads, LogWrites, ResultReads, ResultWrites
from store.games import BotStateReads, BotStateWrites, GameReads, GameWrites
from store.games import TableCounts as TableCounts  # re-exported: the service's caps read it
from store.plans import PlanReads, PlanWrites
from store.reader import Reader
from store.rematches import RematchReads, RematchWrites
from store.seat_changes import SeatReads, SeatWrites
from store.standings import StandingsReads, StandingsWrites
from store.timers import TimerReads, TimerWrites
from store.user_settings import SettingsReads, SettingsWrites
from store.writer import Statement, TxResult

Clock = Callable[[], float]
Target = str | os.PathLike[str]

URL_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(target: object) -> bool:
    """Whether `target` names a PostgreSQL database (a URL) rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


class Tx:
    """The statements of one transaction, built by its parts and run by `Store.write`:
    `tx.games`, `tx.log`, `tx.results`, `tx.timers`, `tx.deliveries`, `tx.user_settings`,
    `tx.seats`, `tx.standings`, `tx.plans`, `tx.rematches`, `tx.bot_state`.

    Guarded statements (`expect_rows`) make the whole transaction fail with WriteConflict when
    the database is not in the state the caller saw, so a stale or doubled request writes
    nothing."""

    __slots__ = ("now", "statements", "keys", "games", "log", "results", "timers", "deliveries", "user_settings",
                 "seats", "standings", "plans", "rematches", "bot_state")

    def __init__(self, now: float) -> None:
        self.now = now
        self.statements: list[Statement] = []
        # Statement index -> the game or user it is about, for the store's read cache
        # (store/read_cache.py; a statement on plans or settings without a key clears them all)
        # and its count of timer writes by game (`Store.timers_stamp`).
        self.keys: dict[int, int] = {}
        self.games = GameWrites(self)
        self.log = LogWrites(self)
        self.results = ResultWrites(self)
        self.timers = TimerWrites(self)
        self.deliveries = DeliveryWrites(self)
        self.user_settings = SettingsWrites(self)
        self.seats = SeatWrites(self)
        self.standings = StandingsWrites(self)
        self.plans = PlanWrites(self)
        self.rematches = RematchWrites(self)
        self.bot_state = BotStateWrites(self)

    def add(self, sql: str, params: Sequence[Any] = (), expect_rows: int | None = None, conflict: str = "",
            returns_id: bool = False) -> int:
        """Append a raw statement; returns its index (to find its rowid in the TxResult).
        `returns_id`: an INSERT whose new row's `id` the caller wants (PostgreSQL has no
        last rowid, so it asks for it with RETURNING)."""
        self.statements.append(Statement(sql, tuple(params), expect_rows, conflict, returns_id))
        return len(self.statements) - 1


class Store:
    """A game store: its reads in parts (`store.games`, `store.log`, `store.results`,
    `store.timers`, `store.deliveries`, `store.user_settings`, `store.seats`,
    `store.standings`, `store.plans`, `store.rematches`, `store.bot_state`) and `write(tx)`.
    Open one with `open_store` (store/opening.py, which picks the back end) and close it with `close` (or
    `async with`). Subclasses supply `_fetch`, `write`, `close`, and call `_make_parts` with
    their `Reader`."""

    # Whether other processes may write the same database (a cached game must then be checked
    # against the stored one before each use: app/loader.py).
    shared = False
    # Whether `open` made this database.
    created = False
    # Where the database is, for messages (a path, or a URL without its password).
    label = ""
    clock: Clock
    schema_version: int
    reader: Reader
    games: GameReads
    log: LogReads
    results: ResultReads
    timers: TimerReads
    deliveries: DeliveryReads
    user_settings: SettingsReads
    seats: SeatReads
    standings: StandingsReads
    plans: PlanReads
    rematches: RematchReads
    bot_state: BotStateReads

    def _make_parts(self, reader: Reader) -> None:
        """Give the store its parts, all reading through `reader` (a back end whose reads
        differ replaces the parts concerned afterwards: store/pg_parts.py)."""
        self.reader = reader
        self.games = GameReads(reader)
        self.log = LogReads(reader)
        self.results = ResultReads(reader)
        self.timers = TimerReads(reader, self.tx, self.write)
        self.deliveries = DeliveryReads(reader)
        self.user_settings = SettingsReads(reader)
        self.seats = SeatReads(reader)
        self.standings = StandingsReads(reader)
        self.plans = PlanReads(reader)
        self.rematches = RematchReads(reader)
        self.bot_state = BotStateReads(reader)

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def writer_stats(self) -> tuple[int, int]:
        """(transactions, commits) so far: how well group commit is batching."""
        return 0, 0

    # --- writing ----------------------------------------------------------------------
    def tx(self) -> Tx:
        """A new transaction stamped with the store's clock."""
        return Tx(self.clock())

    async def write(self, tx: Tx) -> TxResult:
        """Commit `tx` as one transaction; returns once it is durable. Raises WriteConflict
        (nothing written) when a guard failed."""
        raise NotImplementedError

    def timers_stamp(self, game_id: int) -> tuple[int, int] | None:
        """How often transactions touching `game_id`'s timers were written (counted when each
        is queued and again when it is done), and those touching timers of games not named
        (a fire by id, a raw statement): a caller that wrote a game's timers may keep what it
        wrote while the stamp is unchanged (app/core.py, the mover's turn timers). None: the
        store cannot tell (PostgreSQL: other processes write the same timers)."""
        return None

    async def room(self) -> None:
        """Wait while the writer's queue is full (see `max_queue` in store/writer.py): a caller
        about to build a transaction waits here first, so that a burst of moves cannot pile
        up their states and transactions in memory faster than the disk takes them."""

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of a read (with `?` placeholders), each a sequence of column values."""
        raise NotImplementedError

    async def _fetch_many(self, reads: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """The rows of several reads, all seeing the database at the same moment (one read
        transaction; the back ends do it in one trip to their connection)."""
        return [await self._fetch(sql, params) for sql, params in reads]

    async def backup(self, dest: Target) -> Path:
        """Copy the live database to `dest` (SQLite only; PostgreSQL has pg_dump)."""
        raise NotImplementedError

    async def reset_ids(self) -> None:
        """After rows were written with their ids given (a copy), make new rows get ids above
        them (SQLite's AUTOINCREMENT does so by itself)."""

    # --- several processes ------------------------------------------------------------
    # Who this process is in the claims it makes (PostgreSQL: store/presence.py). One process
    # alone claims nothing, so any name does.
    owner = "0:local"

    def on_wake(self, hook: Callable[[], None]) -> None:
        """Call `hook` when work another process held may have become free (never, alone)."""

    async def take_shard(self, shard: int) -> bool:
        """Take `shard` for this process: True unless another live process holds it (one
        process alone holds them all)."""
        return True

    async def rate_slot(self) -> float:
        """Take a slot of Discord's global rate limit shared by every process of the bot;
        returns the seconds to wait before the request (one process alone: discord.py's own
        limiter is enough, 0)."""
        return 0.0

    async def holders(self) -> list[Any]:
        """The live processes on this database and the shards each holds (PostgreSQL)."""
        return []
