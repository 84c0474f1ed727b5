"""The game service: the only way the Discord layer changes or reads a game.

It joins the pure engine (rules) and the store (SQLite). Its parts, one module each:

- `app.base`: construction, per-game locks, and the commit — a move, and everything it owes
  the players (app.owed), in one transaction;
- `app.lobby_ops`: tables before the game, and the start;
- `app.moves`: a person's move, and the bot's for computer seats and absent players;
- `app.clocks`: turn timers (by each player's own clock), pause and resume, kick, coming back,
  the daily digests;
- `app.seat_ops`: a seat handed to a substitute, the other players' vote to skip a turn;
- `app.delivery_ops`: the delivery outbox, as the dispatcher sees it;
- `app.reads`: views, lists, logs, results, backups;
- `app.replays`: a finished game's public timeline, for its replay;
- `app.player_records`: a player's record on a server, as `/ttr results stats` shows it;
- `app.settings_ops`: each player's own preferences (pictures, time zone and quiet hours,
  vacation, daily digest);
- `app.plan_ops`: each player's planned moves (run when their turn arrives: app.plan_runs);
- `app.rematch_ops`: a finished game's rematch (every human player presses Rematch);
- `app.standings`: leaderboards, seasons and player cards (ratings: app.ratings);
- `app.tutorial_ops`: guided first games (`/ttr rules lesson:`; lessons: app.tutorial) and hints.

Create it with `await GameService.open(path)` and close it with `close()`.
"""

from __future__ import annotations

from app.clocks import ClockOps
from app.delivery_ops import DeliveryOps
from app.lobby_ops import LobbyOps
from app.plan_ops import PlanOps
from app.player_records import PlayerRecordOps
from app.reads import ReadOps
from app.rematch_ops import RematchOps
from app.replays import ReplayOps
from app.seat_ops import SeatOps
from app.settings_ops import SettingsOps
from app.standings import StandingsOps
from app.tutorial_ops import TutorialOps


class GameService(LobbyOps, SeatOps, ClockOps, DeliveryOps, ReadOps, ReplayOps, PlayerRecordOps, SettingsOps,
                  StandingsOps, PlanOps, RematchOps, TutorialOps):
    """The application service (see the module's docstring for its parts)."""
