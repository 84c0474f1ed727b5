"""What each delivery looks like in Discord: the turn post, the final results, a player's
hand by DM, and the notices (a reminder, DMs closed, the AI standing in, a host's warning).

Public messages are built only from public views and public events; a DM only from the
player's own view and the events only they saw. Deadlines are Discord timestamps
(`<t:UNIX:R>`), which every player sees in their own time zone.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from app import Delivery, GameSummary, HandData, PostData
from app.owed import DM_CLOSED, HOST_NOTICE, NOTICE, REMINDER
from bot_app.lang import for_reader, reading, table_language
from bot_app.presentation import after_game, ids, text
from bot_app.presentation.answers import MAX_CONTENT, cut
from bot_app.presentation.board_alt import MAX_ITEM_DESCRIPTION, board_description
from bot_app.presentation.components import button, view_of
from bot_app.presentation.panels import action_buttons
from bot_app.presentation.plan_button import plan_button
from bot_app.presentation.render_hooks import Renderer
from bot_app.presentation.zoom import zoom_button
from engine.core import TurnStarted
from engine.view import View


@dataclass
class Message:
    """A message to send: its text, its pictures (name, PNG bytes) and its components; `more`
    holds the text that did not fit in one message, sent right after it (long final results
    are split, never cut)."""

    content: str
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    more: list[str] = field(default_factory=list)
    descriptions: dict[str, str] = field(default_factory=dict)  # a picture's words, by file name
    # the same, within a layout's 256 characters for a media item (bot_app/presentation/layout.py), by file name
    brief: dict[str, str] = field(default_factory=dict)

    def discord_files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), name, description=self.descriptions.get(name))
                for name, data in self.files]


def deadline(when: float) -> str:
    """A moment as a Discord timestamp, shown relative and in each reader's own time zone."""
    return f"<t:{int(when)}:R>"


def _mentions(summary: GameSummary) -> dict[int, str]:
    return {s.seat: f"<@{s.user_id}>" for s in summary.seats if s.user_id is not None and s.stand_in is None}


def _note_line(note: Mapping[str, Any], view: View) -> str:
    if note.get("kind") == "time_ran_out":
        who = text.name_of(view, note.get("seat") if isinstance(note.get("seat"), int) else None)
        if note.get("keeps"):
            return (f"⏰ Time ran out for **{who}**: the AI played their turn — and keeps the seat until they come "
                    f"back with any game command ({note.get('turns')} turns in a row).")
        return f"⏰ Time ran out for **{who}**: the AI played their turn."
    return ""


def _head(data: PostData) -> str:
    view, summary = data.view, data.summary
    return table_language(view.options).t("post.head", game=f"#{summary.game_id}",
                                           title=text.variant_title(view.variant, view.options,
                                                                    table_language(view.options)),
                                           turn=view.turn + 1, move=summary.seq)


def _with_log(parts: list[str], events: list[Any], view: View, room: int) -> list[str]:
    """`parts` with the log of `events` after the first part, as much of it as fits in `room`
    characters besides them (the newest lines kept)."""
    used = sum(len(p) + 1 for p in parts)
    log = text.recent_lines(events, view, max(200, room - used))
    return [parts[0], *log, *parts[1:]]


def _before_this_turn(events: list[Any]) -> list[Any]:
    """The events a turn post tells: what happened before the turn now waiting began. What
    began it (the dice rolled for the player) the table below shows as it stands now."""
    starts = [i for i, e in enumerate(events) if isinstance(e.payload, TurnStarted)]
    return events[:starts[-1]] if starts else events


