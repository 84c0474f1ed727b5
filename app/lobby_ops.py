"""Tables before the game: opening, joining, leaving, computer players, starting.

A table belongs to the server and channel it was opened in. Opening one is capped per user and
per server (app.limits). Starting deals the game: the seed is drawn with `secrets`, and the
deal, the first snapshot and everything the start owes the players (the first post, each
player's hand, the turn timers) are one transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from ai.levels import AI_LEVELS, OFFERED_LEVELS
from app import records
from app.availability import seat_infos
from app.core import ServiceCore
from app.errors import GameNotFound, LimitReached, LobbyError, StaleAction
from app.loaded import Loaded, seat_of_row
from app.models import Lobby, Seat, SubmitResult
from app.player_clock import MOST_AWAY_DAYS
from app.tutorial_moves import tutorial_opening
from engine.game import actors, new_game
from engine.rulesets import build_ruleset
from engine.state import canonical_json
from store import GameRow, Tx, WriteConflict

log = logging.getLogger("app.service")

# The start of a game is entry 0 of its log; this is its action.
START_ACTION = canonical_json({"type": "start"})


class LobbyOps:
    """Opening and filling tables, and starting games."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        # When each user last opened a table (the cooldown). Bounded; losing it in a restart
        # only forgives one cooldown.
        self._last_lobby: OrderedDict[int, float] = OrderedDict()
        # Opening a lobby is checked-then-written; this makes a double click see the first one.
        self._create_lock = asyncio.Lock()

    async def create_lobby(self, guild_id: int, channel_id: int, host_user_id: int, host_name: str, variant: str,
                           options: Mapping[str, Any] | None = None, seats_wanted: int = 4,
                           turn_hours: float | None = None, host_plays: bool = True,
                           max_away_days: float = 7.0) -> Lobby:
        """Open a table for `seats_wanted` players. A host has at most one open lobby per
        channel: asking again (a double click) returns that lobby with `changed=False`. The
        variant, options and table size are checked now (the engine's IllegalAction), so a
        table that could never start is not created. The bot's tables let the mover take back
        a move that revealed nothing (the engine's "undo" option) unless the options say not.
        `max_away_days`: the longest vacation a player's clock stops for at this table (0: none)."""
        options = {"undo": True, **dict(options or {})}
        build_ruleset(variant, seats_wanted, options)  # IllegalAction: unknown variant, option or table size
        stand_in = options.get("stand_in_level")
        if stand_in is not None and stand_in not in AI_LEVELS:
            raise LobbyError(f"There is no AI level “{str(stand_in)[:20]}” to stand in for absent players; choose one "
                             f"of {', '.join(OFFERED_LEVELS)}.", "bad_ai_level")
        if turn_hours is not None and turn_hours <= 0:
            raise LobbyError("A turn limit must be a positive number of hours.", "bad_turn_limit")
        if not 0 <= max_away_days <= MOST_AWAY_DAYS:
            raise LobbyError(f"A table allows vacations of 0 to {MOST_AWAY_DAYS} days.", "bad_away_days")
        async with self._create_lock:
            existing = await self.store.games.open_lobby_of(guild_id, channel_id, host_user_id)
            if existing is not None:
                return await self._lobby(existing.id, changed=False)
            await self._check_new_table(guild_id, host_user_id, host_plays)
            tx = self.store.tx()
            index = tx.games.create(guild_id=guild_id, channel_id=channel_id, host_user_id=host_user_id,
                                    variant=variant, options_json=canonical_json(options), seats_wanted=seats_wanted,
                                    turn_hours=turn_hours, max_away_days=max_away_days)
            if host_plays:
                tx.games.join_lobby(None, user_id=host_user_id, is_ai=False, ai_level=None, name=host_name,
                                    seats_wanted=seats_wanted)
            try:
                done = await self.store.write(tx)
            except WriteConflict:
                # Another process opened it first (one open lobby per host and channel).
                existing = await self.store.games.open_lobby_of(guild_id, channel_id, host_user_id)
                if existing is None:
                    raise
                return await self._lobby(existing.id, changed=False)
        game_id = done.lastrowids[index]
        assert game_id is not None
        self._last_lobby[host_user_id] = self.core.clock()
        self._last_lobby.move_to_end(host_user_id)
        while len(self._last_lobby) > 10_000:
            self._last_lobby.popitem(last=False)
        log.info("game %d: lobby opened (%s, %d seats)", game_id, variant, seats_wanted)
        return await self._lobby(game_id)

    async def lobby(self, game_id: int) -> Lobby:
        """A table and who sits at it."""
        return await self._lobby(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        """Take a seat. Joining again is harmless (`changed=False`)."""
        async with self.core.lock(game_id):
            row = await self._lobby_row(game_id)
            players = await self.store.games.players(game_id)
            if any(p.user_id == user_id for p in players):
                return await self._lobby(game_id, changed=False)
            if len(players) >= row.seats_wanted:
                raise LobbyError("This table is full.", "lobby_full")
            counts = await self.store.games.table_counts(row.guild_id, user_id)
            if counts.user_games >= self.core.limits.games_per_user:
                raise LimitReached(f"You already sit at {counts.user_games} tables and games, the most one "
                                   "player may; finish or leave one first.")
            tx = self.store.tx()
            tx.games.join_lobby(game_id, user_id=user_id, is_ai=False, ai_level=None, name=name,
                                seats_wanted=row.seats_wanted)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def leave(self, game_id: int, user_id: int) -> Lobby:
        """Give up a seat before the start. Leaving twice is harmless. When the host leaves,
        the table closes (status "cancelled")."""
        async with self.core.lock(game_id):
            row = await self.store.games.get(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.status == "cancelled":
                return await self._lobby(game_id, changed=False)
            if row.status != "lobby":
                raise LobbyError("The game has started; you can no longer leave the table.", "already_started")
            if user_id == row.host_user_id:
                tx = self.store.tx()
                tx.games.set_status(game_id, "lobby", "cancelled")
                tx.timers.cancel(game_id)
                await self._write_lobby(game_id, tx)
                return await self._lobby(game_id)
            mine = [p for p in await self.store.games.players(game_id) if p.user_id == user_id]
            if not mine:
                return await self._lobby(game_id, changed=False)
            tx = self.store.tx()
            tx.games.leave_lobby(game_id, mine[0].seat)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def cancel_lobby(self, game_id: int, by_user_id: int) -> Lobby:
        """Close a table before its start (host only). Cancelling twice is harmless."""
        async with self.core.lock(game_id):
            row = await self.store.games.get(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can close this table.", "not_host")
            if row.status == "cancelled":
                return await self._lobby(game_id, changed=False)
            if row.status != "lobby":
                raise LobbyError("The game has already started.", "already_started")
            tx = self.store.tx()
            tx.games.set_status(game_id, "lobby", "cancelled")
            tx.timers.cancel(game_id)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def add_ai(self, game_id: int, by_user_id: int, level: str, expected_seats: int) -> Lobby:
        """Seat a computer player (host only). `expected_seats` is how many seats the host saw
        taken: if that changed (a double click already added one), nothing is added and
        StaleAction says so."""
        if level not in AI_LEVELS:
            raise LobbyError(f"There is no AI level “{level[:20]}”; choose one of {', '.join(OFFERED_LEVELS)}.",
                             "bad_ai_level")
        async with self.core.lock(game_id):
            row = await self._lobby_row(game_id)
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can add computer players.", "not_host")
            players = await self.store.games.players(game_id)
            if len(players) != expected_seats:
                raise StaleAction(game_id, None, "That already happened: the table has changed since you saw it.")
            if len(players) >= row.seats_wanted:
                raise LobbyError("This table is full.", "lobby_full")
            taken = {p.name for p in players}
            number = sum(1 for p in players if p.is_ai) + 1
            name = f"Bot {number}"
            while name in taken:
                number += 1
                name = f"Bot {number}"
            tx = self.store.tx()
            tx.games.join_lobby(game_id, user_id=None, is_ai=True, ai_level=level, name=name,
                                seats_wanted=row.seats_wanted)
            await self._write_lobby(game_id, tx)
            return await self._lobby(game_id)

    async def start(self, game_id: int, by_user_id: int, *, seed: int | None = None) -> SubmitResult:
        """Deal the game (host only): draw a seed (`random_bits`), call the engine, and store
        the seats, the seed, entry 0 of the log, the first snapshot and what the start owes
        (the first post, each player's hand, the turn timers) in one transaction. The table's
        options go to the engine as they are (the host's first player among them: the
        engine's `first_player` option, so a replay deals the same game).
        Starting twice gives StaleAction; too few players gives IllegalAction; a chosen first
        seat nobody sits in, LobbyError. `seed`: deal from this seed instead (a tutorial's
        lesson, so its situations come up)."""
        async with self.core.lock(game_id):
            row = await self.store.games.get(game_id)
            if row is None:
                raise GameNotFound(game_id)
            if row.status == "cancelled":
                raise LobbyError("This table was closed.", "cancelled")
            if row.status != "lobby":
                raise StaleAction(game_id, row.seq, "That already happened: the game has already started.")
            if row.host_user_id != by_user_id:
                raise LobbyError("Only the host can start the game.", "not_host")
            counts = await self.store.games.table_counts(row.guild_id, by_user_id)
            if counts.server_games >= self.core.limits.games_per_server:
                raise LimitReached(f"This server already has {counts.server_games} games running, the most it "
                                   "may; wait until one ends.")
            players = await self.store.games.players(game_id)
            options = json.loads(row.options_json)
            first = options.get("first_player")
            if isinstance(first, int) and not isinstance(first, bool) and first >= len(players):
                raise LobbyError(f"Seat {first + 1} was chosen to play first, but only {len(players)} players sit at "
                                 f"the table; fill seat {first + 1} (Add AI) before you start.", "first_player_missing")
            if seed is None:
                seed = self.core.random_bits(63)  # SQLite integers are signed 64-bit
            names = [p.name for p in players]
            state, events = new_game(row.variant, len(players), seed, options, names=names)
            waiting = actors(state)
            seats = tuple(Seat(i, p.user_id, p.is_ai, p.ai_level, p.name) for i, p in enumerate(players))
            tx = self.store.tx()
            tx.games.start(game_id, seed=seed, rules_version=state.rules_version, status=state.status,
                           waiting_json=canonical_json(waiting), seats=players)
            tx.log.append(game_id, 0, actor=None, user_id=by_user_id, action_json=START_ACTION,
                          events_json=records.events_json(events))
            tx.log.put_snapshot(game_id, 0, rules_version=state.rules_version, state_json=state.to_canonical())
            started = Loaded(row, seats, state, 0, votes=False)  # no votes before the start
            self.core.owe(tx, started, 0, events, None, state, seats, infos=await seat_infos(self.store, seats,
                                                                                           row.max_away_days))
            for o in tutorial_opening(state):
                tx.deliveries.owe(game_id, 0, o.kind, o.key, user_id=o.user_id,
                                  payload_json=canonical_json(dict(o.payload)))
            try:
                await self.store.write(tx)
            except WriteConflict as exc:
                raise StaleAction(game_id, None, "That already happened: the game has already started.") from exc
            fresh = await self.store.games.get(game_id)
            assert fresh is not None
            started.row = fresh
            self.loader.remember(game_id, started)
            self.core.deliveries_waiting.set()
            self.core.timers_changed.set()
            log.info("game %d: started with %d players", game_id, len(players))
            return records.result(game_id, 0, None, state, events)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Record the Discord thread where the game is played. Idempotent."""
        async with self.core.lock(game_id):
            tx = self.store.tx()
            tx.games.set_thread(game_id, thread_id)
            try:
                await self.store.write(tx)
            except WriteConflict as exc:
                raise GameNotFound(game_id) from exc
            cached = self.loader.cached(game_id)
            if cached is not None:
                fresh = await self.store.games.get(game_id)
                if fresh is not None:
                    cached.row = fresh

    async def _lobby_row(self, game_id: int) -> GameRow:
        row = await self.store.games.get(game_id)
        if row is None:
            raise GameNotFound(game_id)
        if row.status == "cancelled":
            raise LobbyError("This table was closed.", "cancelled")
        if row.status != "lobby":
            raise LobbyError("The game has already started.", "already_started")
        return row

    async def _write_lobby(self, game_id: int, tx: Tx) -> None:
        try:
            await self.store.write(tx)
        except WriteConflict as exc:
            # Another process changed the table between our read and our write.
            raise StaleAction(game_id, None, "That already happened: the table has changed since you saw it.") from exc

    async def _check_new_table(self, guild_id: int, user_id: int, host_plays: bool) -> None:
        """Refuse a new table over the caps of app.limits, or too soon after the last one."""
        limits = self.core.limits
        last = self._last_lobby.get(user_id)
        if last is not None and self.core.clock() - last < limits.lobby_cooldown_seconds:
            wait = max(1, round(limits.lobby_cooldown_seconds - (self.core.clock() - last)))
            raise LimitReached(f"You opened a table a moment ago; wait {wait} s before opening another.")
        counts = await self.store.games.table_counts(guild_id, user_id)
        if counts.lobbies_hosted >= limits.lobbies_per_user:
            raise LimitReached(f"You already host {counts.lobbies_hosted} open tables, the most one player may; "
                               "start or cancel one first.")
        if counts.server_lobbies >= limits.lobbies_per_server:
            raise LimitReached(f"This server already has {counts.server_lobbies} open tables, the most it may; "
                               "start or cancel one first.")
        if host_plays and counts.user_games >= limits.games_per_user:
            raise LimitReached(f"You already sit at {counts.user_games} tables and games, the most one player "
                               "may; finish or leave one first.")

    async def _lobby(self, game_id: int, changed: bool = True) -> Lobby:
        row = await self.store.games.get(game_id)
        if row is None:
            raise GameNotFound(game_id)
        players = await self.store.games.players(game_id)
        try:
            options = json.loads(row.options_json)
        except ValueError:
            options = {}
        return Lobby(
            game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
            host_user_id=row.host_user_id, variant=row.variant, options=options, seats_wanted=row.seats_wanted,
            turn_hours=row.turn_hours, status=row.status, seats=tuple(seat_of_row(p) for p in players), changed=changed,
            max_away_days=row.max_away_days,
        )
