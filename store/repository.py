"""The game store's interface: `Tx` (the statements of one transaction, built with typed
methods) and `Store` (typed reads, `write(tx)`), the same for both back ends.

    store = await Store.open("data/ttr.sqlite3")        # or "postgresql://ttr@/ttr"
    tx = store.tx()
    tx.advance_game(game_id, from_seq=4, to_seq=5, status="playing", waiting_json="[1]")
    tx.append_action(game_id, 5, actor=0, user_id=42, action_json=..., events_json=...)
    tx.put_snapshot(game_id, 5, rules_version=1, state_json=...)
    await store.write(tx)          # one transaction, durable when this returns

`Store.open` picks the back end from its target: a path is an SQLite file
(store/sqlite_store.py), a `postgresql://` URL a PostgreSQL database (store/postgres.py). The
SQL here is written once for both: `?` placeholders (PostgreSQL's store numbers them), typed
parameters where PostgreSQL cannot infer a type (`CAST(? AS BIGINT)`), and the one read that
differs — "is one of this list" — spelled by each back end (`_any`, `_list`). Nothing here
knows the rules of the game.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from store.deliveries import DeliveryReads, DeliveryWrites
from store.plans import PlanReads, PlanWrites
from store.read_cache import ReadCache
from store.records import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    SNAPSHOT_COLUMNS,
    TIMER_COLUMNS,
    ActionRow,
    DeliveryRow,
    GameLoad,
    GameRow,
    PlayerRow,
    ResultRow,
    SnapshotRow,
    TimerRow,
    snapshot_digest,
    utf8_or_none,
)
from store.rematches import RematchReads, RematchWrites
from store.seat_changes import SeatReads, SeatWrites
from store.standings import StandingsReads, StandingsWrites
from store.user_settings import SettingsReads, SettingsWrites
from store.writer import Statement, TxResult

Clock = Callable[[], float]
Target = str | os.PathLike[str]

_PENDING = "fired_at IS NULL AND cancelled_at IS NULL"
URL_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(target: object) -> bool:
    """Whether `target` names a PostgreSQL database (a URL) rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


class TableCounts(NamedTuple):
    """Open tables and running games of one user and one server."""

    lobbies_hosted: int  # open tables this user hosts (any server)
    server_lobbies: int  # open tables in the server
    user_games: int  # tables and running games where the user has a seat (any server)
    server_games: int  # running games in the server


