"""The rules the CHECK constraints of `games`, `actions` and `deliveries` set still hold on
PostgreSQL now that they are domains (migration 37), and on SQLite as before: each bad value is
refused, nothing written."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from store.opening import open_store

GAME = ("INSERT INTO games (guild_id, channel_id, host_user_id, variant, options, seats_wanted, status,"
        " created_at, updated_at) VALUES (1, 2, 3, 'usa', '{}', 2, 'setup', 0, 0)")
BAD = (
    "UPDATE games SET status = 'paused'",
    "UPDATE games SET seats_wanted = 0",
    "UPDATE games SET max_away_days = -1",
    "INSERT INTO actions (game_id, seq, actor, action, events, created_at) SELECT id, -1, 0, '{}', '[]', 0 FROM games",
    "INSERT INTO deliveries (game_id, seq, kind, key, payload, status, due_at, created_at)"
    " SELECT id, 0, 'post', 'k', '{}', 'lost', 0, 0 FROM games",
)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("bad", BAD)
async def test_a_value_the_checks_forbid_is_refused_on_both_back_ends(other_database: Any, kind: str,
                                                                      bad: str) -> None:
    database = other_database(kind)
    async with await open_store(database.target):
        pass
    database.execute(GAME)
    refused: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    if database.is_postgres:
        import asyncpg
        refused = (asyncpg.CheckViolationError,)
    with pytest.raises(refused):
        database.execute(bad)
    assert database.fetchone("SELECT status, seats_wanted, max_away_days FROM games") == ("setup", 2, 7)
    assert database.fetchone("SELECT count(*) FROM actions") == (0,)
    assert database.fetchone("SELECT count(*) FROM deliveries") == (0,)
