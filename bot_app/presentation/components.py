"""Building buttons and select menus.

Every component the bot posts carries a custom id from `bot_app.presentation.ids`; the DynamicItem
families of `bot_app.adapter.buttons` receive every click on any of them, whenever it was posted
(before a restart too). Views are built "stopped" so discord.py does not keep them in memory:
the DynamicItems are the only handlers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    pass

MAX_OPTIONS = 25  # Discord's limit for select menus and autocomplete


def button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           emoji: str | None = None, row: int | None = None, disabled: bool = False) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, emoji=emoji, row=row,
                             disabled=disabled)


def select(custom_id: str, options: Sequence[tuple[str, str, str | None]], placeholder: str,
           min_values: int = 1, max_values: int = 1, row: int | None = None) -> discord.ui.Select[Any]:
    """`options`: (label, value, description) — at most 25, labels cut to Discord's 100."""
    opts = [discord.SelectOption(label=label[:100], value=value[:100], description=(desc or None) and desc[:100])
            for label, value, desc in list(options)[:MAX_OPTIONS]]
    return discord.ui.Select(custom_id=custom_id, options=opts, placeholder=placeholder[:150],
                             min_values=min(min_values, len(opts)), max_values=min(max_values, len(opts)), row=row)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding `items`, stopped: sent as components, never kept in memory."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
