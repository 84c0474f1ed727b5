"""A player's hand, privately: in words and as a picture, as an ephemeral answer.

Direct messages carry the hand at the start of each turn (the dispatcher sends them); this is
the always-available way to see it — `/ttr hand`, or **My hand** under any turn post — which
works whether or not the player's DMs are open. The picture follows the player's settings
(colour-blind marks; none at all when they turned the hand picture off).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from app.tutorial import HINTS
from bot_app.presentation import text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import view_of
from bot_app.presentation.tutorial import hint_button

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk  # the desk is handed in by the adapter


async def show_hand(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    panel = await desk.service.reads.panel(game_id, interaction.user.id)
    if panel.seat is None:
        raise Refusal(f"You are not playing in game #{game_id}.")
    await desk.answers.defer(interaction)
    me = panel.summary.seats[panel.seat]
    if me.absent_turns or me.stand_in is not None:
        await desk.service.clocks.player_seen(game_id, interaction.user.id)
    mine = await desk.service.settings.settings(interaction.user.id)
    first, *more = text.split([text.hand_text(panel.view, game_id)])  # a long hand is split, never cut
    # Where the table gives hints, the hand offers one while it is the player's move.
    extra: dict[str, Any] = {"view": view_of(hint_button(game_id))} if panel.your_turn and panel.view.options.get(
        HINTS) else {}
    if not mine.hand_picture:  # turned off in /ttr settings: the words only
        await interaction.followup.send(first, ephemeral=True, **extra)
    else:
        png = await desk.renderer.hand(panel.view, colorblind=mine.colorblind)
        await interaction.followup.send(first, file=discord.File(io.BytesIO(png), "hand.png"), ephemeral=True,
                                        **extra)
    for part in more:
        await interaction.followup.send(part, ephemeral=True)
