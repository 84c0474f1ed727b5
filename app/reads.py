"""Reading games: what a player or anyone may see, the lists of games, results and backups.

Every read of a game's state goes through the engine's `view`, which shows a player their own
hand and tickets and everyone else only what is public — never the deck order or the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from app import records
from app.core import ACTIVE, OPEN, ServiceCore
from app.errors import GameNotFound, OtherServer
from app.models import GameSummary, LogEntry, Panel, PlayerStats
from engine.actions import Action
from engine.events import Event
from engine.game import legal_actions as legal_for
from engine.game import view as view_for
from engine.view import View
from store import ResultRow


class ReadOps:
    """Reading games and results."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def seat_of(self, game_id: int, user_id: int) -> int | None:
        """The seat of `user_id` in the game, or None."""
        for p in await self.store.games.players(game_id):
            if p.user_id == user_id:
                return p.seat
        return None

    async def view(self, game_id: int, user_id: int | None = None) -> View:
        """The game as `user_id` may see it: their own hand and tickets if they play, else
        only what anyone may see. Also carries "seq" for the next move's `expected_seq`."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = records.seat_of(loaded.seats, user_id)
            return view_for(loaded.state, seat).at(loaded.seq, game_id)

    async def legal_actions(self, game_id: int, user_id: int) -> list[Action]:
        """What `user_id` may do now (empty when it is not their turn or they do not play)."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = records.seat_of(loaded.seats, user_id)
            return [] if seat is None else legal_for(loaded.state, seat)

    async def recent_log(self, game_id: int, limit: int = 20, user_id: int | None = None) -> list[LogEntry]:
        """The last `limit` entries of the game's log with the events `user_id` may see: the
        public ones, plus their own private ones. Never anyone else's."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)  # checks the whole log can be read
            seat = records.seat_of(loaded.seats, user_id)
            rows = await self.store.log.recent_actions(game_id, limit)
        entries = []
        for r in rows:
            events = tuple(e for e in (Event.from_json(d) for d in json.loads(r.events_json)) if e.visible_to(seat))
            entries.append(LogEntry(r.seq, r.actor, r.created_at, events))
        return entries

    async def panel(self, game_id: int, user_id: int | None) -> Panel:
        """Everything a turn panel needs, in one read: the game, the caller's seat, their view
        (their own hand; public only for a non-player), the public view, and what they may do
        now (empty unless it is their turn)."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = records.seat_of(loaded.seats, user_id)
            mine = view_for(loaded.state, seat).at(loaded.seq, game_id)
            public = mine if seat is None else view_for(loaded.state, None).at(loaded.seq, game_id)
            legal = tuple(legal_for(loaded.state, seat)) if seat is not None else ()
            return Panel(records.summary_of(loaded, user_id), seat, mine, public, legal)

    async def game(self, game_id: int, user_id: int | None = None) -> GameSummary:
        """One game's summary (works for lobbies and broken games too)."""
        row = await self.store.games.get(game_id)
        if row is None:
            raise GameNotFound(game_id)
        players = await self.store.games.players(game_id)
        return records.summary(row, players, user_id)

    async def game_for(self, game_id: int, *, guild_id: int | None, user_id: int) -> GameSummary:
        """The game, if `user_id` may reach it from where they ask: from a server, only that
        server's games; from a direct message (`guild_id` None), only games they sit at.
        Otherwise OtherServer, whose words do not tell whether the game exists."""
        summary = await self.game(game_id, user_id)
        if guild_id is None:
            if summary.your_seat is None:
                raise OtherServer(game_id)
        elif summary.guild_id != guild_id:
            raise OtherServer(game_id)
        return summary

    async def games_of(self, user_id: int, guild_id: int | None = None, include_finished: bool = False
                       ) -> list[GameSummary]:
        """The games `user_id` sits in (lobbies and running ones; finished and broken ones too
        with `include_finished`), most recently active first, each with whom it waits for."""
        statuses = OPEN + (("over", "broken") if include_finished else ())
        pairs = await self.store.games.seats_of_user(user_id, statuses, guild_id)
        players = await self.store.games.players_of(row.id for row, _ in pairs)
        return [records.summary(row, players[row.id], user_id) for row, _ in pairs]

    async def games_waiting_for_bots(self, serves: Callable[[int], bool] | None = None) -> list[int]:
        """Games whose turn is a seat the bot plays (after a restart, those move on); with
        `serves`, only those of the servers (guild ids) it says yes to."""
        return [game_id for game_id, guild_id in await self.store.games.waiting_for_bots()
                if serves is None or serves(guild_id)]

    async def active_game_ids(self, serves: Callable[[int], bool] | None = None) -> list[int]:
        """Every game being played; with `serves`, only those of the servers (guild ids) it
        says yes to."""
        if serves is None:
            return await self.store.games.ids(ACTIVE)
        return [game_id for game_id, guild_id in await self.store.games.guilds(ACTIVE) if serves(guild_id)]

    async def bot_state(self, key: str) -> str | None:
        """A fact the bot keeps about itself (see `set_bot_state`)."""
        return await self.store.bot_state.get(key)

    async def set_bot_state(self, key: str, value: str) -> None:
        tx = self.store.tx()
        tx.bot_state.set(key, value)
        await self.store.write(tx)

    async def results(self, game_id: int) -> list[ResultRow]:
        """The final results of a finished game, one row per seat."""
        return await self.store.results.of_game(game_id)

    async def player_stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's record over their finished games (in one server, or everywhere)."""
        rows = await self.store.results.of_user(user_id, guild_id, limit=1_000_000)
        scores = [r.score for r in rows]
        return PlayerStats(
            user_id=user_id,
            games=len(rows),
            wins=sum(1 for r in rows if r.won),
            average_score=sum(scores) / len(scores) if scores else 0.0,
            best_score=max(scores) if scores else None,
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows),
        )

    async def backup(self, dest: str | Path) -> Path:
        """Copy the live database to `dest` (SQLite's online backup)."""
        return await self.store.backup(dest)
