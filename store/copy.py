"""Copying the rows of one game store into another (SQLite → PostgreSQL, or back), table by
table, with their ids: a game keeps its number, so the buttons already posted in Discord keep
working, and a delivery keeps the nonce derived from its id.

Each game — its row, seats, log, snapshot, timers, results and outbox — is copied in one
transaction of the target; then the bot's own state and the players' settings.
`app/copying.py` checks the copy by loading every game on both sides; bot.py's `--copy-db`
runs it. Nothing here knows the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from store.errors import StoreError
from store.plans import PLAN_COLUMNS
from store.records import (
    ACTION_COLUMNS,
    DELIVERY_COLUMNS,
    GAME_COLUMNS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    SNAPSHOT_COLUMNS,
    TIMER_COLUMNS,
    decode_row,
)
from store.rematches import REMATCH_COLUMNS, REMATCH_VOTE_COLUMNS
from store.repository import Store
from store.seat_changes import SKIP_VOTE_COLUMNS
from store.user_settings import USER_SETTINGS_COLUMNS

# The tables of a game, in the order their rows can be written (the game row first), with the
# columns copied and the order they are read in. Claims (migration 5) are not copied: they
# belong to the processes of the source.
GAME_TABLES: tuple[tuple[str, str, str], ...] = (
    ("games", GAME_COLUMNS, "id"),
    ("players", PLAYER_COLUMNS, "seat"),
    ("actions", ACTION_COLUMNS, "seq"),
    ("snapshots", SNAPSHOT_COLUMNS, "seq"),
    ("timers", TIMER_COLUMNS, "id"),
    ("results", RESULT_COLUMNS, "seat"),
    ("deliveries", DELIVERY_COLUMNS, "id"),
    ("skip_votes", SKIP_VOTE_COLUMNS, "seat, voter"),
    ("plans", PLAN_COLUMNS, "seat"),
    ("rematch_votes", REMATCH_VOTE_COLUMNS, "user_id"),
    ("rematches", REMATCH_COLUMNS, "game_id"),
)
BOT_STATE_COLUMNS = "key, value, changed_at"
# Every table that holds data of the bot (a target with rows in any of them is not empty).
# Each server's leaderboard (migration 9) and each user's DM channel (migration 12), copied
# whole after the games: table, columns, order.
SERVER_TABLES: tuple[tuple[str, str, str], ...] = (
    ("seasons", "guild_id, number, started_at, started_by", "guild_id, number"),
    ("guild_settings", "guild_id, rate_ai_games, updated_at", "guild_id"),
    ("dm_channels", "user_id, channel_id, updated_at", "user_id"),
)
DATA_TABLES = (*(t for t, _, _ in GAME_TABLES), "bot_state", "user_settings", *(t for t, _, _ in SERVER_TABLES))


class CopyRefused(StoreError):
    """The copy cannot be made as asked (a target that is not empty, data that cannot be read);
    nothing was written."""


@dataclass(frozen=True, slots=True)
class TableRows:
    """The rows of one table of one game, decoded."""

    table: str
    columns: str
    rows: tuple[tuple[object, ...], ...]


async def rows_in(store: Store) -> dict[str, int]:
    """How many rows each data table holds."""
    out = {}
    for table in DATA_TABLES:
        rows = await store.reader.fetch(f"SELECT count(*) FROM {table}")
        out[table] = int(rows[0][0])
    return out


async def game_rows(store: Store, game_id: int) -> list[TableRows]:
    """Every row of one game, table by table, decoded (text that is not UTF-8 is refused: a
    copy must not quietly turn it into "")."""
    out = []
    for table, columns, order in GAME_TABLES:
        key = "id" if table == "games" else "game_id"
        raw = await store.reader.fetch(f"SELECT {columns} FROM {table} WHERE {key} = ? ORDER BY {order}", (game_id,))
        names = tuple(c.strip() for c in columns.split(","))
        rows = []
        for row in raw:
            values, unreadable = decode_row(row, names)
            if unreadable:
                raise CopyRefused(
                    f"Game #{game_id} holds text that is not valid UTF-8 ({table}: {', '.join(unreadable)}), which "
                    "cannot be copied faithfully. Load it once with the bot (it will be set aside as broken), fix or "
                    "restore it, and copy again. Nothing was written."
                )
            rows.append(tuple(values))
        out.append(TableRows(table, columns, tuple(rows)))
    return out


async def bot_state_rows(store: Store) -> tuple[tuple[object, ...], ...]:
    raw = await store.reader.fetch(f"SELECT {BOT_STATE_COLUMNS} FROM bot_state ORDER BY key")
    return tuple(tuple(decode_row(r, ("key", "value", "changed_at"))[0]) for r in raw)


async def write_game(target: Store, tables: list[TableRows]) -> None:
    """Write one game's rows, ids and all, in one transaction of `target`."""
    tx = target.tx()
    for t in tables:
        marks = ", ".join("?" for _ in t.columns.split(","))
        for row in t.rows:
            tx.add(f"INSERT INTO {t.table} ({t.columns}) VALUES ({marks})", row)
    await target.write(tx)


async def write_bot_state(target: Store, rows: tuple[tuple[object, ...], ...]) -> None:
    tx = target.tx()
    for row in rows:
        tx.add(f"INSERT INTO bot_state ({BOT_STATE_COLUMNS}) VALUES (?, ?, ?)", row)
    await target.write(tx)


async def user_settings_rows(store: Store) -> tuple[tuple[object, ...], ...]:
    """Every user's preferences (migration 7), by user."""
    raw = await store.reader.fetch(f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings ORDER BY user_id")
    names = tuple(c.strip() for c in USER_SETTINGS_COLUMNS.split(","))
    return tuple(tuple(decode_row(r, names)[0]) for r in raw)


async def write_user_settings(target: Store, rows: tuple[tuple[object, ...], ...]) -> None:
    tx = target.tx()
    marks = ", ".join("?" for _ in USER_SETTINGS_COLUMNS.split(","))
    for row in rows:
        tx.add(f"INSERT INTO user_settings ({USER_SETTINGS_COLUMNS}) VALUES ({marks})", row)
    await target.write(tx)


async def server_rows(store: Store) -> list[TableRows]:
    """Every server's leaderboard rows (seasons, guild_settings), table by table, decoded."""
    out = []
    for table, columns, order in SERVER_TABLES:
        raw = await store.reader.fetch(f"SELECT {columns} FROM {table} ORDER BY {order}")
        names = tuple(c.strip() for c in columns.split(","))
        out.append(TableRows(table, columns, tuple(tuple(decode_row(r, names)[0]) for r in raw)))
    return out


async def write_server_rows(target: Store, tables: list[TableRows]) -> None:
    """Write the servers' leaderboard rows in one transaction of `target`."""
    await write_game(target, tables)
