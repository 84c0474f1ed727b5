"""The discord.py client: one `/ttr` command tree, the DynamicItem for every button, the desk
and the timer loop. Intents: guilds only (no privileged intents)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

import discord
from discord import app_commands

from app import GameService
from bot_app.components import TtrItem
from bot_app.desk import Desk
from bot_app.inputs import too_long
from bot_app.render_hooks import Renderer
from bot_app.timers import TimerLoop
from cogs import build_group
from cogs.common import on_tree_error

log = logging.getLogger(__name__)


class TtrTree(app_commands.CommandTree["TtrBot"]):
    """The command tree, with one check before any command or autocomplete runs: every text
    option within its length (bot_app.inputs), so that no handler ever parses a flood."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        data = interaction.data if isinstance(interaction.data, dict) else {}
        found = too_long(data.get("options"))
        if found is None:
            return True
        name, length, limit = found
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(
                f"🚫 That {name} is too long ({length} characters; at most {limit}). Pick one from the list.",
                ephemeral=True)
        return False


class TtrBot(discord.Client):
    def __init__(self, service: GameService, *, guild_id: int | None = None, renderer: Renderer | None = None,
                 clock: Callable[[], float] = time.time, default_turn_hours: float = 48.0,
                 run_timers: bool = True, sync_commands: bool = True, **kwargs: object) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; nothing privileged
        super().__init__(intents=intents, **kwargs)  # type: ignore[arg-type]
        self.service = service
        self.guild_id = guild_id
        self.sync_commands = sync_commands
        self.tree = TtrTree(self)
        self.tree.on_error = on_tree_error
        self.tree.add_command(build_group())
        self.desk = Desk(service, self, renderer=renderer, clock=clock, default_turn_hours=default_turn_hours)
        self.timer_loop = TimerLoop(self.desk, clock)
        self.run_timers = run_timers
        self._timer_task: asyncio.Task[None] | None = None
        self._resumed = False

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TtrItem)
        if self.sync_commands:
            if self.guild_id:
                guild = discord.Object(self.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        if self.run_timers:
            self._timer_task = asyncio.create_task(self.timer_loop.run(), name="ttr-timers")

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        if not self._resumed:
            self._resumed = True
            await self.desk.resume_all()
            # What start-up loaded (modules, maps, indexes) lives as long as the process: keep the
            # cycle collector from walking it at every full collection, which holds the event
            # loop (bench/bench_hostile.py: longest pause 70 ms without, 45 ms with).
            gc.freeze()

    async def close(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
        await super().close()
