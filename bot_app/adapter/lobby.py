"""Tables before the game: the lobby message, its thread, and its buttons and commands.

A lobby lives in a text channel; its game is played in a thread made from the lobby message.
If Discord will not let the bot make that thread, the table is closed at once and the host is
told which permission is missing — a game never starts without a place to play.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from ai.levels import AI_LEVELS, OFFERED_LEVELS
from app import Lobby
from app.player_clock import MOST_AWAY_DAYS
from bot_app import lang
from bot_app.adapter.desk import Desk
from bot_app.presentation import ids, table_options, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import button, view_of
from bot_app.presentation.inputs import excerpt, is_number
from engine.rulesets import available_variants

log = logging.getLogger("bot_app")

LOBBY_VERBS = ("join", "leave", "addai", "start", "cancel")
MIN_HOURS, MAX_HOURS = 0.01, 720.0  # a turn's limit, as /ttr new offers it


def lobby_text(lobby: Lobby, default_hours: float) -> str:
    """The lobby message, in the table's language (its option list too)."""
    words = lang.table_language(lobby.options)
    seats = "\n".join(f"{i + 1}. {'🤖 ' + s.name if s.is_ai else f'<@{s.user_id}>'}"
                      for i, s in enumerate(lobby.seats)) or words.t("lobby.nobody")
    hours = lobby.turn_hours or default_hours
    where = words.t("lobby.thread", thread=f"<#{lobby.thread_id}>") if lobby.thread_id else ""
    head = words.t("lobby.head", game=f"#{lobby.game_id}", title=text.variant_title(lobby.variant), where=where)
    if lobby.status == "lobby":
        state = words.t("lobby.state", host=f"<@{lobby.host_user_id}>", seats=len(lobby.seats),
                        wanted=lobby.seats_wanted, hours=f"{hours:g}")
    elif lobby.status == "cancelled":
        state = words.t("lobby.closed")
    else:
        state = words.t("lobby.started")
    names = [s.name for s in lobby.seats]
    options = words.t("lobby.options", options=" · ".join([*table_options.option_lines(lobby.options, names),
                                                           _vacations(lobby.max_away_days, words)]))
    return f"{head}\n{state}\n{options}\n{seats}"


def _vacations(days: float, words: lang.Language) -> str:
    if days <= 0:
        return words.t("lobby.no_vacations")
    if days == int(days):
        return words.n("lobby.vacations", int(days))
    return words.t("lobby.vacations_days", days=f"{days:g}")


def lobby_view(lobby: Lobby) -> discord.ui.View:
    if lobby.status != "lobby":
        return view_of()
    g = lobby.game_id
    full = lobby.full
    words = lang.table_language(lobby.options)
    return view_of(
        button(words.t("button.join"), ids.make(g, None, "join"), discord.ButtonStyle.success, disabled=full),
        button(words.t("button.leave"), ids.make(g, None, "leave")),
        button(words.t("button.add_ai"), ids.make(g, None, "addai", str(len(lobby.seats))), disabled=full),
        button(words.t("button.start"), ids.make(g, None, "start"), discord.ButtonStyle.primary),
        button(words.t("button.cancel"), ids.make(g, None, "cancel"), discord.ButtonStyle.danger),
    )


