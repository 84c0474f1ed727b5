"""`/ttr rules lesson:` and hints, on Discord's side.

`/ttr rules lesson:` opens a guided game against the computer in a private thread made for
the player (or, where the bot may not make one, in their DMs), or — when they already have one
on this server — answers privately with where it is and the step they are at. Each step's text
is a notice the service owed with the move that reached it (app.tutorial), drawn here, with a
**Hint** button. A hint answers privately with the normal AI's move and one line of why.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from app import Delivery, GameSummary
from app.tutorial import FINALE, NOTICE, Lesson, lessons
from app.tutorial_ops import TutorialPlace
from bot_app import lang
from bot_app.presentation import ids, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import button, view_of
from bot_app.presentation.inputs import excerpt
from bot_app.presentation.posts import Message

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk  # the desk is handed in by the adapter

log = logging.getLogger("bot_app")

HINT = "hint"  # the Hint button's verb


def hint_button(game_id: int) -> discord.ui.Button[Any]:
    """💡 Hint: the normal AI's move, privately, for whoever presses it (their own move only)."""
    return button(lang.reader().t("button.hint"), ids.make(game_id, None, HINT), discord.ButtonStyle.secondary, "💡")


def step_text(lesson: Lesson, index: int | str, *, intro: bool = True) -> str:
    """A step as the thread shows it, in the lesson's language: what to do, then why (the
    lesson's intro before the first)."""
    words = lang.language(lesson.language)
    if index == FINALE:
        return lesson.finale or words.t("tutorial.game_over")
    assert isinstance(index, int)
    step = lesson.step(index)
    if step is None:
        return words.t("tutorial.done")
    head = words.t("tutorial.step_head", n=index + 1, total=len(lesson.steps)) + " — "
    why = "\n" + words.t("tutorial.why", why=step.why) if step.why else ""
    start = f"{lesson.intro}\n\n" if intro and index == 0 and lesson.intro else ""
    return f"{start}{head}{step.say}{why}"


def notice(delivery: Delivery, summary: GameSummary) -> Message | None:
    """The thread's notice of a tutorial's step (None: another notice)."""
    p = delivery.payload
    if p.get("notice") != NOTICE:
        return None
    words = lang.language(summary.language)
    lesson = lessons(words.code).get(str(p.get("lesson")))
    step = p.get("step")
    if lesson is None or not (isinstance(step, int) or step == FINALE):
        return Message(words.t("tutorial.gone"))
    over = step == FINALE
    with lang.reading(words):  # the Hint button in the thread's language
        view = None if over else view_of(hint_button(summary.game_id))
    return Message(step_text(lesson, step), view=view)


async def tutorial(desk: Desk, interaction: discord.Interaction, board: str | None) -> None:
    """`/ttr rules lesson:`: resume the player's tutorial on this server, or open one on `board`."""
    if interaction.guild_id is None or interaction.channel is None:
        raise Refusal(lang.reader().t("tutorial.refusal.in_server"))
    svc = desk.service
    place = await svc.tutorial.tutorial_of(interaction.guild_id, interaction.user.id)
    if place is not None and place.status != "lobby":
        await _resume(desk, interaction, place)
        return
    words = lang.reader()  # a lesson is played in the language of the player who opens it
    known = lessons(words.code)
    lesson_id = (board or "europe").strip().lower()
    if lesson_id not in known:
        raise Refusal(words.t("tutorial.refusal.no_lesson", name=excerpt(lesson_id, 20), lessons=", ".join(known)))
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent or channel
    await desk.answers.defer(interaction)
    if place is not None:  # a table left before its start (the bot stopped): deal it now
        game_id = place.game_id
    else:
        lobby = await svc.tutorial.open_tutorial(interaction.guild_id, channel.id, interaction.user.id,
                                        interaction.user.display_name, lesson_id, words.code)
        game_id = lobby.game_id
    where = await _place_to_play(desk, interaction, channel, game_id, known[lesson_id])
    await svc.tutorial.start_tutorial(game_id, interaction.user.id)
    await interaction.followup.send(
        words.t("tutorial.ready", game=str(game_id), title=known[lesson_id].title, where=where), ephemeral=True)
    await desk.after_move(game_id)


async def _place_to_play(desk: Desk, interaction: discord.Interaction, channel: Any, game_id: int,
                         lesson: Lesson) -> str:
    """A private thread for the tutorial, with the player in it; their DMs when the bot may
    not make one. Returns how to name it in a message."""
    summary = await desk.service.reads.game(game_id)
    if summary.thread_id is not None:
        return f"<#{summary.thread_id}>"
    try:
        thread = await channel.create_thread(name=text.thread_name(game_id, lesson.variant),
                                             type=discord.ChannelType.private_thread, invitable=False,
                                             auto_archive_duration=10080)
        await thread.add_user(interaction.user)
        await desk.service.tables.set_thread(game_id, thread.id)
        return f"<#{thread.id}>"
    except (discord.HTTPException, AttributeError) as exc:
        log.info("game %d: no private thread for the tutorial (%s); playing in DMs", game_id, exc)
    dm = await interaction.user.create_dm()
    await desk.service.tables.set_thread(game_id, dm.id)
    return lang.reader().t("tutorial.your_dms")


async def _resume(desk: Desk, interaction: discord.Interaction, place: TutorialPlace) -> None:
    words = lang.reader()
    where = f"<#{place.thread_id}>" if place.thread_id else words.t("tutorial.your_dms")
    if place.status == "over":
        raise Refusal(words.t("tutorial.over", game=str(place.game_id)))
    lesson = lessons(words.code).get(place.lesson.id, place.lesson)  # told in the reader's language
    body = step_text(lesson, place.step, intro=False)
    await desk.answers.say(interaction, words.t("tutorial.waits", game=str(place.game_id), where=where) + "\n" + body,
                           view=view_of(hint_button(place.game_id)))


async def show_hint(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    """A hint, privately: the normal AI's move in the caller's place and one line of why."""
    answer = await desk.service.tutorial.hint(game_id, interaction.user.id)
    move = text.describe_action(answer.hint.action, answer.view)
    await desk.answers.say(interaction, lang.reader().t("tutorial.hint", move=move, why=answer.hint.why))
