"""What every cog shares: its commands live under the bot's one `/ttr` group.

discord.py gives each cog its own commands at the top of the tree and has no group shared by
several cogs, so `cog_load` moves this cog's commands (and its sub-groups) under `bot.ttr`,
and `cog_unload` takes them out again.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot_app.client import TtrBot


class TtrCog(commands.Cog):
    """A cog of `/ttr` sub-commands."""

    def __init__(self, bot: TtrBot) -> None:
        self.bot = bot
        self.desk = bot.desk
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        for command in self.__cog_app_commands__:
            self.bot.ttr.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []  # under /ttr now, not at the top of the tree

    async def cog_unload(self) -> None:
        for command in self._moved:
            self.bot.ttr.remove_command(command.name)
        self._moved.clear()

    async def run(self, work: Awaitable[None]) -> None:
        """Do a command's work, counted as running (tests and benchmarks wait for none)."""
        with self.desk.handling():
            await work