async def open_table(desk: Desk, interaction: discord.Interaction, variant: str, dice: bool, seats: int,
                     turn_hours: float | None, chosen: Mapping[str, object] | None = None,
                     first: object = None, undo: bool = True, away_days: object = 7,
                     stand_in: str | None = None, plan_ahead: bool = False, language: str | None = None,
                     hints: bool = False) -> None:
    """`/ttr new`: the lobby message, then the game's thread made from it. `chosen`: the table
    options the host gave (bot_app.presentation.table_options), `first`: who plays first, `away_days`: the
    longest vacation a player's clock stops for at this table, `stand_in`: the AI level that
    plays for absent players, `plan_ahead`: players may plan two turns ahead, `language`: the
    thread's language (by default the server's preferred one, English where it has no catalogue),
    `hints`: a player may ask for a hint (the normal AI's move)."""
    said = lang.reader()
    if interaction.guild_id is None or interaction.channel is None:
        raise Refusal(said.t("lobby.refusal.not_in_dm"))
    if isinstance(interaction.channel, discord.Thread):
        raise Refusal(said.t("lobby.refusal.not_in_thread"))
    variant = (variant or "").strip().lower()
    if variant not in available_variants():
        raise Refusal(said.t("lobby.refusal.variant", given=excerpt(variant, 20),
                             known=", ".join(available_variants())))
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= table_options.MOST_SEATS:
        raise Refusal(said.t("lobby.refusal.seats", most=table_options.MOST_SEATS, given=excerpt(seats, 12)))
    if turn_hours is not None and not (isinstance(turn_hours, int | float) and MIN_HOURS <= turn_hours <= MAX_HOURS):
        raise Refusal(said.t("lobby.refusal.hours", least=f"{MIN_HOURS:g}", most=f"{MAX_HOURS:g}",
                             given=excerpt(turn_hours, 12)))
    if not isinstance(away_days, int) or isinstance(away_days, bool) or not 0 <= away_days <= MOST_AWAY_DAYS:
        raise Refusal(said.t("lobby.refusal.away_days", most=MOST_AWAY_DAYS, given=excerpt(away_days, 12)))
    options = table_options.table_options(variant, bool(dice), seats, chosen or {}, first, bool(undo),
                                            stand_in, bool(plan_ahead), bool(hints))
    if language is not None and language not in lang.codes():
        raise Refusal(said.t("lobby.refusal.language", given=excerpt(language, 12), known=", ".join(lang.codes())))
    code = language or lang.code_for(interaction.guild_locale)
    if code != lang.ENGLISH:  # kept with the table's options, so a restart keeps it
        options[lang.LANGUAGE_OPTION] = code
    lobby = await desk.service.tables.create_lobby(
        interaction.guild_id, interaction.channel.id, interaction.user.id, interaction.user.display_name,
        variant, options, seats_wanted=seats, turn_hours=turn_hours or desk.default_turn_hours,
        max_away_days=away_days)
    if not lobby.changed:
        raise Refusal(said.t("lobby.refusal.already_open", game=f"#{lobby.game_id}"))
    await interaction.response.send_message(lobby_text(lobby, desk.default_turn_hours), view=lobby_view(lobby))
    desk.answers.answered(interaction)
    message = await interaction.original_response()
    try:
        thread = await message.create_thread(name=text.thread_name(lobby.game_id, variant),
                                             auto_archive_duration=10080)
    except discord.HTTPException as exc:
        # No thread, no game: close the table and say which permission is missing.
        log.warning("game %d: could not open a thread (%s %s)", lobby.game_id, exc.status, exc.code)
        closed = await desk.service.tables.cancel_lobby(lobby.game_id, interaction.user.id)
        await message.edit(content=lobby_text(closed, desk.default_turn_hours), view=lobby_view(closed))
        await interaction.followup.send(
            said.t("lobby.no_thread", permissions=said.t("lobby.thread_permissions"),
                   channel=f"<#{interaction.channel.id}>"),
            ephemeral=True)
        return
    await desk.service.tables.set_thread(lobby.game_id, thread.id)
    lobby = await desk.service.tables.lobby(lobby.game_id)
    words = lang.table_language(lobby.options)
    await thread.send(words.t("lobby.thread_intro", game=f"#{lobby.game_id}", button=words.t("button.join")))
    await message.edit(content=lobby_text(lobby, desk.default_turn_hours), view=lobby_view(lobby))


async def lobby_action(desk: Desk, interaction: discord.Interaction, game_id: int, verb: str, arg: str = "",
                       level: str = "normal", from_button: bool = True) -> None:
    """A lobby button (or its command): join, leave, add an AI, start, cancel."""
    user = interaction.user
    svc = desk.service
    said = lang.reader()
    if verb == "join":
        lobby = await svc.tables.join(game_id, user.id, user.display_name)
        note = said.t("lobby.seated" if lobby.changed else "lobby.already_seated")
    elif verb == "leave":
        lobby = await svc.tables.leave(game_id, user.id)
        note = said.t("lobby.left" if lobby.changed else "lobby.not_seated")
    elif verb == "addai":
        if level not in AI_LEVELS:
            raise Refusal(said.t("lobby.refusal.ai_level", given=excerpt(level, 20), known=", ".join(OFFERED_LEVELS)))
        expected = (int(arg) if is_number(arg) else -1) if arg else len((await svc.tables.lobby(game_id)).seats)
        lobby = await svc.tables.add_ai(game_id, user.id, level, expected)
        note = said.t("lobby.ai_seated")
    elif verb == "cancel":
        lobby = await svc.tables.cancel_lobby(game_id, user.id)
        note = said.t("lobby.cancelled")
    elif verb == "start":
        before = await svc.tables.lobby(game_id)
        if before.status == "lobby" and before.thread_id is None:
            raise Refusal(said.t("lobby.refusal.no_thread"))
        await svc.tables.start(game_id, user.id)
        lobby = await svc.tables.lobby(game_id)
        await _answer(desk, interaction, lobby, said.t("lobby.game_started"), from_button)
        await desk.after_move(game_id)
        return
    else:
        raise Refusal(said.t("lobby.refusal.unknown_button"))
    await _answer(desk, interaction, lobby, note, from_button)


async def _answer(desk: Desk, interaction: discord.Interaction, lobby: Lobby, note: str, from_button: bool) -> None:
    if from_button and interaction.message is not None and not interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=lobby_text(lobby, desk.default_turn_hours),
                                                view=lobby_view(lobby))
        desk.answers.answered(interaction)
        return
    await desk.answers.say(interaction, note)
    await _refresh_lobby_message(desk, lobby)


async def _refresh_lobby_message(desk: Desk, lobby: Lobby) -> None:
    """After a typed /ttr join etc., update the lobby post (the thread's starter message has the
    thread's id). Cosmetic: the next change shows the table again if this fails."""
    if lobby.thread_id is None:
        return
    try:
        channel = desk.client.get_partial_messageable(lobby.channel_id)
        await channel.get_partial_message(lobby.thread_id).edit(content=lobby_text(lobby, desk.default_turn_hours),
                                                                view=lobby_view(lobby))
    except discord.HTTPException:
        log.debug("game %d: lobby message not updated", lobby.game_id)
