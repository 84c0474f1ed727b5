"""/ttr settings: each player's own preferences. With no option it shows them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import TtrCog

if TYPE_CHECKING:
    from bot_app.client import TtrBot


class SettingsCog(TtrCog):
    @app_commands.command(name="settings", description="Your own preferences (no option: show them)")
    @app_commands.describe(dms="send me my hand by direct message (turn back on after I found them closed)")
    async def settings(self, interaction: discord.Interaction, dms: bool | None = None) -> None:
        async def work() -> None:
            service = self.desk.service
            lines = []
            if dms is True:
                await service.dms_open(interaction.user.id)
                lines.append("📬 I will send your hand by direct message again.")
            elif dms is False:
                await service.dms_closed(interaction.user.id)
                lines.append("📪 I will not DM you; use **My hand** or /ttr hand in each game.")
            closed = await service.dms_known_closed(interaction.user.id)
            lines.append(f"Direct messages: {'off (closed or turned off)' if closed else 'on'}.")
            await self.desk.answers.say(interaction, "\n".join(lines))

        await self.run(work())


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(SettingsCog(bot))
