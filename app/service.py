"""The game service: the only way the Discord layer changes or reads a game.

It joins the pure engine (rules) and the store (SQLite). Its parts, one module each:

- `app.base`: construction, per-game locks, and the commit — a move, and everything it owes
  the players (app.owed), in one transaction;
- `app.lobby_ops`: tables before the game, and the start;
- `app.moves`: a person's move, and the bot's for computer seats and absent players;
- `app.clocks`: turn timers, pause and resume, kick, coming back;
- `app.delivery_ops`: the delivery outbox, as the dispatcher sees it;
- `app.reads`: views, lists, logs, results, backups;
- `app.settings_ops`: each player's own preferences.

Create it with `await GameService.open(path)` and close it with `close()`.
"""

from __future__ import annotations

from app.clocks import ClockOps
from app.delivery_ops import DeliveryOps
from app.lobby_ops import LobbyOps
from app.reads import ReadOps
from app.settings_ops import SettingsOps


class GameService(LobbyOps, ClockOps, DeliveryOps, ReadOps, SettingsOps):
    """The application service (see the module's docstring for its parts)."""
