"""Configuration from the environment (and an optional `.env` file beside bot.py)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from app.limits import Limits
from app.loader import CACHE_MB, games_for_memory

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = ROOT / "data" / "ttr.sqlite3"


def load_dotenv(path: Path, environ: dict[str, str] | None = None) -> int:
    """Read KEY=VALUE lines (comments, blank lines, `export ` and quotes allowed) into the
    environment without overriding what is already set. Returns how many keys it set.

    The parsing is python-dotenv's, without `${VAR}` expansion: a value (a token) is taken
    as written. A line without `=` sets nothing."""
    env = os.environ if environ is None else environ
    if not path.is_file():
        return 0
    count = 0
    for key, value in dotenv_values(path, interpolate=False, encoding="utf-8").items():
        if value is not None and key not in env:
            env[key] = value
            count += 1
    return count


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None
    database: Path | str  # an SQLite file, or a postgresql:// URL (kept as text)
    guild_id: int | None
    log_level: str
    default_turn_hours: float = 48.0
    limits: Limits = Limits()
    # Discord shards this process serves (TTR_SHARD_IDS), of TTR_SHARD_COUNT; None: not sharded, or
    # (with a count) the shards are taken from the pool: bot_app/adapter/shards.py.
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    # The memory the cache of loaded games may use (TTR_GAME_CACHE_MB), in MB.
    game_cache_mb: float = CACHE_MB
    # How long a named shard another process holds is waited for before the start is refused
    # (TTR_SHARD_WAIT, seconds; a restarted process's old self may still be dying).
    shard_wait: float = 15.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        raw_database = (env.get("TTR_DATABASE") or "").strip()
        database: Path | str = (raw_database if raw_database.startswith(("postgresql://", "postgres://"))
                                else Path(raw_database or DEFAULT_DATABASE))
        guild_raw = (env.get("GUILD_ID") or "").strip()
        if guild_raw and not _digits(guild_raw):
            raise ValueError(f"GUILD_ID must be a server id (digits), not {guild_raw!r}")
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        hours_raw = (env.get("TTR_TURN_HOURS") or "48").strip()
        try:
            hours = float(hours_raw)
        except ValueError:
            raise ValueError(f"TTR_TURN_HOURS must be a number, not {hours_raw!r}") from None
        shard_ids, shard_count = _shards(env, database)
        cache_raw = (env.get("TTR_GAME_CACHE_MB") or "").strip()
        try:
            cache_mb = float(cache_raw) if cache_raw else CACHE_MB
        except ValueError:
            raise ValueError(f"TTR_GAME_CACHE_MB must be a number, not {cache_raw[:20]!r}") from None
        if not 0 < cache_mb <= 1_000_000:
            raise ValueError(f"TTR_GAME_CACHE_MB must be a number of megabytes above 0, not {cache_raw[:20]!r}")
        wait_raw = (env.get("TTR_SHARD_WAIT") or "15").strip()
        try:
            shard_wait = float(wait_raw)
        except ValueError:
            shard_wait = -1.0
        if not 0 <= shard_wait <= 600:
            raise ValueError(f"TTR_SHARD_WAIT must be a number of seconds from 0 to 600, not {wait_raw[:20]!r}")
        return cls(token, database, int(guild_raw) if guild_raw else None, level, hours, _limits(env),
                   shard_ids, shard_count, cache_mb, shard_wait)

    @property
    def cache_games(self) -> int:
        """The games the service keeps loaded: as many as fit in `game_cache_mb`."""
        return games_for_memory(self.game_cache_mb)

    def serves(self, guild_id: int) -> bool:
        """Whether this process serves the server `guild_id` (Discord's shard formula)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit also accepts "²", which int() refuses."""
    return text.isascii() and text.isdigit()


def _shards(env: Mapping[str, str], database: Path | str) -> tuple[tuple[int, ...] | None, int | None]:
    """TTR_SHARD_IDS ("0,1" or "0-3") and TTR_SHARD_COUNT. Only some of the shards in this
    process means other processes serve the rest, on one database: that must be PostgreSQL."""
    ids_raw = (env.get("TTR_SHARD_IDS") or "").strip()
    count_raw = (env.get("TTR_SHARD_COUNT") or "").strip()
    if not ids_raw and not count_raw:
        return None, None
    if not _digits(count_raw) or int(count_raw) < 1:
        raise ValueError(f"TTR_SHARD_COUNT must be the number of shards (1 or more), not {count_raw[:20]!r}"
                         + (" (TTR_SHARD_IDS needs it)" if not count_raw else ""))
    count = int(count_raw)
    if not ids_raw:  # the shards are taken from the pool (bot_app/adapter/shards.py): every one with one process
        return None, count
    ids: list[int] = []
    for part in ids_raw.split(","):
        first, dash, last = part.strip().partition("-")
        if not _digits(first) or (dash and not _digits(last)):
            raise ValueError(f"TTR_SHARD_IDS must be shard numbers like 0,1 or 0-3, not {ids_raw[:40]!r}")
        ids.extend(range(int(first), int(last if dash else first) + 1))
    if not ids or any(i >= count for i in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"TTR_SHARD_IDS ({ids_raw[:40]}) must name different shards below TTR_SHARD_COUNT ({count})")
    if len(ids) < count and not isinstance(database, str):
        raise ValueError(
            f"TTR_SHARD_IDS ({ids_raw[:40]}) leaves the other shards to other processes, which must share the "
            "database: set TTR_DATABASE to a postgresql:// URL (SQLite serves one process; docs/scaling.md)")
    return tuple(sorted(ids)), count


# Environment variables for the caps of app.limits, and the field each sets.
LIMIT_VARIABLES = {
    "TTR_MAX_LOBBIES_PER_USER": "lobbies_per_user",
    "TTR_MAX_LOBBIES_PER_SERVER": "lobbies_per_server",
    "TTR_MAX_GAMES_PER_USER": "games_per_user",
    "TTR_MAX_GAMES_PER_SERVER": "games_per_server",
    "TTR_LOBBY_COOLDOWN_SECONDS": "lobby_cooldown_seconds",
}


def _limits(env: Mapping[str, str]) -> Limits:
    values: dict[str, Any] = {}
    for variable, field_name in LIMIT_VARIABLES.items():
        raw = (env.get(variable) or "").strip()
        if not raw:
            continue
        try:
            number = float(raw) if field_name == "lobby_cooldown_seconds" else int(raw)
        except ValueError:
            raise ValueError(f"{variable} must be a number, not {raw[:20]!r}") from None
        if number < 0:
            raise ValueError(f"{variable} must be 0 or more, not {raw[:20]!r}")
        values[field_name] = number
    return replace(Limits(), **values)


NO_TOKEN_HELP = """\
No DISCORD_TOKEN is set, so the bot cannot log in to Discord.

To get one: open https://discord.com/developers/applications, create an application, open
"Bot", press "Reset Token" and copy it. Then either
    export DISCORD_TOKEN=...            (or put DISCORD_TOKEN=... in a .env file here)
    .venv/bin/python bot.py
The README ("Running the bot on your server") lists the scopes and permissions to invite it with.

Without a token you can still watch a whole game played by the computer:
    .venv/bin/python bot.py --demo --variant europe --players 4
"""
