"""The game store: typed reads, and writes collected into transactions.

    store = await Store.open("data/ttr.sqlite3")
    tx = store.tx()
    tx.advance_game(game_id, from_seq=4, to_seq=5, status="playing", waiting_json="[1]")
    tx.append_action(game_id, 5, actor=0, user_id=42, action_json=..., events_json=...)
    tx.put_snapshot(game_id, 5, rules_version=1, state_json=...)
    await store.write(tx)          # one transaction, durable when this returns

SQLite only: nothing here knows the rules of the game. Reads use their own connection, so they
never wait behind a commit's fsync and never see a transaction that is not committed yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from store.commits import CommitMarker, check_commits, mark_closed, mark_open
from store.db import configure, connect, connect_plain, default_path
from store.deliveries import DeliveryReads, DeliveryWrites
from store.errors import StoreError
from store.migrations import migrate
from store.records import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    SNAPSHOT_COLUMNS,
    TIMER_COLUMNS,
    ActionRow,
    GameRow,
    PlayerRow,
    ResultRow,
    SnapshotRow,
    TimerRow,
    utf8_or_none,
)
from store.startup import (
    Kind,
    check_backup_target,
    check_contents,
    create_database,
    inspect_path,
    sqlite_failure,
)
from store.writer import GroupCommitWriter, Statement, TxResult

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_PENDING = "fired_at IS NULL AND cancelled_at IS NULL"


class TableCounts(NamedTuple):
    """Open tables and running games of one user and one server."""

    lobbies_hosted: int  # open tables this user hosts (any server)
    server_lobbies: int  # open tables in the server
    user_games: int  # tables and running games where the user has a seat (any server)
    server_games: int  # running games in the server


class Tx(DeliveryWrites):
    """The statements of one transaction, built with typed methods and run by `Store.write`.

    Guarded statements (`expect_rows`) make the whole transaction fail with WriteConflict when
    the database is not in the state the caller saw, so a stale or doubled request writes
    nothing."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.statements: list[Statement] = []

    def add(self, sql: str, params: Sequence[Any] = (), expect_rows: int | None = None, conflict: str = "") -> int:
        """Append a raw statement; returns its index (to find its rowid in the TxResult)."""
        self.statements.append(Statement(sql, tuple(params), expect_rows, conflict))
        return len(self.statements) - 1

    # --- games ------------------------------------------------------------------------
    def create_game(self, *, guild_id: int, channel_id: int, host_user_id: int, variant: str, options_json: str,
                    seats_wanted: int, turn_hours: float | None) -> int:
        """A new game in the lobby. Returns the statement index whose rowid is the game id."""
        return self.add(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, options, seats_wanted, turn_hours,"
            " status, seq, waiting, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, '[]', ?, ?)",
            (guild_id, channel_id, host_user_id, variant, options_json, seats_wanted, turn_hours, self.now, self.now),
        )

    def join_lobby(self, game_id: int | None, *, user_id: int | None, is_ai: bool, ai_level: str | None,
                   name: str, seats_wanted: int) -> None:
        """Sit at the next free slot of a lobby that still has room (`game_id` None: the game
        created earlier in this transaction)."""
        self.add(
            "INSERT INTO players (game_id, seat, user_id, is_ai, ai_level, name, joined_at)"
            " SELECT g.id, (SELECT coalesce(max(seat) + 1, 0) FROM players WHERE game_id = g.id), ?, ?, ?, ?, ?"
            " FROM games AS g WHERE g.id = coalesce(?, last_insert_rowid()) AND g.status = 'lobby'"
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

    def advance_game(self, game_id: int, *, from_seq: int, to_seq: int, status: str, waiting_json: str) -> None:
        """Move a game's seq on, but only if it is still at `from_seq` (the guard that makes a
        second process's stale copy, or a doubled request, write nothing)."""
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

    def put_snapshot(self, game_id: int, seq: int, *, rules_version: int, state_json: str) -> None:
        """Replace the game's cached state."""
        self.add(
            f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
            " SET seq = excluded.seq, rules_version = excluded.rules_version, state = excluded.state,"
            " created_at = excluded.created_at",
            (game_id, seq, rules_version, state_json, self.now),
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
            " SELECT id, ?, ?, ?, ?, ?, ? FROM games WHERE id = ? AND (? IS NULL OR seq = ?)",
            (kind, seat, for_seq, due_at, payload_json, self.now, game_id, for_seq, for_seq),
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
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
            sql += " AND coalesce(seat, -1) = coalesce(?, -1)"
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


class Store(DeliveryReads):
    """The SQLite game store: one write connection behind a group-commit writer, one read
    connection. Open it with `Store.open`, close it with `close` (or `async with`)."""

    def __init__(self, path: Path, writer_db: aiosqlite.Connection, reader_db: aiosqlite.Connection,
                 clock: Clock, version: int, max_batch: int, marker: CommitMarker | None = None) -> None:
        self.path = path
        self.clock = clock
        self.schema_version = version
        self._writer_db = writer_db
        self._reader = reader_db
        self._marker = marker
        self._writer = GroupCommitWriter(writer_db, max_batch=max_batch, marker=marker)
        # Whether `open` made this database (there was no file, or an empty one and allow_init).
        self.created = False

    @classmethod
    async def open(cls, path: str | os.PathLike[str] | None = None, *, clock: Clock = time.time,
                   max_batch: int = 128, allow_init: bool = False, create_folder: bool = True) -> Store:
        """Open and migrate the game database at `path` (default: data/ttr.sqlite3 or
        $TTR_DATABASE), making a new one if there is no file there yet (and its folder, when
        `create_folder`).

        Refuses, with a DatabaseUnusable subclass whose message says what is wrong, with which
        path and what to do, and without changing anything: a path that cannot hold the file,
        a folder or file the bot may not write, a file that is not a game database (another
        program's, not SQLite, damaged), a database from a newer bot (SchemaTooNew), and an
        empty file (0 bytes, or SQLite without tables) unless `allow_init` — an empty file is
        more likely a failed copy than a wish for a new database."""
        path = Path(path) if path is not None else default_path()
        found = await asyncio.to_thread(inspect_path, path, create_folder=create_folder, allow_init=allow_init)
        created = found.kind is not Kind.SQLITE
        if created:
            await create_database(path, clock, replace_empty=found.kind is Kind.EMPTY)
        writer_db, empty = await _open_checked(path, allow_init=allow_init)
        created = created or empty
        marker = None
        try:
            await configure(writer_db, path)
            version = await migrate(writer_db, str(path), clock)
            if not created:
                await check_commits(writer_db, path, found.last, found.wal_present)
            db_id, commits = await mark_open(writer_db, clock())
            marker = CommitMarker(path, db_id)
            marker.write(commits)
            reader_db = await connect(path, read_only=True)
            # Text arrives as bytes and the rows decode it (store/records.py): sqlite3's own
            # decoding error quotes the text, which may be a hand or the deck.
            reader_db.text_factory = bytes
        except (sqlite3.Error, OSError) as exc:
            await _abandon(writer_db, marker)
            raise sqlite_failure(path, exc) from exc
        except BaseException:
            await _abandon(writer_db, marker)
            raise
        store = cls(path, writer_db, reader_db, clock, version, max_batch, marker)
        store.created = created
        store._writer.start()
        if created:
            log.info("created a new, empty game database at %s (schema version %d)", path, version)
        else:
            log.info("opened game store %s (schema version %d)", path, version)
        return store

    async def close(self) -> None:
        """Finish queued writes, record a clean close (the -wal folded into the file), and
        close both connections."""
        try:
            await self._writer.close()
        finally:
            await self._reader.close()
            try:
                await mark_closed(self._writer_db, self.clock())
            except sqlite3.Error as exc:
                # The file keeps saying "not closed cleanly", which is the safe answer.
                log.warning("could not record a clean close of %s: %s", self.path, exc)
            finally:
                if self._marker is not None:
                    self._marker.close()
                await self._writer_db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def writer_stats(self) -> tuple[int, int]:
        """(transactions, commits) so far: how well group commit is batching."""
        return self._writer.transactions, self._writer.commits

    async def settings(self) -> dict[str, Any]:
        """The write connection's durability settings, as SQLite reports them."""
        out: dict[str, Any] = {}
        for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
            rows = await self._writer_db.execute_fetchall(f"PRAGMA {name}")
            out[name] = list(rows)[0][0]
        return out

    # --- writing ----------------------------------------------------------------------
    def tx(self) -> Tx:
        """A new transaction stamped with the store's clock."""
        return Tx(self.clock())

    async def write(self, tx: Tx) -> TxResult:
        """Commit `tx` as one transaction; returns once it is on disk. Raises WriteConflict
        (nothing written) when a guard failed."""
        if not tx.statements:
            return TxResult()
        return await self._writer.run(tx.statements)

    # --- reading ----------------------------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(rows[0]) if rows else None

    async def games(self, game_ids: Iterable[int]) -> dict[int, GameRow]:
        ids = list(game_ids)
        if not ids:
            return {}
        rows = await self._fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN (SELECT value FROM json_each(?))", (_json_ids(ids),)
        )
        return {row[0]: GameRow.from_row(row) for row in rows}

    async def players(self, game_id: int) -> list[PlayerRow]:
        rows = await self._fetch(f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
        return [PlayerRow.from_row(r) for r in rows]

    async def players_of(self, game_ids: Iterable[int]) -> dict[int, list[PlayerRow]]:
        ids = list(game_ids)
        out: dict[int, list[PlayerRow]] = {i: [] for i in ids}
        if ids:
            rows = await self._fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id IN (SELECT value FROM json_each(?))"
                " ORDER BY game_id, seat",
                (_json_ids(ids),),
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
            " WHERE p.user_id = ? AND g.status IN (SELECT value FROM json_each(?))"
        )
        params: list[Any] = [user_id, _json_ids(statuses)]
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

    async def game_ids(self, statuses: Sequence[str]) -> list[int]:
        rows = await self._fetch("SELECT id FROM games WHERE status IN (SELECT value FROM json_each(?)) ORDER BY id",
                                 (_json_ids(statuses),))
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

    # --- backup -----------------------------------------------------------------------
    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy the live database to `dest` with SQLite's online backup (see `backup_to`)."""
        return await backup_to(self._reader, dest, self.path)


async def backup_to(source: aiosqlite.Connection, dest: str | os.PathLike[str],
                    source_path: str | os.PathLike[str]) -> Path:
    """Copy a live database with SQLite's online backup API: a consistent copy even while the
    bot writes. It goes to a temporary file next to `dest`, is checked, and is then renamed
    into place, so `dest` is never a half-written copy. Raises BackupRefused for a `dest`
    that is the database at `source_path` or one of its files, or whose folder is missing."""
    dest = Path(dest)
    check_backup_target(Path(source_path), dest)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    # The backup runs on the source's worker thread, so the target must allow that.
    target = sqlite3.connect(partial, check_same_thread=False)
    try:
        await source.backup(target)
        # Off the event loop: checking a large copy takes a while.
        check = await asyncio.to_thread(_finish_copy, target)
        if check != "ok":
            raise StoreError(f"The backup copy failed its integrity check: {check}")
    except BaseException:
        target.close()
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise
    target.close()
    os.replace(partial, dest)
    return dest


def _finish_copy(target: Any) -> str:
    # A copy is complete and closed, and it is a database of its own: restored, its commits
    # are not compared with the live database's -lastcommit file (store/commits.py).
    with contextlib.suppress(sqlite3.OperationalError):  # a database from before migration 3
        target.execute("UPDATE store_state SET running = 0, db_id = lower(hex(randomblob(16)))")
        target.commit()
    target.execute("PRAGMA journal_mode = DELETE")  # a standalone file, with no -wal beside it
    row = target.execute("PRAGMA quick_check").fetchone()
    return str(row[0]) if row else "no answer"


async def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Path:
    """Back up the database file `source` (which the bot may be using right now) to `dest`."""
    source = Path(source)
    if not source.exists():
        raise StoreError(f"There is no database at {source} to back up.")
    check_backup_target(source, Path(dest))  # before anything opens the live database
    try:
        db = await connect(source, read_only=True)
    except sqlite3.Error as exc:
        raise sqlite_failure(source, exc) from exc
    try:
        return await backup_to(db, dest, source)
    except sqlite3.Error as exc:
        raise StoreError(f"The backup of {source} to {dest} failed ({exc}); nothing was written to {dest}.") from exc
    finally:
        await db.close()


async def _abandon(db: aiosqlite.Connection, marker: CommitMarker | None) -> None:
    """Close what a failed `Store.open` had opened."""
    if marker is not None:
        marker.close()
    await db.close()


async def _open_checked(path: Path, *, allow_init: bool) -> tuple[aiosqlite.Connection, bool]:
    """A connection to `path` once `check_contents` has found it fit to use (nothing changed),
    and whether the file holds no table yet."""
    try:
        db = await connect_plain(path)
    except sqlite3.Error as exc:
        raise sqlite_failure(path, exc) from exc
    try:
        empty = await check_contents(db, path, allow_init=allow_init)
    except sqlite3.Error as exc:
        await db.close()
        raise sqlite_failure(path, exc) from exc
    except BaseException:
        await db.close()
        raise
    return db, empty


def _json_ids(values: Iterable[Any]) -> str:
    import json

    return json.dumps(list(values))
