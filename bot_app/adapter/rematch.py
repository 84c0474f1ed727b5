"""**Rematch** under a finished game's final post (issue 27).

Every human player presses it; the service stores each press and, at the last one, opens the
new table (app/rematch_ops.py: same options and seats, the next first player, a new seed). The
bot then gives that table what `/ttr new` gives one — its lobby message in the game's channel
and its thread — and starts it at once, since everyone at the table already said yes. Each
press is answered in the thread, so the others see who is in; a non-player, a second press
and a press after the rematch opened are refused privately in one sentence.

Should the bot stop between the table's opening and its start, the next press of the button
finishes the job (posts what is missing, starts the game) instead of refusing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from app import Lobby, ServiceError
from bot_app.adapter.buttons import _Family
from bot_app.adapter.desk import Desk
from bot_app.adapter.lobby import lobby_text, lobby_view
from bot_app.lang import reader, table_language
from bot_app.presentation import ids, text
from bot_app.presentation.after_game import REMATCH
from bot_app.presentation.answers import Refusal

log = logging.getLogger("bot_app")

def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"**{n}**" for n in names)


async def press(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    """The caller presses Rematch under game `game_id`'s final post."""
    svc = desk.service
    try:
        result = await svc.rematch.press_rematch(game_id, interaction.user.id)
    except ServiceError as exc:
        new = await svc.rematch.rematch_of(game_id) if exc.code == "rematch_opened" else None
        if new is None:
            raise
        table = await svc.tables.lobby(new)
        if table.status != "lobby":  # open and started: the button has done its work
            where = f" (<#{table.thread_id}>)" if table.thread_id else ""
            raise Refusal(reader().t("rematch.refusal.had", game=f"#{game_id}", new=f"#{new}", where=where)) from None
        await desk.answers.defer(interaction, ephemeral=False)
        await _finish(desk, interaction, game_id, table)  # the bot stopped halfway: finish it
        return
    if result.new_game_id is None:  # said in the thread, in the table's language
        words = table_language((await svc.tables.lobby(game_id)).options)
        said = words.t("rematch.pressed", game=f"#{game_id}", pressed=_names(result.pressed),
                       waiting=_names(result.waiting))
        await desk.answers.say(interaction, said, ephemeral=False)
        return
    await desk.answers.defer(interaction, ephemeral=False)
    await _finish(desk, interaction, game_id, await svc.tables.lobby(result.new_game_id))


async def _finish(desk: Desk, interaction: discord.Interaction, game_id: int, table: Lobby) -> None:
    """Give the new table its lobby message and thread (unless it has them), start it, and say
    where it is."""
    svc = desk.service
    if table.thread_id is None:
        channel = desk.client.get_channel(table.channel_id) or await desk.client.fetch_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(reader().t("rematch.refusal.no_channel"))
        message: discord.Message | discord.PartialMessage = await channel.send(
            lobby_text(table, desk.default_turn_hours), view=lobby_view(table))
        thread = await message.create_thread(name=text.thread_name(table.game_id, table.variant),
                                             auto_archive_duration=10080)
        await svc.tables.set_thread(table.game_id, thread.id)
        await thread.send(table_language(table.options).t("rematch.thread_intro", new=f"#{table.game_id}",
                                                          game=f"#{game_id}"))
        table = await svc.tables.lobby(table.game_id)
    else:
        message = desk.client.get_partial_messageable(table.channel_id).get_partial_message(table.thread_id)
    await svc.tables.start(table.game_id, table.host_user_id)
    table = await svc.tables.lobby(table.game_id)
    try:
        await message.edit(content=lobby_text(table, desk.default_turn_hours), view=lobby_view(table))
    except discord.HTTPException:  # cosmetic: the lobby message still names the table
        log.debug("game %d: lobby message not updated", table.game_id)
    first = table.options.get("first_player")
    starts = table.seats[first].name if isinstance(first, int) and 0 <= first < len(table.seats) else "?"
    # (the table's language: this answer is said in the thread, for everyone)
    said = table_language(table.options).t("rematch.opened", game=f"#{game_id}", new=f"#{table.game_id}",
                                            thread=f"<#{table.thread_id}>", first=starts)
    await desk.answers.say(interaction, said, ephemeral=False)
    await desk.after_move(table.game_id)


class RematchButton(_Family, template=ids.template((REMATCH,))):
    """**Rematch** under a final post."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        await press(desk, interaction, self.cid.game)


FAMILIES: tuple[type[Any], ...] = (RematchButton,)
