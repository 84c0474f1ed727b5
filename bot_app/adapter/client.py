"""The discord.py bot: the `/ttr` command group filled by the cogs (loaded as extensions), one
DynamicItem per button family, the dispatcher that delivers what moves owe, and the timer
loop. Intents: guilds only (no privileged intents).

`make_bot` gives a `TtrBot` (a `commands.Bot`), or, with shards configured (TTR_SHARD_IDS,
TTR_SHARD_COUNT), a `ShardedTtrBot` (an `AutoShardedBot` running those shards): several such
processes on one PostgreSQL database each serve their shards' servers (docs/scaling.md)."""

from __future__ import annotations

import ast
import asyncio
import gc
import importlib.util
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from app import GameService, ServiceError
from bot_app.adapter.desk import Desk
from bot_app.adapter.invalid_requests import InvalidRequests, count_invalid_requests, shared_count
from bot_app.adapter.rate_share import share_global_limit
from bot_app.adapter.tree import ENDS_VACATION, TtrTree, sync_commands
from bot_app.delivery.dispatcher import Dispatcher
from bot_app.delivery.timers import TimerLoop, pause_after_errors
from bot_app.lang.translator import CatalogueTranslator
from bot_app.presentation.render_hooks import Renderer

log = logging.getLogger(__name__)

# The package whose every module with a `setup` is loaded as an extension (a cog).
COGS = "cogs"
# At a stop (Ctrl-C, SIGTERM), how long the commands being answered may take to finish.
SETTLE_SECONDS = 10.0
# After READY, discord.py waits until no GUILD_CREATE has come for this long before it is ready
# (its `guild_ready_timeout`; 2 s by default, made for bots that then chunk every server's
# members). The wait restarts at each server, so it bounds the gap between two of them, not
# their total: Discord sends them back to back, however many servers a shard has. This bot asks
# for no members, and nothing in it waits for the server cache (posts go to channels by id), so
# a server that comes after ready is simply there then. 2 s of every start-up are saved.
GUILD_READY_SECONDS = 0.5


