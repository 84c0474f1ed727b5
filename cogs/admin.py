"""The host's and server managers' commands, in one group: /ttr admin addai, start, cancel
(the lobby's buttons, typed), kick, pause, resume. Who may do what is the service's rule (the
host, or anyone with Manage Server in the game's own server); this only says who is asking."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app import Caller
from bot_app import lobby
from bot_app.answers import Refusal
from bot_app.games import Game, resolve_game
from bot_app.inputs import ShortText
from cogs.base import TtrCog
from engine.ai import OFFERED_LEVELS

if TYPE_CHECKING:
    from bot_app.client import TtrBot


def _caller(interaction: discord.Interaction) -> Caller:
    perms = interaction.permissions
    # A DM has no server to manage; in a server, the game was checked to be this one's.
    manages = interaction.guild_id is not None and (perms.manage_guild or perms.administrator)
    return Caller(interaction.user.id, manages_server=bool(manages))


class AdminCog(TtrCog):
    admin = app_commands.Group(name="admin", description="For the host and server managers")

    @admin.command(name="addai", description="Seat a computer player (host)")
    async def addai(self, interaction: discord.Interaction, game: Game | None = None,
                    level: ShortText = "normal") -> None:
        await self.run(self._lobby(interaction, game, "addai", level))

    @addai.autocomplete("level")
    async def _levels(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=lv, value=lv) for lv in OFFERED_LEVELS if current.lower() in lv]

    @admin.command(name="start", description="Deal the game (host)")
    async def start(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self.run(self._lobby(interaction, game, "start"))

    @admin.command(name="cancel", description="Close the table before the start (host)")
    async def cancel(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self.run(self._lobby(interaction, game, "cancel"))

    @admin.command(name="kick", description="Hand a player's seat to the AI until they come back")
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            seat = await self.desk.service.seat_of(g, player.id)
            if seat is None:
                raise Refusal(f"{player.display_name} is not playing in game #{g}.")
            await self.desk.answers.defer(interaction)
            await self.desk.service.kick(g, seat, _caller(interaction))
            await interaction.followup.send(f"The AI now plays for {player.display_name} in game #{g} until they "
                                            "come back with any game command.", ephemeral=True)

        await self.run(work())

    @admin.command(name="pause", description="Stop the game's clocks")
    async def pause(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            if not await self.desk.service.pause(g, _caller(interaction)):
                raise Refusal(f"Game #{g} is already paused.")
            await self.desk.answers.say(interaction, f"⏸️ Game #{g} is paused: no reminders and no time limits "
                                        "until /ttr admin resume.", ephemeral=False)

        await self.run(work())

    @admin.command(name="resume", description="Start the game's clocks again (and retry what Discord refused)")
    async def resume(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            if not await self.desk.service.resume(g, _caller(interaction)):
                raise Refusal(f"Game #{g} is not paused.")
            await self.desk.answers.say(interaction, f"▶️ Game #{g} is running again; the current turn's clock "
                                        "starts now.", ephemeral=False)

        await self.run(work())

    async def _lobby(self, interaction: discord.Interaction, game: int | None, verb: str, level: str = "") -> None:
        g = await resolve_game(interaction, game)
        await lobby.lobby_action(self.desk, interaction, g, verb, level=level or "normal", from_button=False)


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(AdminCog(bot))
