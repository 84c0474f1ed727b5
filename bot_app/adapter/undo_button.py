"""Taking back a move from Discord: `/ttr turn undo`, and the **Undo** button on the mover's private
confirmation after a move they may still take back (a claim that was not a tunnel, a station,
a Controller card — until the next player acts; engine/undo.py says which). The undo itself is
a move of the service (`{"type": "undo"}`); the thread's turn post is corrected in place by the
dispatcher from what the undo stored, and the mover gets their hand again by DM."""

from __future__ import annotations

from typing import Any

import discord

from app import Actor, StaleAction
from bot_app.adapter.buttons import _Family
from bot_app.adapter.desk import Desk
from bot_app.presentation import ids
from bot_app.presentation.answers import Refusal
from bot_app.presentation.panels import action_buttons
from bot_app.presentation.undo_offer import UNDO

NOTHING_TO_UNDO = ("There is no move of yours to take back: only your last claim, station or Controller card, "
                   "before the next player acts, and only if it revealed nothing.")


async def undo_move(desk: Desk, interaction: discord.Interaction, game_id: int, seq: int | None) -> None:
    """The caller takes back their last move (`seq`: the point of the game the button was made
    at; None from the command). Answered privately, with their turn's buttons again."""
    user = interaction.user.id
    panel = await desk.service.reads.panel(game_id, user)
    if panel.seat is None:
        raise Refusal(f"You are not playing in game #{game_id}.")
    if seq is not None and seq != panel.summary.seq:
        raise Refusal("That already happened: the game has moved on, so that move stays.")
    if not panel.view.can_undo:
        raise Refusal(NOTHING_TO_UNDO)
    try:
        result = await desk.service.moves.submit(game_id, Actor.user(user), {"type": UNDO}, panel.summary.seq)
    except StaleAction:
        raise Refusal("That already happened: the game has moved on, so that move stays.") from None
    after = await desk.service.reads.panel(game_id, user)
    follow = action_buttons(game_id, result.seq, list(after.legal), after.view) if after.legal else None
    await desk.answers.update_panel(interaction, "↩️ Taken back: the board is as it was, and it's your turn again.",
                                    follow)


class UndoButton(_Family, template=ids.template((UNDO,))):
    """**Undo** on the mover's confirmation: only at the point of the game it was made at."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        if self.cid.seq is None:
            raise Refusal("That button is not one I know.")
        await undo_move(desk, interaction, self.cid.game, self.cid.seq)


FAMILIES: tuple[type[Any], ...] = (UndoButton,)
