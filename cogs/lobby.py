"""Tables: /ttr new, join, leave. (The host's addai, start and cancel are under /ttr admin,
and are the lobby message's buttons.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from ai.levels import OFFERED_LEVELS
from app.player_clock import MOST_AWAY_DAYS
from bot_app.adapter import lobby, rematch
from bot_app.adapter.games import Game, resolve_game
from bot_app.lang import language_choices
from bot_app.presentation import table_options, text
from bot_app.presentation.inputs import ShortText
from cogs.base import TtrCog
from engine.rulesets import available_variants

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot


class LobbyCog(TtrCog):
    families = rematch.FAMILIES  # a finished game's Rematch opens a new table

    @app_commands.command(name="new", description="Open a table for a new game (a thread is made for it)")
    @app_commands.describe(variant="which map and rules", dice="play with the Dice Expansion",
                           seats="how many players (2–5)", turn_hours="hours per turn before the AI steps in",
                           undo="let a player take back a claim or station before the next player acts (on)",
                           away_days="the longest vacation a player's clock stops for here (7; 0: none)",
                           stand_in="how well the AI plays for a player whose time runs out",
                           plan_ahead="let players plan two turns ahead, not only their next (off)",
                           language="the language of the game's thread (default: this server's)",
                           hints="let players ask privately what the normal AI would do (off)",
                           **table_options.descriptions())
    @app_commands.choices(stand_in=[app_commands.Choice(name=lv, value=lv) for lv in OFFERED_LEVELS],
                          language=language_choices(),
                          **table_options.choices())
    async def new(self, interaction: discord.Interaction, variant: ShortText = "europe", dice: bool = False,
                  seats: app_commands.Range[int, 2, 5] = 4,
                  turn_hours: app_commands.Range[float, 0.01, 720.0] | None = None,
                  first: str | None = None, stations: bool | None = None, controller_tunnel: str | None = None,
                  dice_tokens: int | None = None, tunnel_dice: int | None = None,
                  nine_route: str | None = None, undo: bool = True,
                  away_days: app_commands.Range[int, 0, MOST_AWAY_DAYS] = 7, stand_in: str | None = None,
                  plan_ahead: bool = False, language: str | None = None, hints: bool = False) -> None:
        chosen = {"stations": stations, "controller_tunnel": controller_tunnel, "dice_tokens": dice_tokens,
                  "tunnel_dice": tunnel_dice, "nine_route": nine_route}
        await lobby.open_table(self.desk, interaction, variant, dice, seats, turn_hours, chosen, first,
                               undo, away_days, stand_in, plan_ahead, language, hints)

    @new.autocomplete("variant")
    async def _variants(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"{text.variant_title(v)} ({v})", value=v) for v in available_variants()
                if current.lower() in v or current.lower() in text.variant_title(v).lower()]

    @app_commands.command(name="join", description="Take a seat at a table")
    async def join(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self._act(interaction, game, "join")

    @app_commands.command(name="leave", description="Give up your seat before the start")
    async def leave(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self._act(interaction, game, "leave")

    async def _act(self, interaction: discord.Interaction, game: int | None, verb: str) -> None:
        g = await resolve_game(interaction, game)
        await lobby.lobby_action(self.desk, interaction, g, verb, from_button=False)


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(LobbyCog(bot))