class TtrBot(commands.Bot):
    def __init__(self, service: GameService, *, guild_id: int | None = None, renderer: Renderer | None = None,
                 clock: Callable[[], float] = time.time, default_turn_hours: float = 48.0,
                 run_timers: bool = True, sync_commands: bool = True, force_sync: bool = False,
                 **kwargs: object) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; nothing privileged
        kwargs.setdefault("guild_ready_timeout", GUILD_READY_SECONDS)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=TtrTree,
                         help_command=None, **kwargs)  # type: ignore[arg-type]  # discord.py's **options
        self.service = service
        self.guild_id = guild_id
        self.sync_commands = sync_commands
        self.force_sync = force_sync
        # The one /ttr group; each cog adds its commands to it when it loads.
        self.ttr = app_commands.Group(name="ttr", description="Ticket to Ride")
        self.desk = Desk(service, self, renderer=renderer, clock=clock, default_turn_hours=default_turn_hours)
        if service.store.shared:  # several processes: one budget of Discord's global limit
            share_global_limit(self, service.store.rate_slot)
        # Outermost, so that it sees what discord.py finally answers (bot_app/adapter/invalid_requests.py).
        self.invalid_requests = InvalidRequests(shared=shared_count(service.store))  # the whole bot's, on PostgreSQL
        count_invalid_requests(self, self.invalid_requests)
        self.dispatcher = Dispatcher(self.desk, clock)
        self.desk.dispatcher = self.dispatcher
        self.timer_loop = TimerLoop(service, clock)
        self.run_timers = run_timers
        self._tasks: list[asyncio.Task[None]] = []
        self._resumed = False

    async def load_commands(self) -> None:
        """The /ttr group with every cog's commands, and their button families."""
        self.tree.add_command(self.ttr)
        for module in cog_modules():
            await self.load_extension(module)

    def serves(self, guild_id: int) -> bool:
        """Whether this process serves the server `guild_id` (all of them, unless sharded)."""
        return True

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Any game command or button of ours: a player on vacation is back (their clocks run
        again). Runs beside the command itself, counted as a handler."""
        if not is_game_command(interaction, self.ttr):
            return
        with self.desk.handling():
            try:
                await self.service.settings.end_away(interaction.user.id)
            except Exception:
                log.exception("could not end a vacation")

    @property
    def syncs_commands(self) -> bool:
        """Whether this process sends the slash commands to Discord (with several processes,
        only the one that runs shard 0, so that they do not all sync at once)."""
        return True

    async def setup_hook(self) -> None:
        # Command names and descriptions in each user's language (docs/languages.md).
        await self.tree.set_translator(CatalogueTranslator())
        await self.load_commands()
        if self.sync_commands and self.syncs_commands:
            await sync_commands(self, force=self.force_sync)
        self._tasks.append(asyncio.create_task(self.dispatcher.run(), name="ttr-dispatcher"))
        if self.run_timers:
            self._tasks.append(asyncio.create_task(self.timer_loop.run(), name="ttr-timers"))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        if not self._resumed:
            self._resumed = True
            # The render workers start now rather than while logging in: on two cores their own
            # start-up (a Python each, importing Pillow and the engine) held the login back by a
            # third of a second, and a picture asked for before this starts them anyway.
            self.desk.renderer.start()
            await self.resume_games()
            # What start-up loaded (modules, maps, indexes) lives as long as the process: keep the
            # cycle collector from walking it at every full collection, which holds the event
            # loop (bench/bench_hostile.py: longest pause 70 ms without, 45 ms with).
            gc.freeze()

    async def resume_games(self) -> None:
        """After a restart: the bot's seats whose turn it is play (a crash may have stopped them
        mid-chain); undelivered posts and DMs resume on their own (they wait in the outbox).
        With several processes, each resumes the games of its own shards' servers. Tried until
        done: while the database is out of reach, again after a short pause (a game that is
        broken is left as it is: its ServiceError says why)."""
        errors, left = 0, None
        while True:
            try:
                todo = await self.service.reads.games_waiting_for_bots(self.serves)
            except Exception as exc:
                errors += 1
                log.warning("could not look for games to resume (%s); trying again", type(exc).__name__)
                await asyncio.sleep(pause_after_errors(errors))
                continue
            left = [g for g in todo if left is None or g in left]
            failed = []
            for game_id in left:
                try:
                    await self.service.moves.play_bots(game_id)
                except ServiceError:
                    log.exception("game %d: could not resume", game_id)
                except Exception as exc:  # the database, most likely: again soon
                    log.warning("game %d: could not resume yet (%s); trying again", game_id, type(exc).__name__)
                    failed.append(game_id)
            if not failed:
                return
            errors += 1
            left = failed
            await asyncio.sleep(pause_after_errors(errors))

    async def close(self) -> None:
        # No new interaction arrives once the connection's loop has stopped; the ones being
        # answered finish (their move stored, their answer sent) before the service closes.
        if not await self.desk.settle(SETTLE_SECONDS):
            log.warning("stopping with commands still being answered")
        for task in self._tasks:
            task.cancel()
        # Let them stop before the HTTP session closes under them (what they were delivering
        # is still pending in the outbox, and the next start sends it).
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await super().close()


def cog_modules() -> list[str]:
    """Every cog of the cogs package, by module name: each module there with an `async def
    setup` (a new command is a new module). Found by reading the folder, not by importing it:
    bot_app does not import the cogs, which sit above it, and discord.py's `load_extension`
    of a module that is no extension (cogs/base.py) would drop it from `sys.modules`, so that
    the next cog imported a second copy of it."""
    spec = importlib.util.find_spec(COGS)
    assert spec is not None and spec.submodule_search_locations is not None
    found = []
    for folder in spec.submodule_search_locations:
        for source in Path(folder).glob("*.py"):
            tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
            if any(isinstance(node, ast.AsyncFunctionDef) and node.name == "setup" for node in tree.body):
                found.append(f"{COGS}.{source.stem}")
    return sorted(found)


def is_game_command(interaction: discord.Interaction, ttr: app_commands.Group) -> bool:
    """Whether an interaction is a game command or one of our buttons (not an autocomplete):
    a /ttr command not marked `keeps_vacation` (cogs/base.py; a group's mark covers its
    commands)."""
    data: Any = interaction.data if isinstance(interaction.data, dict) else {}
    if interaction.type is discord.InteractionType.component:
        return str(data.get("custom_id", "")).startswith("ttr:")
    if interaction.type is not discord.InteractionType.application_command or data.get("name") != "ttr":
        return False
    command: app_commands.Command[Any, ..., Any] | app_commands.Group | None = ttr
    options = data.get("options")
    while isinstance(command, app_commands.Group):  # down to the command run, through its groups
        first = options[0] if isinstance(options, list) and options and isinstance(options[0], dict) else {}
        name = first.get("name")
        command = command.get_command(name) if isinstance(name, str) else None
        if command is None or command.extras.get(ENDS_VACATION, True) is False:
            return False
        options = first.get("options")
    return True


class ShardedTtrBot(TtrBot, commands.AutoShardedBot):
    """The same bot on the shards `shard_ids` of `shard_count` (discord.py's AutoShardedBot):
    Discord sends this process only the events of servers on its shards."""

    def serves(self, guild_id: int) -> bool:
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def syncs_commands(self) -> bool:
        return self.shard_ids is None or 0 in self.shard_ids


def make_bot(service: GameService, *, shard_ids: Sequence[int] | None = None, shard_count: int | None = None,
             **kwargs: Any) -> TtrBot:
    """The bot for this process: sharded when a shard count is given (TTR_SHARD_COUNT, with
    TTR_SHARD_IDS naming the shards it runs), else a plain `commands.Bot` as before."""
    if shard_count is None:
        return TtrBot(service, **kwargs)
    ids = list(shard_ids) if shard_ids is not None else list(range(shard_count))
    return ShardedTtrBot(service, shard_ids=ids, shard_count=shard_count, **kwargs)
