"""Every button and select menu the bot posts: one DynamicItem per family.

A component's custom id (bot_app.presentation.ids) carries everything a click needs — the game, the seq it
was made at, the verb and its argument — so a button posted before a restart still works, and
one from an older point of the game is refused ("that already happened"). Each family below
matches only its own verbs and hands the click to the part of the bot that owns it. A click
always names its game, and is refused unless the game can be reached from where it was made.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot_app.adapter import lobby
from bot_app.adapter.desk import Desk
from bot_app.adapter.games import desk_of, reach
from bot_app.lang import hear_user
from bot_app.presentation import ids, panels, tutorial, zoom
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import is_number
from bot_app.presentation.panels import group_key, pick, turn_panel


def _values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data
    values = data.get("values") if isinstance(data, dict) else None
    return [str(v) for v in values] if isinstance(values, list) else []


class _Family(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):  # matches no id: never registered
    """What every family shares: parse the id, check the game can be reached, then `handle`."""

    def __init__(self, item: discord.ui.Item[Any], cid: ids.Cid) -> None:
        super().__init__(item)
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Any:
        return cls(item, ids.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = desk_of(interaction)
        await hear_user(desk.service, interaction)  # the answers to this click in its user's language
        with desk.handling():
            await desk.answers.guard(interaction, self._run(desk, interaction))

    async def _run(self, desk: Desk, interaction: discord.Interaction) -> None:
        await reach(interaction, self.cid.game)
        await self.handle(desk, interaction, _values(interaction))

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        raise NotImplementedError


class LobbyButton(_Family, template=ids.template(lobby.LOBBY_VERBS)):
    """Join, Leave, Add AI, Start, Cancel on a lobby message."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        await lobby.lobby_action(desk, interaction, self.cid.game, self.cid.verb, self.cid.arg)


class HandButton(_Family, template=ids.template(("hand", "dmon"))):
    """My hand (privately, with its picture), and "my DMs are open again"."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        if self.cid.verb == "dmon":
            await desk.service.outbox.dms_open(interaction.user.id)
            await desk.answers.say(interaction, "👍 I will send your hand by direct message again.")
        from bot_app.presentation.hands import show_hand

        await show_hand(desk, interaction, self.cid.game)


class TicketsButton(_Family, template=ids.template(("kt", ids.KEEP_PICK, ids.KEEP_CONFIRM))):
    """Choosing tickets to keep: open the menu, pick, confirm."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        g, verb = self.cid.game, self.cid.verb
        if verb == "kt":
            await panels.keep_panel(desk, interaction, g)
        elif verb == ids.KEEP_PICK:
            await panels.keep_confirm(desk, interaction, g, values)
        else:
            await panels.keep_submit(desk, interaction, g, self.cid.arg)


class TurnButton(_Family, template=ids.template(("draw", "claim", "stn", "tix", ids.RULE_MOVE, "grp"))):
    """The buttons of a turn post and of a turn panel: they open the private choices."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        cid = self.cid
        panel = await turn_panel(desk, cid.game, interaction.user.id, _seq(cid))
        opens: dict[str, Callable[[], Awaitable[None]]] = {
            "draw": lambda: panels.draw_panel(desk, interaction, panel),
            "claim": lambda: panels.group_panel(desk, interaction, panel, "claim_route", 0),
            "stn": lambda: panels.group_panel(desk, interaction, panel, "build_station", 0),
            "tix": lambda: panels.choose_or_confirm(desk, interaction, panel,
                                                    [a for a in panel.legal if a.TYPE == "draw_tickets"]),
            ids.RULE_MOVE: lambda: panels.choose_or_confirm(desk, interaction, panel,
                                                            [a for a in panel.legal if cid.arg == a.TYPE]),
        }
        if cid.verb == "grp":
            kind, _, page = cid.arg.partition(".")
            await panels.group_panel(desk, interaction, panel, kind, int(page) if is_number(page) else 0)
        else:
            await opens[cid.verb]()


class ChoiceItem(_Family, template=ids.template((ids.GROUP_PICK, ids.ACTION_PICK, "ask", "do", "nope"))):
    """Choices inside a private panel: which route, which payment, Confirm, Cancel."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        cid = self.cid
        if cid.verb == "nope":
            await desk.answers.update_panel(interaction, "Cancelled — nothing was done.")
            return
        panel = await turn_panel(desk, cid.game, interaction.user.id, _seq(cid))
        if cid.verb == ids.GROUP_PICK:
            key = values[0] if values else ""
            chosen = [a for a in panel.legal if cid.arg == a.TYPE and group_key(a) == key]
            await panels.choose_or_confirm(desk, interaction, panel, chosen)
            return
        action = pick(panel.legal, values[0] if cid.verb == ids.ACTION_PICK and values else cid.arg)
        if cid.verb in ("ask", ids.ACTION_PICK) and action.TYPE not in panels.NO_CONFIRM:
            await panels.confirm_panel(desk, interaction, panel, action)
            return
        await panels.submit_from_panel(desk, interaction, cid.game, panel.summary.seq, action)


class ZoomButton(_Family, template=ids.template((zoom.VERB,))):
    """Zoom under a turn post: the last move's area, enlarged, for the presser."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        await zoom.zoom_on_button(desk, interaction, self.cid.game, self.cid.arg)


class HintButton(_Family, template=ids.template((tutorial.HINT,))):
    """Hint: the normal AI's move in the presser's place, privately (where the table allows)."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        await tutorial.show_hint(desk, interaction, self.cid.game)


def _seq(cid: ids.Cid) -> int:
    if cid.seq is None:
        raise Refusal("That button is not one I know.")
    return cid.seq


FAMILIES: tuple[type[_Family], ...] = (LobbyButton, HandButton, TicketsButton, TurnButton, ChoiceItem, ZoomButton,
                                       HintButton)