async def turn_post(data: PostData, renderer: Renderer) -> Message:
    """The post showing the game now: what happened since the thread last showed it, the
    board with those moves marked, everyone's public numbers and the table as text (the
    picture is small on a phone), whose turn it is and until when."""
    view, summary = data.view, data.summary
    g = summary.game_id
    gmap = text.game_map(view)
    events = list(data.events)
    routes, cities = text.highlights(events)
    board = await renderer.board(view, tuple(r for r in routes if r in gmap.routes), cities,
                                 colorblind=data.colorblind)
    notes = [line for n in data.notes if (line := _note_line(n, view))]
    if data.final:
        # The final post: the board, the score sheet, every ticket revealed on the map, and the
        # replay (rebuilt from the log at each try, so a retry posts the same pictures).
        files = [("board.png", board), ("scores.png", await renderer.scores(view)),
                 (after_game.TICKETS_FILE, await renderer.tickets(view))]
        if data.replay:
            files.append((after_game.REPLAY_FILE, await renderer.replay(data.replay)))
        lead = "\n".join(_with_log([_head(data), *notes], events, view, 1200))
        words = table_language(view.options)
        messages = text.split([lead, words.t("final.title"), *text.final_blocks(view),
                               after_game.final_pictures_line(g, bool(data.replay), words)], MAX_CONTENT)
        rematch = view_of(after_game.rematch_button(g, words.t("button.rematch")))
        return Message(messages[0], files, rematch, more=messages[1:],
                       descriptions={"board.png": board_description(view, events, (), g)},
                       brief={"board.png": board_description(view, events, (), g, MAX_ITEM_DESCRIPTION)})
    waiting = list(summary.waiting_for)
    line = text.waiting_line(view, waiting, _mentions(summary))
    due = [data.deadlines[s] for s in waiting if s in data.deadlines]
    words = table_language(view.options)
    if summary.paused_reason:
        line += "\n" + words.t("post.paused", reason=summary.paused_reason)
    elif due and line:
        line += " " + words.t("post.ai_plays_it" if len(waiting) == 1 else "post.ai_plays_rest",
                              when=deadline(min(due)))
    parts = [x for x in (_head(data), *notes, text.status_block(view), line) if x]
    content = "\n".join(_with_log(parts, _before_this_turn(events), view, MAX_CONTENT))
    if data.legal:
        zoom = zoom_button(g, gmap, routes, cities, view)  # the last move's area, for a phone
        buttons = action_buttons(g, summary.seq, list(data.legal), view, [zoom] if zoom is not None else [])
        buttons.add_item(plan_button(g, table_language(view.options).t("button.plan")))  # for the others (issue 29)
    else:
        words = table_language(view.options)
        buttons = view_of(
            button(words.t("button.choose_tickets"), ids.make(g, None, "kt"), discord.ButtonStyle.primary, "🎫"),
            button(words.t("button.my_hand"), ids.make(g, None, "hand"), discord.ButtonStyle.secondary, "✋"))
    told = _before_this_turn(events)
    alt = board_description(view, told, waiting, g)  # for a screen reader
    brief = board_description(view, told, waiting, g, MAX_ITEM_DESCRIPTION)  # the same in a layout's room
    return Message(cut(content, MAX_CONTENT), [("board.png", board)], buttons, descriptions={"board.png": alt},
                   brief={"board.png": brief})


async def hand_dm(delivery: Delivery, hand: HandData, renderer: Renderer) -> Message:
    """A player's hand by DM: at the start of their turn (with its picture, unless they turned
    it off in /ttr settings), or after a move that showed them something (what they drew)."""
    g = hand.summary.game_id
    lines = []
    # In the player's own language (/ttr settings language:), else the table's.
    with reading(for_reader(hand.settings.language, table_language(hand.view.options))) as words:
        if delivery.kind == "turn":
            where = f" (<#{hand.summary.thread_id}>)" if hand.summary.thread_id else ""
            if hand.view.pending.setup:
                lines.append(words.t("dm.begun", game=f"#{g}", where=where, button=words.t("button.choose_tickets")))
            else:
                lines.append(words.t("dm.your_turn", game=f"#{g}", where=where))
        lines += text.private_lines(list(hand.private_events), hand.view)
        lines.append(text.hand_text(hand.view, g))
        picture = delivery.kind == "turn" and hand.settings.hand_picture
        # drawn inside the block: the picture's words are the DM's language
        files = [("hand.png", await renderer.hand(hand.view, colorblind=hand.settings.colorblind))] if picture else []
    messages = text.split([x for x in lines if x], MAX_CONTENT)
    return Message(messages[0], files, more=messages[1:])


def notice(delivery: Delivery, summary: GameSummary) -> Message:
    """A notice in the game's thread (or, for the host, in the channel or by DM)."""
    g = summary.game_id
    p = delivery.payload
    words = table_language({"language": summary.language})  # the thread's (and its host's)
    seat = p.get("seat") if isinstance(p.get("seat"), int) else None
    known = seat is not None and 0 <= seat < len(summary.seats)
    name = summary.seats[seat].name if known and seat is not None else words.t("notice.someone")
    if delivery.kind == DM_CLOSED:
        return Message(
            words.t("notice.dm_closed", who=f"<@{delivery.user_id}>", hand=words.t("button.my_hand"),
                    again=words.t("button.dms_open")),
            view=view_of(button(words.t("button.my_hand"), ids.make(g, None, "hand"), emoji="✋"),
                         button(words.t("button.dms_open"), ids.make(g, None, "dmon"), emoji="📬")))
    if delivery.kind == REMINDER:
        who = f"<@{delivery.user_id}>" if delivery.user_id else f"**{name}**"
        limit = p.get("due_at")
        when = deadline(float(limit)) if isinstance(limit, int | float) else words.t("notice.soon")
        return Message(words.t("notice.reminder", who=who, game=f"#{g}", when=when))
    if delivery.kind == NOTICE and p.get("notice") == "stand_in":
        return Message(words.t("notice.stand_in", who=name))
    if delivery.kind == HOST_NOTICE:
        reason = p.get("reason") or words.t("notice.refused_message")
        return Message(words.t("notice.paused", host=f"<@{summary.host_user_id}>", game=f"#{g}", reason=reason))
    return Message(words.t("notice.other", game=f"#{g}", kind=delivery.kind.replace("_", " ")))
