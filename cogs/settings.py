"""/ttr settings: each player's own preferences, the same in every game. With no option it
shows them; with options it changes those and shows them all (privately). What each does:
bot_app/presentation/settings_help.py (also `/ttr rules topic:settings`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app import PlayerSettings
from app.player_clock import MOST_AWAY_DAYS, clock_time, time_zones
from app.settings_ops import AUTO_LANGUAGE
from bot_app.adapter.tree import keeps_vacation
from bot_app.lang import codes, hear, language_choices, reader
from bot_app.presentation.components import MAX_OPTIONS
from bot_app.presentation.inputs import MediumText, ShortText
from bot_app.presentation.settings_help import settings_text
from cogs.base import TtrCog
from engine.maps import fold

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

# A ping per turn, or a daily digest at one of the 24 hours: Discord's 25 choices exactly.
# A language of its own for every catalogue, or back to the Discord client's.
SETTINGS_LANGUAGES = [app_commands.Choice(name="auto (my Discord language)", value=AUTO_LANGUAGE), *language_choices()]
DIGEST_CHOICES = [app_commands.Choice(name="a ping per turn (the default)", value="turn"),
                  *(app_commands.Choice(name=f"one DM a day at {h:02d}:00", value=str(h)) for h in range(24))]


class SettingsCog(TtrCog):
    @keeps_vacation
    @app_commands.command(name="settings", description="Your own preferences (no option: show them)")
    @app_commands.describe(
        dms="send me my hand by direct message (turn back on after I found them closed)",
        colorblind="colour-blind marks: a letter on every colour in my pictures (and my tables' boards)",
        hand_picture="send my hand with its picture (off: in words only)",
        timezone="my time zone, like Europe/Berlin (start typing)",
        quiet_hours="no reminders and my turn clock stops, like 23:00-08:00 (off: none)",
        vacation_days=f"away for this many days from now: my clocks stop (0: I am back; at most {MOST_AWAY_DAYS})",
        digest="a ping per turn, or one DM a day at this hour listing the games waiting for me",
        language="my language for private answers and DMs (auto: my Discord client's)")
    @app_commands.choices(digest=DIGEST_CHOICES, language=SETTINGS_LANGUAGES)
    async def settings(self, interaction: discord.Interaction, dms: bool | None = None,
                       colorblind: bool | None = None, hand_picture: bool | None = None,
                       timezone: MediumText | None = None, quiet_hours: ShortText | None = None,
                       vacation_days: app_commands.Range[int, 0, MOST_AWAY_DAYS] | None = None,
                       digest: str | None = None, language: str | None = None) -> None:
        service = self.desk.service
        user = interaction.user.id
        marks, picture = _flag(colorblind), _flag(hand_picture)
        before = await service.settings.settings(user)
        mine = await service.settings.change_settings(
            user, colorblind=marks, hand_picture=picture, timezone=timezone, quiet_hours=quiet_hours,
            away_days=vacation_days if isinstance(vacation_days, int) else None, digest=digest,
            language=language if language in (AUTO_LANGUAGE, *codes()) else None)
        lines = []
        if dms is True:
            await service.outbox.dms_open(user)
            lines.append("📬 I will send your hand by direct message again.")
        elif dms is False:
            await service.outbox.dms_closed(user)
            lines.append("📪 I will not DM you; use **My hand** or /ttr hand in each game.")
        if marks is not None:
            lines.append("🔤 Colour-blind marks are on: every colour in your pictures carries a letter, and so "
                         "does the board of every table you sit at." if marks else
                         "Colour-blind marks are off for your pictures.")
        if picture is not None:
            lines.append("🖼️ Your hand comes with its picture." if picture else
                         "📝 Your hand comes in words only, without its picture.")
        lines += await self._clock_lines(user, before, mine)
        if mine.language != before.language:
            hear(interaction.locale, mine.language)  # this answer already in the new language
            lines.append("🗣️ " + reader().t("settings.language", language=reader().t(f"language.{reader().code}")))
        if dms is not None:
            mine = await service.settings.settings(user)
        lines.append(settings_text(mine, self.desk.clock()))
        await self.desk.answers.say(interaction, "\n".join(lines))

    @settings.autocomplete("timezone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = fold(current or "").replace(" ", "_")
        names = [z for z in time_zones() if key in fold(z)] if key else [
            "UTC", "Europe/London", "Europe/Berlin", "Europe/Paris", "America/New_York", "America/Chicago",
            "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney"]
        return [app_commands.Choice(name=z, value=z) for z in names[:MAX_OPTIONS]]

    async def _clock_lines(self, user: int, before: PlayerSettings, mine: PlayerSettings) -> list[str]:
        """What changed about the player's clock, in words."""
        lines = []
        if mine.timezone != before.timezone:
            lines.append(f"🌍 Your time zone is {mine.timezone}.")
        if mine.quiet != before.quiet:
            lines.append(f"🌙 Quiet hours {clock_time(mine.quiet[0])}–{clock_time(mine.quiet[1])} ({mine.timezone}):"
                         " no reminders then, and your turn clock stops." if mine.quiet is not None
                         else "🌙 No quiet hours: your turn clock always runs.")
        if (mine.away_from, mine.away_until) != (before.away_from, before.away_until):
            if mine.away_until is None:
                lines.append("👋 Welcome back: your clocks run again.")
            else:
                lines.append(f"🏖️ Away until <t:{int(mine.away_until)}:f>: your clocks stop and the AI leaves your "
                             "seat alone. Any game command ends it early." + await self._caps(user, mine))
        if mine.digest_hour != before.digest_hour:
            lines.append("🔔 A ping per turn again." if mine.digest_hour is None else
                         f"📬 One DM a day at {mine.digest_hour:02d}:00 ({mine.timezone}) listing the games waiting "
                         "for you — no turn DMs, reminders or pings meanwhile.")
        return lines

    async def _caps(self, user: int, mine: PlayerSettings) -> str:
        """The tables that count a shorter vacation than the one asked for."""
        if mine.away_from is None or mine.away_until is None:
            return ""
        days = (mine.away_until - mine.away_from) / 86400
        short = [f"#{s.game_id} ({s.max_away_days:g} days)" for s in await self.desk.service.reads.games_of(user)
                 if s.status != "lobby" and s.max_away_days < days]
        return f" Some tables count less of it: {', '.join(short)}." if short else ""


def _flag(value: object) -> bool | None:
    """A boolean option as given (Discord sends true or false; anything else changes nothing)."""
    return value if isinstance(value, bool) else None


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(SettingsCog(bot))
