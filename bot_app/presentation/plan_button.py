"""The turn post's **Plan my next turn** button (issue 29; its clicks: bot_app/adapter/plan_panel.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot_app import lang
from bot_app.presentation import ids
from bot_app.presentation.components import button

PLAN = "plan"  # the button's verb


def plan_button(game_id: int, label: str | None = None) -> discord.ui.Button[Any]:
    """For the players not to move: anyone may press it; it answers the presser privately
    (`label`: its name in the table's language; by default the reader's)."""
    return button(label or lang.reader().t("button.plan"), ids.make(game_id, None, PLAN),
                  discord.ButtonStyle.secondary, "🗒️")
