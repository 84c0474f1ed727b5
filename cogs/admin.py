"""Host and server-manager commands: /ttr kick, pause, resume."""

from __future__ import annotations

import discord
from discord import app_commands

from bot_app.desk import Refusal
from bot_app.inputs import Text
from cogs.common import desk
from cogs.lobby import _games


async def _may_manage(interaction: discord.Interaction, game_id: int) -> None:
    d = desk(interaction)
    summary = await d.service.game(game_id)
    lobby = await d.service.lobby(game_id)
    perms = interaction.permissions
    if interaction.user.id != lobby.host_user_id and not (perms.manage_guild or perms.administrator):
        raise Refusal("Only the game's host or a server manager can do that.")
    if summary.status not in ("setup", "playing"):
        raise Refusal(f"Game #{game_id} is not being played.")


def register(group: app_commands.Group) -> None:
    @group.command(name="kick", description="Hand a player's seat to the AI (host or server manager)")
    async def kick(interaction: discord.Interaction, player: discord.User, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            await _may_manage(interaction, g)
            seat = await d.service.seat_of(g, player.id)
            if seat is None:
                raise Refusal(f"{player.display_name} is not playing in game #{g}.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            await d.kick(g, seat)
            await interaction.followup.send(f"The AI now plays for {player.display_name} in game #{g} until they "
                                            "come back with any game command.", ephemeral=True)

        await d.guard(interaction, run())

    @group.command(name="pause", description="Stop the game's clocks (host or server manager)")
    async def pause(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            await _may_manage(interaction, g)
            await d.pause(g)
            await d.say(interaction, f"⏸️ Game #{g} is paused: no reminders and no time limits until /ttr resume.",
                        ephemeral=False)

        await d.guard(interaction, run())

    @group.command(name="resume", description="Restart the game's clocks (host or server manager)")
    async def resume(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            await _may_manage(interaction, g)
            await d.resume(g)
            await d.say(interaction, f"▶️ Game #{g} is running again; the current turn's clock starts now.",
                        ephemeral=False)

        await d.guard(interaction, run())

    for cmd in (kick, pause, resume):
        cmd.autocomplete("game")(_games)
