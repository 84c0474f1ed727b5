"""How much one user or one server may open at once, so that nobody can flood the bot.

The numbers are settings (environment variables, see `bot_app.config`); the defaults are far
above what friends playing slow games need, and far below what would hurt the bot."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps checked by the service before a table is opened, joined or started."""

    lobbies_per_user: int = 3  # open tables a user hosts at once
    lobbies_per_server: int = 25  # open tables in one server at once
    games_per_user: int = 30  # tables and running games a user sits at
    games_per_server: int = 500  # running games in one server
    lobby_cooldown_seconds: float = 10.0  # between two new tables by one user

    @classmethod
    def unlimited(cls) -> Limits:
        """No caps (for tests and benchmarks that open many tables quickly)."""
        big = 10**9
        return cls(big, big, big, big, 0.0)
