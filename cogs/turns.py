"""/ttr turn: what a player may do about a turn besides moving.
- /ttr turn undo: take back your last move (a claim that was not a tunnel, a station, a
  Controller card) before the next player acts — also the **Undo** button of the move's
  confirmation. The rules are the service's (app/seat_ops.py) and the engine's (engine/undo.py).
- /ttr turn vote: hand a slow player's turn to the AI once everyone else voted (while their limit
  is still far off) — also the **Vote** button of the notice.
- /ttr turn hint: privately, what the normal AI would do now in your place (a lesson, or a table
  that allows hints) — also the **Hint** button of a lesson's step."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot_app.adapter.games import Game, resolve_game
from bot_app.adapter.undo_button import FAMILIES as UNDO_FAMILIES
from bot_app.adapter.undo_button import undo_move
from bot_app.adapter.votes import FAMILIES as VOTE_FAMILIES
from bot_app.adapter.votes import vote
from bot_app.presentation import tutorial
from bot_app.presentation.answers import Refusal
from cogs.base import TtrCog

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot


class TurnsCog(TtrCog):
    families = (*VOTE_FAMILIES, *UNDO_FAMILIES)
    turn = app_commands.Group(name="turn", description="Undo your move, vote to skip a slow player, or ask for a hint")

    @turn.command(name="undo", description="Take back your last claim or station before the next player acts")
    async def undo(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await undo_move(self.desk, interaction, await resolve_game(interaction, game), None)

    @turn.command(name="vote", description="Vote to hand a slow player's turn to the AI now")
    @app_commands.describe(player="whose turn (only needed while several players choose at once)")
    async def vote(self, interaction: discord.Interaction, player: discord.User | None = None,
                   game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        seat = None
        if player is not None:
            seat = await self.desk.service.reads.seat_of(g, player.id)
            if seat is None:
                raise Refusal(f"{player.display_name} is not playing in game #{g}.")
        await vote(self.desk, interaction, g, seat)

    @turn.command(name="hint", description="Privately: what the normal AI would do now in your place "
                  "(a lesson, or a table that allows hints)")
    async def hint(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await tutorial.show_hint(self.desk, interaction, await resolve_game(interaction, game))


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(TurnsCog(bot))
