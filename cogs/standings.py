"""Leaderboards: /ttr leaderboard. (Starting a season and whether AI games count are in
/ttr admin; a player's card is /ttr stats.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot_app.lang import reader
from bot_app.standings_text import leaderboard_text
from bot_app.text import variant_title
from bot_app.tree import keeps_vacation
from cogs.base import TtrCog
from engine.rulesets import available_variants

if TYPE_CHECKING:
    from bot_app.client import TtrBot

VARIANT_CHOICES = [app_commands.Choice(name=variant_title(v), value=v) for v in available_variants()]


class StandingsCog(TtrCog):
    @keeps_vacation
    @app_commands.command(name="leaderboard", description="This server's ratings (OpenSkill), by season")
    @app_commands.describe(variant="one variant (default: every variant together)",
                           season="an earlier season's ranking (default: the current season)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None,
                          season: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        async def work() -> None:
            if interaction.guild_id is None:
                await self.desk.answers.say(interaction, reader().t("standings.not_here"))
                return
            board = await self.desk.service.leaderboard(interaction.guild_id, variant.value if variant else None,
                                                        season)
            await self.desk.answers.say(interaction, leaderboard_text(board, you=interaction.user.id),
                                        ephemeral=False)

        await self.run(work())


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(StandingsCog(bot))
