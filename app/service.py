"""The game service: the only way the Discord layer changes or reads a game.

It joins the pure engine (rules) and the store (SQLite or PostgreSQL). It is one core and the
parts around it, each part a plain class holding the core (composition: no part inherits from
another or reaches into another's privates; a part that needs another's behaviour is handed
that part when it is built):

- `app.core`, the core: the store, the clock, the loaded-game cache, per-game locks, and the
  commit — a move, and everything it owes the players (app.owed), in one transaction;
- `tables` (app.lobby_ops): tables before the game, and the start;
- `moves` (app.moves): a person's move, and the bot's for computer seats and absent players;
- `clocks` (app.clocks): turn timers (by each player's own clock), pause and resume, kick,
  coming back, the daily digests;
- `seats` (app.seat_ops): a seat handed to a substitute, the other players' vote to skip a turn;
- `outbox` (app.delivery_ops): the delivery outbox, as the dispatcher sees it;
- `reads` (app.reads): views, lists, logs, results, backups;
- `replays` (app.replays): a finished game's public timeline, for its replay;
- `records` (app.player_records): a player's record on a server, as `/ttr results stats` shows it;
- `settings` (app.settings_ops): each player's own preferences (pictures, time zone and quiet
  hours, vacation, daily digest);
- `plans` (app.plan_ops): each player's planned moves (run when their turn arrives: app.plan_runs);
- `rematch` (app.rematch_ops): a finished game's rematch (every human player presses Rematch);
- `standings` (app.standings): leaderboards, seasons and player cards (ratings: app.ratings);
- `tutorial` (app.tutorial_ops): guided first games (`/ttr rules lesson:`; lessons: app.tutorial)
  and hints.

Create it with `await GameService.open(path)` and close it with `close()`; call a part by name:
`await service.moves.submit(...)`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from app.clocks import ClockOps
from app.core import ServiceCore
from app.delivery_ops import DeliveryOps
from app.limits import Limits
from app.loader import GameLoader
from app.lobby_ops import LobbyOps
from app.moves import MoveOps
from app.plan_ops import PlanOps
from app.player_records import PlayerRecordOps
from app.reads import ReadOps
from app.rematch_ops import RematchOps
from app.replays import ReplayOps
from app.seat_ops import SeatOps
from app.settings_ops import SettingsOps
from app.standings import StandingsOps
from app.tutorial_ops import TutorialOps
from store import Store
from store.opening import open_store


class GameService:
    """The application service: the core and its parts (see the module's docstring)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] | None = None, cache_size: int | None = None,
                 limits: Limits | None = None, random_bits: Callable[[int], int] = secrets.randbits) -> None:
        """`cache_size`: the games kept loaded (default: as many as fit in the cache's memory,
        app.loader.CACHE_MB). `random_bits`: where deals and the AIs' choices get their
        randomness (a seeded generator in the offline demo)."""
        self.core = core = ServiceCore(store, clock=clock, cache_size=cache_size, limits=limits,
                                       random_bits=random_bits)
        self.tables = LobbyOps(core)
        self.moves = MoveOps(core)
        self.clocks = ClockOps(core, self.moves)
        self.seats = SeatOps(core, self.moves, self.clocks)
        self.outbox = DeliveryOps(core)
        self.reads = ReadOps(core)
        self.replays = ReplayOps(core)
        self.standings = StandingsOps(core)
        self.records = PlayerRecordOps(core, self.standings)
        self.settings = SettingsOps(core)
        self.plans = PlanOps(core)
        self.rematch = RematchOps(core)
        self.tutorial = TutorialOps(core, self.tables)

    @classmethod
    async def open(cls, path: str | Path | None = None, *, clock: Callable[[], float] = time.time,
                   cache_size: int | None = None, limits: Limits | None = None,
                   random_bits: Callable[[int], int] = secrets.randbits) -> GameService:
        """Open the store at `path` — an SQLite file, or a `postgresql://` URL (default:
        $TTR_DATABASE, else data/ttr.sqlite3) — migrating it, and a service on it."""
        return cls(await open_store(path, clock=clock), clock=clock, cache_size=cache_size, limits=limits,
                   random_bits=random_bits)

    async def close(self) -> None:
        """Stop the background checks, finish the queued writes and close the database."""
        await self.core.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # The core's shared things the bot's loops and the tests read.

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def loader(self) -> GameLoader:
        return self.core.loader

    @property
    def deliveries_waiting(self) -> asyncio.Event:
        """Set whenever a commit stored deliveries: the dispatcher waits on it."""
        return self.core.deliveries_waiting

    @property
    def timers_changed(self) -> asyncio.Event:
        """Set whenever timers were scheduled: the timer loop waits on it."""
        return self.core.timers_changed

    @property
    def owner(self) -> str:
        """This process's name in the claims it makes (several processes on PostgreSQL)."""
        return self.core.owner

    @property
    def cache_size(self) -> int:
        return self.core.loader.cache_size

    @property
    def cached_games(self) -> int:
        return self.core.loader.cached_games
