"""Buttons and select menus.

Every component the bot posts carries a custom id from `bot_app.ids`; one `DynamicItem`
class (`TtrItem`) is registered with the client and receives every click on any of them,
whenever it was posted (before a restart too), and hands it to the desk. Views are built
"stopped" so discord.py does not keep them in memory: the DynamicItem is the only handler.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot_app import ids

if TYPE_CHECKING:
    from bot_app.desk import Desk

MAX_OPTIONS = 25  # Discord's limit for select menus and autocomplete


class TtrItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=ids.TEMPLATE):
    """Any ttr button or select; the callback hands the parsed id to the desk."""

    def __init__(self, item: discord.ui.Item[Any], cid: ids.Cid) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
                             ) -> TtrItem:
        return cls(item, ids.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        values: list[str] = []
        data = interaction.data or {}
        if isinstance(data, dict):
            values = [str(v) for v in data.get("values", []) or []]
        desk: Desk | None = getattr(interaction.client, "desk", None)
        if desk is None:  # pragma: no cover - only before start-up finished
            await interaction.response.send_message("The bot is still starting; try again in a moment.",
                                                    ephemeral=True)
            return
        await desk.on_component(interaction, self.cid, values)


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
