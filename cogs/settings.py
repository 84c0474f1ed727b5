"""/ttr settings: each player's own preferences, the same in every game. With no option it
shows them; with options it changes those and shows them all (privately)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app import PlayerSettings
from cogs.base import TtrCog

if TYPE_CHECKING:
    from bot_app.client import TtrBot


def settings_text(mine: PlayerSettings) -> str:
    """A player's settings, one line each, with the option that changes it."""
    return "\n".join((
        "**Your settings** (for every game):",
        f"• Direct messages (`dms`): {'on' if mine.dms else 'off (closed or turned off)'}.",
        f"• Colour-blind marks (`colorblind`): {'on' if mine.colorblind else 'off'} — a letter on every colour in "
        "your hand picture, and on the board of every table you sit at.",
        f"• Hand picture (`hand_picture`): {'on' if mine.hand_picture else 'off — your hand comes in words only'}.",
    ))


class SettingsCog(TtrCog):
    @app_commands.command(name="settings", description="Your own preferences (no option: show them)")
    @app_commands.describe(
        dms="send me my hand by direct message (turn back on after I found them closed)",
        colorblind="colour-blind marks: a letter on every colour in my pictures (and my tables' boards)",
        hand_picture="send my hand with its picture (off: in words only)")
    async def settings(self, interaction: discord.Interaction, dms: bool | None = None,
                       colorblind: bool | None = None, hand_picture: bool | None = None) -> None:
        async def work() -> None:
            service = self.desk.service
            user = interaction.user.id
            marks, picture = _flag(colorblind), _flag(hand_picture)
            lines = []
            if dms is True:
                await service.dms_open(user)
                lines.append("📬 I will send your hand by direct message again.")
            elif dms is False:
                await service.dms_closed(user)
                lines.append("📪 I will not DM you; use **My hand** or /ttr hand in each game.")
            if marks is not None:
                lines.append("🔤 Colour-blind marks are on: every colour in your pictures carries a letter, and so "
                             "does the board of every table you sit at." if marks else
                             "Colour-blind marks are off for your pictures.")
            if picture is not None:
                lines.append("🖼️ Your hand comes with its picture." if picture else
                             "📝 Your hand comes in words only, without its picture.")
            mine = await service.change_settings(user, colorblind=marks, hand_picture=picture)
            lines.append(settings_text(mine))
            await self.desk.answers.say(interaction, "\n".join(lines))

        await self.run(work())


def _flag(value: object) -> bool | None:
    """A boolean option as given (Discord sends true or false; anything else changes nothing)."""
    return value if isinstance(value, bool) else None


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(SettingsCog(bot))
