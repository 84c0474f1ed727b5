"""Games and their seats in the store: the `games` and `players` rows, and the facts the bot
keeps about itself (`bot_state`).

`GameWrites` is a transaction's part for them (`tx.games`), `GameReads` the store's
(`store.games`); `BotStateWrites` and `BotStateReads` are `tx.bot_state` and
`store.bot_state`. Nothing here knows the rules of the game: the service says what a move
writes (app/).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from store.reader import Reader
from store.records import GAME_COLUMNS, PLAYER_COLUMNS, GameRow, PlayerRow, utf8_or_none

if TYPE_CHECKING:
    from store.repository import Tx

PENDING_TIMER = "fired_at IS NULL AND cancelled_at IS NULL"
# The columns of a game and of a seat, as read from `games AS g` joined with `players AS p`.
G_COLUMNS = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
P_COLUMNS = ", ".join(f"p.{c.strip()}" for c in PLAYER_COLUMNS.split(","))
GAME_WIDTH = len(GAME_COLUMNS.split(","))


class TableCounts(NamedTuple):
    """Open tables and running games of one user and one server."""

    lobbies_hosted: int  # open tables this user hosts (any server)
    server_lobbies: int  # open tables in the server
    user_games: int  # tables and running games where the user has a seat (any server)
    server_games: int  # running games in the server


class GameWrites:
    """Statements on games and their seats (`tx.games`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def create(self, *, guild_id: int, channel_id: int, host_user_id: int, variant: str, options_json: str,
               seats_wanted: int, turn_hours: float | None, max_away_days: float = 7.0) -> int:
        """A new game in the lobby. Returns the statement index whose rowid is the game id."""
        now = self._tx.now
        return self._tx.add(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, options, seats_wanted, turn_hours,"
            " status, seq, waiting, created_at, updated_at, max_away_days)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, '[]', ?, ?, ?)",
            (guild_id, channel_id, host_user_id, variant, options_json, seats_wanted, turn_hours, now, now,
             max_away_days),
            returns_id=True,
        )

    def join_lobby(self, game_id: int | None, *, user_id: int | None, is_ai: bool, ai_level: str | None,
                   name: str, seats_wanted: int) -> None:
        """Sit at the next free slot of a lobby that still has room (`game_id` None: the game
        created earlier in this transaction)."""
        self._tx.add(
            "INSERT INTO players (game_id, seat, user_id, is_ai, ai_level, name, joined_at)"
            " SELECT g.id, (SELECT coalesce(max(seat) + 1, 0) FROM players WHERE game_id = g.id),"
            " CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION)"
            " FROM games AS g WHERE g.id = coalesce(CAST(? AS BIGINT), last_insert_rowid()) AND g.status = 'lobby'"
            " AND (SELECT count(*) FROM players WHERE game_id = g.id) < ?",
            (user_id, int(is_ai), ai_level, name, self._tx.now, game_id, seats_wanted),
            expect_rows=1,
            conflict="The table changed meanwhile (it filled up or started).",
        )

    def leave_lobby(self, game_id: int, seat: int) -> None:
        """Free a slot of a lobby."""
        self._tx.add(
            "DELETE FROM players WHERE game_id = ? AND seat = ?"
            " AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'lobby')",
            (game_id, seat, game_id),
            expect_rows=1,
            conflict="The table changed meanwhile (that seat is gone or the game started).",
        )

    def set_status(self, game_id: int, from_status: str, to_status: str) -> None:
        """Change a game's status, if it is still `from_status`."""
        self._tx.add(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
            (to_status, self._tx.now, game_id, from_status),
            expect_rows=1,
            conflict=f"The game is no longer {from_status}.",
        )

    def start(self, game_id: int, *, seed: int, rules_version: int, status: str, waiting_json: str,
              seats: Sequence[PlayerRow]) -> None:
        """Leave the lobby: record the seed and seat the players 0, 1, 2, … in the given order."""
        self._tx.add(
            "UPDATE games SET status = ?, seed = ?, rules_version = ?, seq = 0, waiting = ?, updated_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (status, seed, rules_version, waiting_json, self._tx.now, game_id),
            expect_rows=1,
            conflict="The game has already started.",
        )
        self._tx.add("DELETE FROM players WHERE game_id = ?", (game_id,), expect_rows=len(seats),
                     conflict="The table changed meanwhile.")
        for seat, p in enumerate(seats):
            self._tx.add(
                "INSERT INTO players (game_id, seat, user_id, is_ai, ai_level, name, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seat, p.user_id, int(p.is_ai), p.ai_level, p.name, p.joined_at),
            )

    def advance(self, game_id: int, *, from_seq: int, to_seq: int, status: str, waiting_json: str,
                from_status: str | None = None) -> None:
        """Move a game's seq on, but only if it is still at `from_seq` (the guard that makes a
        second process's stale copy, or a doubled request, write nothing). `from_status`: the
        status the caller saw; when it stays the same, the status is not written (so SQLite
        leaves the index on it alone: one page less per move)."""
        if status == from_status:
            self._tx.add(
                "UPDATE games SET seq = ?, waiting = ?, updated_at = ? WHERE id = ? AND seq = ?"
                " AND status IN ('setup', 'playing')",
                (to_seq, waiting_json, self._tx.now, game_id, from_seq),
                expect_rows=1,
                conflict="That already happened: the game has moved on.",
            )
            return
        self._tx.add(
            "UPDATE games SET seq = ?, status = ?, waiting = ?, updated_at = ? WHERE id = ? AND seq = ?"
            " AND status IN ('setup', 'playing')",
            (to_seq, status, waiting_json, self._tx.now, game_id, from_seq),
            expect_rows=1,
            conflict="That already happened: the game has moved on.",
        )

    def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """The game's thread (None: it has none, or it is gone)."""
        self._tx.add("UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?", (thread_id, self._tx.now, game_id),
                     expect_rows=1, conflict="There is no such game.")

    def set_turn_post(self, game_id: int, message_id: int | None, seq: int | None) -> int:
        """The message in the game's thread that shows the current turn (and the seq it shows).
        Returns the statement's index (its rowcount: whether the row was written, which on
        PostgreSQL moved the game's version by one: migration 35)."""
        return self._tx.add("UPDATE games SET turn_post_id = ?, turn_post_seq = ? WHERE id = ?",
                            (message_id, seq, game_id))

    def set_paused(self, game_id: int, reason: str | None) -> None:
        """Stop a game's clocks with a reason, or (None) start them again."""
        self._tx.add("UPDATE games SET paused_reason = ?, updated_at = ? WHERE id = ?",
                     (reason, self._tx.now, game_id))

    def repair(self, game_id: int, *, seq: int, status: str, waiting_json: str) -> None:
        """Bring a game's row back in step with its log (the log wins)."""
        self._tx.add("UPDATE games SET seq = ?, status = ?, waiting = ?, updated_at = ? WHERE id = ?",
                     (seq, status, waiting_json, self._tx.now, game_id))

    def mark_broken(self, game_id: int, reason: str) -> None:
        """Take a game out of play with the reason it cannot be loaded (its timers with it)."""
        now = self._tx.now
        self._tx.add("UPDATE games SET status = 'broken', broken_reason = ?, updated_at = ? WHERE id = ?",
                     (reason, now, game_id))
        self._tx.add(f"UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND {PENDING_TIMER}", (now, game_id))


class GameReads:
    """Reads of games and their seats (`store.games`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def get(self, game_id: int) -> GameRow | None:
        """A game's row (None: no such game)."""
        rows = await self._read.fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(rows[0]) if rows else None

    async def many(self, game_ids: Iterable[int]) -> dict[int, GameRow]:
        """The rows of these games, by id (a game that does not exist is left out)."""
        ids = list(game_ids)
        if not ids:
            return {}
        rows = await self._read.fetch(f"SELECT {GAME_COLUMNS} FROM games WHERE id {self._read.any}",
                                      (self._read.as_list(ids),))
        return {row[0]: GameRow.from_row(row) for row in rows}

    async def with_players(self, game_id: int) -> tuple[GameRow | None, list[PlayerRow]]:
        """A game's row and its seats in one read (one round trip to a server)."""
        rows = await self._read.fetch(
            f"SELECT {G_COLUMNS}, {P_COLUMNS} FROM games AS g LEFT JOIN players AS p ON p.game_id = g.id"
            " WHERE g.id = ? ORDER BY p.seat", (game_id,))
        if not rows:
            return None, []
        players = [PlayerRow.from_row(r[GAME_WIDTH:]) for r in rows if r[GAME_WIDTH] is not None]
        return GameRow.from_row(rows[0][:GAME_WIDTH]), players

    async def stamp(self, game_id: int) -> tuple[int, str, int] | None:
        """A game's seq, status and version (migration 35; None: no such game): on PostgreSQL,
        where the server moves the version, the same three numbers mean the same row and seats
        (app/loader.py's check of a cached game)."""
        rows = await self._read.fetch("SELECT seq, status, version FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        seq, status, version = rows[0]
        text = bytes(status).decode("utf-8", "replace") if isinstance(status, bytes | memoryview) else str(status)
        return int(seq), text, int(version)

    async def players(self, game_id: int) -> list[PlayerRow]:
        """A game's seats, by seat."""
        rows = await self._read.fetch(f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat",
                                      (game_id,))
        return [PlayerRow.from_row(r) for r in rows]

    async def players_of(self, game_ids: Iterable[int]) -> dict[int, list[PlayerRow]]:
        """The seats of these games, by game and seat."""
        ids = list(game_ids)
        out: dict[int, list[PlayerRow]] = {i: [] for i in ids}
        if ids:
            rows = await self._read.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id {self._read.any} ORDER BY game_id, seat",
                (self._read.as_list(ids),),
            )
            for r in rows:
                out[r[0]].append(PlayerRow.from_row(r))
        return out

    async def seats_of_user(self, user_id: int, statuses: Sequence[str], guild_id: int | None = None
                            ) -> list[tuple[GameRow, int]]:
        """The games (in one of `statuses`) where `user_id` has a seat, with that seat, newest
        activity first."""
        sql = (
            f"SELECT {G_COLUMNS}, p.seat FROM players AS p JOIN games AS g ON g.id = p.game_id"
            f" WHERE p.user_id = ? AND g.status {self._read.any}"
        )
        params: list[Any] = [user_id, self._read.as_list(statuses)]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._read.fetch(sql + " ORDER BY g.updated_at DESC, g.id DESC", params)
        return [(GameRow.from_row(r[:-1]), r[-1]) for r in rows]

    async def open_lobby_of(self, guild_id: int, channel_id: int, host_user_id: int) -> GameRow | None:
        """The lobby this user is hosting in this channel, if any."""
        rows = await self._read.fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? AND status = 'lobby'"
            " AND host_user_id = ? ORDER BY id LIMIT 1",
            (guild_id, channel_id, host_user_id),
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def table_counts(self, guild_id: int, user_id: int) -> TableCounts:
        """What a user and a server have open now, for the service's caps (app.limits)."""
        rows = await self._read.fetch(
            "SELECT"
            " (SELECT COUNT(*) FROM games WHERE host_user_id = ? AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'lobby'),"
            " (SELECT COUNT(*) FROM players AS p JOIN games AS g ON g.id = p.game_id"
            "   WHERE p.user_id = ? AND g.status IN ('lobby', 'setup', 'playing')),"
            " (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status IN ('setup', 'playing'))",
            (user_id, guild_id, user_id, guild_id),
        )
        return TableCounts(*rows[0])

    async def dm_closed(self, user_id: int) -> bool:
        """Whether any of the user's seats says their DMs are closed."""
        rows = await self._read.fetch("SELECT coalesce(max(dm_closed), 0) FROM players WHERE user_id = ?", (user_id,))
        return bool(rows[0][0])

    async def ids_of_user(self, user_id: int) -> list[int]:
        """Every game where `user_id` has a seat."""
        rows = await self._read.fetch("SELECT game_id FROM players WHERE user_id = ? ORDER BY game_id", (user_id,))
        return [r[0] for r in rows]

    async def waiting_for_bots(self) -> list[tuple[int, int]]:
        """(game id, guild id) of the games being played whose turn is a seat the bot plays (an
        AI, or an AI standing in for an absent player): what a restart must move on."""
        rows = await self._read.fetch(
            "SELECT g.id, g.guild_id, g.waiting, p.seat FROM games AS g JOIN players AS p ON p.game_id = g.id"
            " WHERE g.status IN ('setup', 'playing') AND (p.is_ai = 1 OR p.stand_in IS NOT NULL) ORDER BY g.id", ()
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

    async def ids(self, statuses: Sequence[str]) -> list[int]:
        """The ids of the games in one of `statuses`, in order."""
        rows = await self._read.fetch(f"SELECT id FROM games WHERE status {self._read.any} ORDER BY id",
                                      (self._read.as_list(statuses),))
        return [r[0] for r in rows]

    async def guilds(self, statuses: Sequence[str]) -> list[tuple[int, int]]:
        """(game id, guild id) of the games in one of `statuses`, by id."""
        rows = await self._read.fetch(f"SELECT id, guild_id FROM games WHERE status {self._read.any} ORDER BY id",
                                      (self._read.as_list(statuses),))
        return [(r[0], r[1]) for r in rows]


class BotStateWrites:
    """Statements on the facts the bot keeps about itself (`tx.bot_state`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def set(self, key: str, value: str) -> None:
        """Remember a fact about the bot itself (replacing the one under `key`)."""
        self._tx.add("INSERT INTO bot_state (key, value, changed_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE"
                     " SET value = excluded.value, changed_at = excluded.changed_at", (key, value, self._tx.now))


class BotStateReads:
    """Reads of the facts the bot keeps about itself (`store.bot_state`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def get(self, key: str) -> str | None:
        """The fact stored under `key` (None: none)."""
        rows = await self._read.fetch("SELECT value FROM bot_state WHERE key = ?", (key,))
        if not rows:
            return None
        value = rows[0][0]
        return utf8_or_none(bytes(value)) if isinstance(value, bytes | memoryview) else value
