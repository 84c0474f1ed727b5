"""The turn post's **Plan my next turn** button (issue 29; its clicks: bot_app/plan_panel.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot_app import ids
from bot_app.components import button

PLAN = "plan"  # the button's verb


def plan_button(game_id: int) -> discord.ui.Button[Any]:
    """For the players not to move: anyone may press it; it answers the presser privately."""
    return button("Plan my next turn", ids.make(game_id, None, PLAN), discord.ButtonStyle.secondary, "🗒️")
