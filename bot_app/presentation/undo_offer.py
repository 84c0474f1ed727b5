"""The **Undo** button offered on the mover's private confirmation after a move they may still
take back (engine/undo.py says which; bot_app/adapter/undo_button.py handles the click)."""

from __future__ import annotations

import discord

from app import SubmitResult
from bot_app import lang
from bot_app.presentation import ids
from bot_app.presentation.components import button, view_of

UNDO = "undo"  # the button's verb, and the service's move


def with_undo(follow: discord.ui.View | None, result: SubmitResult) -> discord.ui.View | None:
    """The mover's confirmation buttons, with **Undo** when they may take the move back."""
    if result.actor is None or result.ended or not result.view(result.actor).can_undo:
        return follow
    undo = button(lang.reader().t("button.undo"), ids.make(result.game_id, result.seq, UNDO),
                  discord.ButtonStyle.secondary, "↩️")
    if follow is None:
        return view_of(undo)
    follow.add_item(undo)
    return follow
