"""What every cog shares: its commands live under the bot's one `/ttr` group, and it brings
its own button families.

discord.py gives each cog its own commands at the top of the tree and has no group shared by
several cogs, so `cog_load` moves this cog's commands (and its sub-groups) under `bot.ttr`,
and `cog_unload` takes them out again. A cog's `families` (the `DynamicItem` classes of its
buttons and menus) are added to the bot with it, so a new command with new buttons is one new
module in cogs/ and nothing else: the bot loads every module of cogs/ that has a `setup`
(bot_app/adapter/client.py). A command marked `keeps_vacation` (bot_app/adapter/tree.py) only
reads (the rules, results, one's settings): running it does not end its player's vacation.
A command's body is its work alone: the tree counts every command while it runs
(`TtrTree._call`), as the button families count every click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot


class TtrCog(commands.Cog):
    """A cog of `/ttr` sub-commands, with the button families its commands' posts carry."""

    families: tuple[type[Any], ...] = ()

    def __init__(self, bot: TtrBot) -> None:
        self.bot = bot
        self.desk = bot.desk
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        for command in self.__cog_app_commands__:
            self.bot.ttr.add_command(command)
            self._moved.append(command)
        self.__cog_app_commands__ = []  # under /ttr now, not at the top of the tree
        if self.families:
            self.bot.add_dynamic_items(*self.families)

    async def cog_unload(self) -> None:
        for command in self._moved:
            self.bot.ttr.remove_command(command.name)
        self._moved.clear()
        if self.families:
            self.bot.remove_dynamic_items(*self.families)
