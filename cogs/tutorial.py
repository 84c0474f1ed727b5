"""/ttr tutorial: a guided first game against the computer (bot_app.tutorial), and its hint."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app.tutorial import lessons
from bot_app import lang, tutorial
from bot_app.games import Game, resolve_game
from bot_app.inputs import ShortText
from cogs.base import TtrCog

if TYPE_CHECKING:
    from bot_app.client import TtrBot


class TutorialCog(TtrCog):
    @app_commands.command(name="tutorial",
                          description="Learn the game: a guided game against the computer (again: resume it)")
    @app_commands.describe(board="the board to learn on (a lesson each)",
                           hint="privately: what the normal AI would do now in your game (if the table allows)",
                           game="the game to hint in (in its thread: that game)")
    async def tutorial(self, interaction: discord.Interaction, board: ShortText | None = None,
                       hint: bool = False, game: Game | None = None) -> None:
        async def work() -> None:
            if hint:
                await tutorial.show_hint(self.desk, interaction, await resolve_game(interaction, game))
            else:
                await tutorial.tutorial(self.desk, interaction, board)

        await self.run(work())

    @tutorial.autocomplete("board")
    async def _boards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        known = lessons(lang.code_for(interaction.locale))  # the titles in the typer's language
        return [app_commands.Choice(name=f"{lesson.title} ({name})", value=name)
                for name, lesson in known.items() if current.lower() in f"{name} {lesson.title}".lower()][:25]


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(TutorialCog(bot))