class Tx(DeliveryWrites, SettingsWrites, SeatWrites, StandingsWrites, PlanWrites, RematchWrites):
    """The statements of one transaction, built with typed methods and run by `Store.write`.

    Guarded statements (`expect_rows`) make the whole transaction fail with WriteConflict when
    the database is not in the state the caller saw, so a stale or doubled request writes
    nothing."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.statements: list[Statement] = []
        # Statement index -> the game or user it is about, for the store's read cache
        # (store/read_cache.py; a statement on plans or settings without a key clears them all).
        self.keys: dict[int, int] = {}

    def add(self, sql: str, params: Sequence[Any] = (), expect_rows: int | None = None, conflict: str = "",
            returns_id: bool = False) -> int:
        """Append a raw statement; returns its index (to find its rowid in the TxResult).
        `returns_id`: an INSERT whose new row's `id` the caller wants (PostgreSQL has no
        last rowid, so it asks for it with RETURNING)."""
        self.statements.append(Statement(sql, tuple(params), expect_rows, conflict, returns_id))
        return len(self.statements) - 1

    # --- games ------------------------------------------------------------------------
    def create_game(self, *, guild_id: int, channel_id: int, host_user_id: int, variant: str, options_json: str,
                    seats_wanted: int, turn_hours: float | None, max_away_days: float = 7.0) -> int:
        """A new game in the lobby. Returns the statement index whose rowid is the game id."""
        return self.add(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, options, seats_wanted, turn_hours,"
            " status, seq, waiting, created_at, updated_at, max_away_days)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, '[]', ?, ?, ?)",
            (guild_id, channel_id, host_user_id, variant, options_json, seats_wanted, turn_hours, self.now, self.now,
             max_away_days),
            returns_id=True,
        )

    def join_lobby(self, game_id: int | None, *, user_id: int | None, is_ai: bool, ai_level: str | None,
                   name: str, seats_wanted: int) -> None:
        """Sit at the next free slot of a lobby that still has room (`game_id` None: the game
        created earlier in this transaction)."""
        self.add(
            "INSERT INTO players (game_id, seat, user_id, is_ai, ai_level, name, joined_at)"
            " SELECT g.id, (SELECT coalesce(max(seat) + 1, 0) FROM players WHERE game_id = g.id),"
            " CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)"
            " FROM games AS g WHERE g.id = coalesce(CAST(? AS BIGINT), last_insert_rowid()) AND g.status = 'lobby'"
            " AND (SELECT count(*) FROM players WHERE game_id = g.id) < ?",
            (user_id, int(is_ai), ai_level, name, self.now, game_id, seats_wanted),
            expect_rows=1,
            conflict="The table changed meanwhile (it filled up or started).",
        )

    def leave_lobby(self, game_id: int, seat: int) -> None:
        """Free a slot of a lobby."""
        self.add(
            "DELETE FROM players WHERE game_id = ? AND seat = ?"
            " AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'lobby')",
            (game_id, seat, game_id),
            expect_rows=1,
            conflict="The table changed meanwhile (that seat is gone or the game started).",
        )

    def set_status(self, game_id: int, from_status: str, to_status: str) -> None:
        """Change a game's status, if it is still `from_status`."""
        self.add(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
            (to_status, self.now, game_id, from_status),
            expect_rows=1,
            conflict=f"The game is no longer {from_status}.",
        )

    def start_game(self, game_id: int, *, seed: int, rules_version: int, status: str, waiting_json: str,
                   seats: Sequence[PlayerRow]) -> None:
        """Leave the lobby: record the seed and seat the players 0, 1, 2, … in the given order."""
        self.add(
            "UPDATE games SET status = ?, seed = ?, rules_version = ?, seq = 0, waiting = ?, updated_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (status, seed, rules_version, waiting_json, self.now, game_id),
            expect_rows=1,
            conflict="The game has already started.",
        )
        self.add("DELETE FROM players WHERE game_id = ?", (game_id,), expect_rows=len(seats),
                 conflict="The table changed meanwhile.")
        for seat, p in enumerate(seats):
            self.add(
                "INSERT INTO players (game_id, seat, user_id, is_ai, ai_level, name, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seat, p.user_id, int(p.is_ai), p.ai_level, p.name, p.joined_at),
            )

    def advance_game(self, game_id: int, *, from_seq: int, to_seq: int, status: str, waiting_json: str,
                     from_status: str | None = None) -> None:
        """Move a game's seq on, but only if it is still at `from_seq` (the guard that makes a
        second process's stale copy, or a doubled request, write nothing). `from_status`: the
        status the caller saw; when it stays the same, the status is not written (so SQLite
        leaves the index on it alone: one page less per move)."""
        if status == from_status:
            self.add(
                "UPDATE games SET seq = ?, waiting = ?, updated_at = ? WHERE id = ? AND seq = ?"
                " AND status IN ('setup', 'playing')",
                (to_seq, waiting_json, self.now, game_id, from_seq),
                expect_rows=1,
                conflict="That already happened: the game has moved on.",
            )
            return
        self.add(
            "UPDATE games SET seq = ?, status = ?, waiting = ?, updated_at = ? WHERE id = ? AND seq = ?"
            " AND status IN ('setup', 'playing')",
            (to_seq, status, waiting_json, self.now, game_id, from_seq),
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
        )

    def set_bot_state(self, key: str, value: str) -> None:
        """Remember a fact about the bot itself (replacing the one under `key`)."""
        self.add("INSERT INTO bot_state (key, value, changed_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE"
                 " SET value = excluded.value, changed_at = excluded.changed_at", (key, value, self.now))

    def set_thread(self, game_id: int, thread_id: int | None) -> None:
        self.add("UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?", (thread_id, self.now, game_id),
                 expect_rows=1, conflict="There is no such game.")

    def repair_game(self, game_id: int, *, seq: int, status: str, waiting_json: str) -> None:
        """Bring a game's row back in step with its log (the log wins)."""
        self.add("UPDATE games SET seq = ?, status = ?, waiting = ?, updated_at = ? WHERE id = ?",
                 (seq, status, waiting_json, self.now, game_id))

    def mark_broken(self, game_id: int, reason: str) -> None:
        """Take a game out of play with the reason it cannot be loaded."""
        self.add("UPDATE games SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?",
                 (reason, self.now, game_id))
        self.add(f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {_PENDING}", (self.now, game_id))

    # --- the log and its cache --------------------------------------------------------
    def append_action(self, game_id: int, seq: int, *, actor: int | None, user_id: int | None, action_json: str,
                      events_json: str) -> None:
        """Append to the log. (game, seq) is unique, so the same seq can never be written twice."""
        self.add(
            f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, actor, user_id, action_json, events_json, self.now),
        )

    def put_snapshot(self, game_id: int, seq: int, *, rules_version: int, state_json: str) -> str:
        """Replace the game's cached state (the state after entry `seq` of its log) with its
        digest; returns the digest."""
        digest = snapshot_digest(state_json)
        self.add(
            f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
            " SET seq = excluded.seq, rules_version = excluded.rules_version, state = excluded.state,"
            " created_at = excluded.created_at, digest = excluded.digest",
            (game_id, seq, rules_version, state_json, self.now, digest),
        )
        return digest

    def catch_up_snapshot(self, game_id: int, seq: int, *, rules_version: int, state_json: str) -> None:
        """Replace the game's snapshot with the state after entry `seq`, if the game is still
        at `seq` and its snapshot is older (another process may have moved it on meanwhile:
        then nothing is written)."""
        self.add(
            f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT) FROM games WHERE id = ? AND seq = ?"
            " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version,"
            " state = excluded.state, created_at = excluded.created_at, digest = excluded.digest"
            " WHERE snapshots.seq < excluded.seq",
            (seq, rules_version, state_json, self.now, snapshot_digest(state_json), game_id, seq),
        )

    def add_results(self, rows: Iterable[ResultRow]) -> None:
        for r in rows:
            self.add(
                f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (r.game_id, r.seat, r.user_id, int(r.is_ai), r.ai_level, r.name, r.guild_id, r.variant, r.score,
                 r.place, int(r.won), r.tickets_completed, r.tickets_failed, r.finished_at),
            )

    # --- timers -----------------------------------------------------------------------
    def schedule_timer(self, game_id: int, kind: str, due_at: float, *, seat: int | None = None,
                       for_seq: int | None = None, payload_json: str = "{}") -> int:
        """A new pending timer, replacing a pending one of the same kind for the same seat.
        Returns the statement index whose rowid is the timer id."""
        self.cancel_timers(game_id, kind=kind, seat=seat, any_seat=False)
        # A timer for a point of the game that has already passed would never be cancelled by
        # the move that passed it, so it is refused instead.
        return self.add(
            "INSERT INTO timers (game_id, kind, seat, for_seq, due_at, payload, created_at)"
            " SELECT id, CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR seq = ?)",
            (kind, seat, for_seq, due_at, payload_json, self.now, game_id, for_seq, for_seq),
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
            returns_id=True,
        )

    def cancel_timers(self, game_id: int, *, kind: str | None = None, seat: int | None = None,
                      any_seat: bool = True) -> None:
        """Cancel a game's pending timers (of one kind, and one seat unless `any_seat`)."""
        sql = f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {_PENDING}"
        params: list[Any] = [self.now, game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if not any_seat:
            sql += " AND coalesce(seat, -1) = coalesce(CAST(? AS INTEGER), -1)"
            params.append(seat)
        self.add(sql, params)

    def cancel_timers_before(self, game_id: int, seq: int) -> None:
        """Cancel the pending timers that were set for an earlier point of the game."""
        self.add(
            f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND for_seq < ? AND {_PENDING}",
            (self.now, game_id, seq),
        )

    def fire_timer(self, timer_id: int) -> None:
        """Mark a timer fired; fails the transaction (WriteConflict) unless it was pending, so
        a timer fires once even when two workers or a restart race for it."""
        self.add(
            f"UPDATE timers SET fired_at = ? WHERE id = ? AND {_PENDING}",
            (self.now, timer_id),
            expect_rows=1,
            conflict="That timer has already fired or was cancelled.",
        )


class Store(DeliveryReads, SettingsReads, SeatReads, StandingsReads, PlanReads, RematchReads):
    """A game store: typed reads and `write(tx)`. Open one with `Store.open` (which picks the
    back end) and close it with `close` (or `async with`). Subclasses supply `_fetch`, `write`,
    `close`, and the spelling of `_any`/`_list`."""

    # "is one of this list", and the parameter that carries the list (SQLite: JSON text).
    _any = "IN (SELECT value FROM json_each(?))"
    # Whether other processes may write the same database (a cached game must then be checked
    # against the stored one before each use: app/loader.py).
    shared = False
    # What a store no other process writes keeps of its plans and settings reads
    # (store/read_cache.py; None: read every time).
    _read_cache: ReadCache | None = None
    # Whether `open` made this database.
    created = False
    # Where the database is, for messages (a path, or a URL without its password).
    label = ""
    clock: Clock
    schema_version: int

    @classmethod
    async def open(cls, target: Target | None = None, *, clock: Clock = time.time, max_batch: int | None = None,
                   allow_init: bool = False, create_folder: bool = True) -> Store:
        """Open and migrate the game database at `target`: a `postgresql://` URL, or an SQLite
        file (default: $TTR_DATABASE, else data/ttr.sqlite3). Refuses a database it should
        not use with a DatabaseUnusable subclass whose message says what is wrong and what to
        do, having changed nothing (store/sqlite_store.py, store/postgres.py). `max_batch`:
        transactions per commit at most (default: 128 for SQLite, 1 for PostgreSQL)."""
        if target is None:
            from store.db import default_target

            target = default_target()
        if is_database_url(target):
            from store.postgres import PgStore

            return await PgStore.open_url(str(target), clock=clock, max_batch=max_batch)
        from store.sqlite_store import SqliteStore

        return await SqliteStore.open_file(Path(target), clock=clock, max_batch=max_batch or 128,
                                           allow_init=allow_init, create_folder=create_folder)

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

    def _list(self, values: Iterable[Any]) -> Any:
        """The parameter for `_any`."""
        import json

        return json.dumps(list(values))

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

    async def claim_deliveries(self, now: float, limit: int, *, always: Sequence[str], owner: str,
                               lease: float) -> list[DeliveryRow]:
        """The deliveries due now that this process (`owner`) is to send. One process alone
        (SQLite) claims nothing: it is every due delivery. PostgreSQL leases them (postgres.py)."""
        return await self.due_deliveries(now, limit, always=always)

    async def next_claimable_delivery(self, now: float, owner: str, *, always: Sequence[str] = ()) -> float | None:
        """When a delivery this process could claim falls due (for the dispatcher's sleep)."""
        return await self.next_delivery_due(always=always)

    async def next_claimable_timer(self, now: float, owner: str) -> float | None:
        """When a timer this process could claim falls due (for the timer loop's sleep)."""
        return await self.next_timer_due()

    async def claim_timers(self, now: float, limit: int, *, owner: str, lease: float) -> list[TimerRow]:
        """The due timers this process is to act on (one process alone: every due timer)."""
        return await self.due_timers(now, limit)

    # --- reading ----------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(rows[0]) if rows else None

    async def games(self, game_ids: Iterable[int]) -> dict[int, GameRow]:
        ids = list(game_ids)
        if not ids:
            return {}
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id {self._any}", (self._list(ids),)
        )
        return {row[0]: GameRow.from_row(row) for row in rows}

    async def game_with_players(self, game_id: int) -> tuple[GameRow | None, list[PlayerRow]]:
        """A game's row and its seats in one read (one round trip to a server)."""
        game_cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        player_cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        rows = await self._fetch(
            f"SELECT {game_cols}, {player_cols} FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id"
            " WHERE g.id = ? ORDER BY p.seat", (game_id,))
        if not rows:
            return None, []
        width = len(GAME_COLUMNS.split(","))
        players = [PlayerRow.from_row(r[width:]) for r in rows if r[width] is not None]
        return GameRow.from_row(rows[0][:width]), players

    async def players(self, game_id: int) -> list[PlayerRow]:
        rows = await self._fetch(f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
        return [PlayerRow.from_row(r) for r in rows]

    async def players_of(self, game_ids: Iterable[int]) -> dict[int, list[PlayerRow]]:
        ids = list(game_ids)
        out: dict[int, list[PlayerRow]] = {i: [] for i in ids}
        if ids:
            rows = await self._fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id {self._any}"
                " ORDER BY game_id, seat",
                (self._list(ids),),
            )
            for r in rows:
                out[r[0]].append(PlayerRow.from_row(r))
        return out

    async def seats_of_user(self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
                            ) -> list[tuple[GameRow, int]]:
        """The games (in one of `statuses`) where `user_id` has a seat, with that seat, newest
        activity first."""
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        sql = (
            f"SELECT {cols}, p.seat FROM players AS p JOIN games AS g ON g.id = p.game_id"
            f" WHERE p.user_id = ? AND g.status {self._any}"
        )
        params: list[Any] = [user_id, self._list(statuses)]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY g.updated_at DESC, g.id DESC", params)
        return [(GameRow.from_row(r[:-1]), r[-1]) for r in rows]

    async def open_lobby_of(self, guild_id: int, channel_id: int, host_user_id: int) -> GameRow | None:
        """The lobby this user is hosting in this channel, if any."""
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? AND status = 'lobby'"
            " AND host_user_id = ? ORDER BY id LIMIT 1",
            (guild_id, channel_id, host_user_id),
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def table_counts(self, guild_id: int, user_id: int) -> TableCounts:
        """What a user and a server have open now, for the service's caps (app.limits)."""
        rows = await self._fetch(
            "SELECT"
            " (SELECT COUNT(*) FROM games WHERE host_user_id = ? AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM players AS p JOIN games AS g ON g.id = p.game_id"
            "   WHERE p.user_id = ? AND g.status IN ('lobby', 'setup', 'playing')),"
            " (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ('setup', 'playing'))",
            (user_id, guild_id, user_id, guild_id),
        )
        return TableCounts(*rows[0])

    async def bot_state(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM bot_state WHERE key = ?", (key,))
        if not rows:
            return None
        value = rows[0][0]
        return utf8_or_none(bytes(value)) if isinstance(value, bytes | memoryview) else value

    async def dm_closed(self, user_id: int) -> bool:
        """Whether any of the user's seats says their DMs are closed."""
        rows = await self._fetch("SELECT coalesce(max(dm_closed), 0) FROM players WHERE user_id = ?", (user_id,))
        return bool(rows[0][0])

    async def game_ids_of_user(self, user_id: int) -> list[int]:
        """Every game where `user_id` has a seat."""
        rows = await self._fetch("SELECT game_id FROM players WHERE user_id = ? ORDER BY game_id", (user_id,))
        return [r[0] for r in rows]

    async def games_waiting_for_bots(self) -> list[tuple[int, int]]:
        """(game id, guild id) of the games being played whose turn is a seat the bot plays (an
        AI, or an AI standing in for an absent player): what a restart must move on."""
        rows = await self._fetch(
            "SELECT g.id, g.guild_id, g.waiting, p.seat FROM games AS g JOIN players AS p ON p.game_id = g.id"
            " WHERE g.status IN ('setup', 'playing') AND (p.is_ai = 1 OR p.stand_in IS NOT NULL) ORDER BY g.id"
        )
        out: list[tuple[int, int]] = []
        for game_id, guild_id, waiting, seat in rows:
            text = bytes(waiting).decode("utf-8", "replace") if isinstance(waiting, bytes | memoryview) else waiting
            try:
                waits = json.loads(text) if isinstance(text, str) else []
            except ValueError:
                continue  # a derived column: the game shows its damage when it is loaded
            if isinstance(waits, list) and seat in waits and (not out or out[-1][0] != game_id):
                out.append((game_id, guild_id))
        return out

    async def game_ids(self, statuses: Sequence[str]) -> list[int]:
        rows = await self._fetch(f"SELECT id FROM games WHERE status {self._any} ORDER BY id", (self._list(statuses),))
        return [r[0] for r in rows]

    async def game_guilds(self, statuses: Sequence[str]) -> list[tuple[int, int]]:
        """(game id, guild id) of the games in one of `statuses`, by id."""
        rows = await self._fetch(f"SELECT id, guild_id FROM games WHERE status {self._any} ORDER BY id",
                                 (self._list(statuses),))
        return [(r[0], r[1]) for r in rows]

    async def load_game(self, game_id: int, *, whole: bool = False) -> GameLoad:
        """What loading a game needs, read at one moment: its row, its seats, its snapshot and
        the entries of its log after the snapshot (the whole log with `whole`, or when it has
        no snapshot)."""
        game_cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        player_cols = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
        after = ("-1" if whole else
                 "coalesce((SELECT seq FROM snapshots WHERE game_id = CAST(? AS BIGINT)), -1)")
        rows, snapshots, actions = await self._fetch_many((
            (f"SELECT {game_cols}, {player_cols} FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id"
             " WHERE g.id = ? ORDER BY p.seat", (game_id,)),
            (f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,)),
            (f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > {after} ORDER BY seq",
             (game_id,) if whole else (game_id, game_id)),
        ))
        if not rows:
            return GameLoad(None, [], None, [])
        width = len(GAME_COLUMNS.split(","))
        return GameLoad(GameRow.from_row(rows[0][:width]),
                        [PlayerRow.from_row(r[width:]) for r in rows if r[width] is not None],
                        SnapshotRow.from_row(snapshots[0]) if snapshots else None,
                        [ActionRow.from_row(r) for r in actions])

    async def games_with_old_snapshots(self) -> list[int]:
        """The games being played whose snapshot is not at the end of their log, by id."""
        rows = await self._fetch(
            "SELECT g.id FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id"
            " WHERE g.status IN ('setup', 'playing') AND (s.seq IS NULL OR s.seq < g.seq) ORDER BY g.id")
        return [r[0] for r in rows]

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        rows = await self._fetch(f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,))
        return SnapshotRow.from_row(rows[0]) if rows else None

    async def actions(self, game_id: int, after_seq: int = -1) -> list[ActionRow]:
        """The log of a game from `after_seq + 1` on, in order."""
        rows = await self._fetch(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after_seq)
        )
        return [ActionRow.from_row(r) for r in rows]

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last `limit` log entries of a game, oldest first."""
        rows = await self._fetch(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, limit)
        )
        return [ActionRow.from_row(r) for r in reversed(rows)]

    async def timer(self, timer_id: int) -> TimerRow | None:
        rows = await self._fetch(f"SELECT {TIMER_COLUMNS} FROM timers WHERE id = ?", (timer_id,))
        return TimerRow.from_row(rows[0]) if rows else None

    async def pending_timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._fetch(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND {_PENDING} ORDER BY due_at, id", (game_id,)
        )
        return [TimerRow.from_row(r) for r in rows]

    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        """Pending timers due at or before `now`, earliest first; leaves out those set for a
        point the game has passed and those of games that are over, cancelled or broken."""
        cols = ", ".join(f"t.{c.strip()}" for c in TIMER_COLUMNS.split(","))
        rows = await self._fetch(
            f"SELECT {cols} FROM timers AS t JOIN games AS g ON g.id = t.game_id"
            " WHERE t.due_at <= ? AND t.fired_at IS NULL AND t.cancelled_at IS NULL"
            " AND (t.for_seq IS NULL OR t.for_seq = g.seq) AND g.status IN ('lobby', 'setup', 'playing')"
            " ORDER BY t.due_at, t.id LIMIT ?",
            (now, limit),
        )
        return [TimerRow.from_row(r) for r in rows]

    async def next_timer_due(self) -> float | None:
        rows = await self._fetch(f"SELECT min(due_at) FROM timers WHERE {_PENDING}")
        return rows[0][0] if rows else None

    async def results_of_game(self, game_id: int) -> list[ResultRow]:
        rows = await self._fetch(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ResultRow.from_row(r) for r in rows]

    async def results_of_user(self, user_id: int, guild_id: int | None = None, limit: int = 1000) -> list[ResultRow]:
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = ?"
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._fetch(sql + " ORDER BY finished_at DESC LIMIT ?", (*params, limit))
        return [ResultRow.from_row(r) for r in rows]

