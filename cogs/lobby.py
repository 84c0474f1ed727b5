"""Lobby commands: /ttr new, join, leave, addai, start, cancel."""

from __future__ import annotations

import discord
from discord import app_commands

from bot_app.inputs import ShortText, Text
from cogs.common import choices, desk
from engine.ai import AI_LEVELS
from engine.variants import available_variants


def register(group: app_commands.Group) -> None:
    @group.command(name="new", description="Open a table for a new game (a thread is made for it)")
    @app_commands.describe(variant="which map and rules", dice="play with the Dice Expansion",
                           seats="how many players (2–5)", turn_hours="hours per turn before the AI steps in")
    async def new(interaction: discord.Interaction, variant: ShortText = "europe", dice: bool = False,
                  seats: app_commands.Range[int, 2, 5] = 4,
                  turn_hours: app_commands.Range[float, 0.01, 720.0] | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.new_game(interaction, variant, dice, seats, turn_hours))

    @new.autocomplete("variant")
    async def _variants(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        from bot_app.text import variant_title

        return choices([(f"{variant_title(v)} ({v})", v) for v in available_variants()
                        if current.lower() in v or current.lower() in variant_title(v).lower()])

    async def lobby_cmd(interaction: discord.Interaction, game: str | None, verb: str, level: str = "greedy") -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            await d.lobby_action(interaction, g, verb, level=level, from_button=False)

        await d.guard(interaction, run())

    @group.command(name="join", description="Take a seat at a table")
    async def join(interaction: discord.Interaction, game: Text | None = None) -> None:
        await lobby_cmd(interaction, game, "join")

    @group.command(name="leave", description="Give up your seat before the start")
    async def leave(interaction: discord.Interaction, game: Text | None = None) -> None:
        await lobby_cmd(interaction, game, "leave")

    @group.command(name="addai", description="Seat a computer player (host)")
    async def addai(interaction: discord.Interaction, game: Text | None = None, level: ShortText = "greedy") -> None:
        await lobby_cmd(interaction, game, "addai", level)

    @group.command(name="start", description="Deal the game (host)")
    async def start(interaction: discord.Interaction, game: Text | None = None) -> None:
        await lobby_cmd(interaction, game, "start")

    @group.command(name="cancel", description="Close the table before the start (host)")
    async def cancel(interaction: discord.Interaction, game: Text | None = None) -> None:
        await lobby_cmd(interaction, game, "cancel")

    @addai.autocomplete("level")
    async def _levels(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices([(lv, lv) for lv in AI_LEVELS if current.lower() in lv])

    for cmd in (join, leave, addai, start, cancel):
        cmd.autocomplete("game")(_games)


async def _games(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(await desk(interaction).ac_games(interaction, current))
