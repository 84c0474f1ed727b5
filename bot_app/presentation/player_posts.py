"""What the deliveries of issue 19 look like in Discord: a player's daily digest (a DM listing
every game waiting for them, with a link to each thread), the hand of a seat handed to a
substitute (a DM), the thread's notices about a substitute and a vote to skip (with a **Vote to
skip** button), and the line under a turn post saying who is away until when.

Public text names seats and players and shows Discord timestamps (each reader sees their own
time zone); never a card or a ticket. A DM is drawn from its player's own view when it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from app import Delivery, GameSummary, HandData, PostData
from app.owed import NOTICE
from bot_app import lang
from bot_app.presentation import ids, text
from bot_app.presentation.answers import MAX_CONTENT, cut
from bot_app.presentation.components import button, view_of
from bot_app.presentation.posts import Message
from bot_app.presentation.render_hooks import Renderer

VOTE = "vote"  # the verb of the Vote to skip button (bot_app/adapter/votes.py)


def when(t: float) -> str:
    """A moment as Discord shows it to each reader: the date and time in their own time zone,
    and how far off it is."""
    return f"<t:{int(t)}:f> (<t:{int(t)}:R>)"


def thread_link(summary: GameSummary) -> str:
    """A link to the game's thread (or its channel, before the thread exists)."""
    return f"https://discord.com/channels/{summary.guild_id}/{summary.thread_id or summary.channel_id}"


def away_lines(data: PostData) -> list[str]:
    """"Away until" for each seated player on vacation (their clock is stopped meanwhile), in
    the table's language."""
    words = lang.table_language(data.view.options)
    names = {s.seat: s.name for s in data.summary.seats}
    return [words.t("notice.away", who=names.get(seat) or words.t("notice.seat", seat=seat + 1), when=when(until))
            for seat, until in sorted(data.away.items())]


def with_away(message: Message, data: PostData) -> Message:
    """A turn post with the "away until" lines under it."""
    lines = away_lines(data)
    if not lines or data.final:
        return message
    return replace(message, content=cut("\n".join([message.content, *lines]), MAX_CONTENT))


def ping_only(data: PostData) -> discord.AllowedMentions:
    """Whom a turn post may ping: everyone it mentions but the players in quiet hours, away, or
    taking a daily digest instead (their name still shows, without a notification)."""
    quiet = set(data.quiet_users)
    users = [discord.Object(s.user_id) for s in data.summary.seats if s.user_id is not None and s.user_id not in quiet]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


def digest(delivery: Delivery, waiting: Sequence[tuple[GameSummary, float | None]],
           news: Sequence[str] = ()) -> Message:
    """A player's daily digest: every game waiting for them, with a link to its thread and
    when the AI plays for them there; then the news of their games that ended (`news`, one
    line each). In the reader's language (`lang.reading` around the call)."""
    words = lang.reader()
    count = words.n("digest.waiting", len(waiting))
    lines = [words.t("digest.head", count=count) + (":" if waiting else ".")]
    for summary, limit in waiting:
        due = words.t("digest.due", when=when(limit)) if limit is not None else ""
        lines.append(words.t("digest.game", game=f"#{summary.game_id}", title=text.variant_title(summary.variant),
                             link=thread_link(summary)) + due)
    lines += news
    lines.append(words.t("digest.change"))
    return Message(cut("\n".join(lines), MAX_CONTENT))


async def seat_dm(hand: HandData, renderer: Renderer) -> Message:
    """The hand of a seat just handed to this player, privately (in their language, else the
    table's)."""
    summary = hand.summary
    where = f" ({thread_link(summary)})" if summary.thread_id else ""
    with lang.reading(lang.for_reader(hand.settings.language, lang.table_language(hand.view.options))) as words:
        lines = [words.t("notice.seat_dm", seat=hand.seat + 1, game=f"#{summary.game_id}", where=where),
                 text.hand_text(hand.view, summary.game_id)]
        if hand.seat in summary.waiting_for:
            lines.insert(1, words.t("notice.your_turn"))
    files = ([("hand.png", await renderer.hand(hand.view, colorblind=hand.settings.colorblind))]
             if hand.settings.hand_picture else [])
    return Message(cut("\n".join(lines), MAX_CONTENT), files)


def notice(delivery: Delivery, summary: GameSummary) -> Message | None:
    """The thread's notice about a substitute or a vote to skip (None: another notice)."""
    if delivery.kind != NOTICE:
        return None
    p: dict[str, Any] = dict(delivery.payload)
    seat = p.get("seat") if isinstance(p.get("seat"), int) else None
    if seat is None or not 0 <= seat < len(summary.seats):
        return None
    name = summary.seats[seat].name
    g = summary.game_id
    words = lang.language(summary.language)  # the thread's
    if p.get("notice") == "replaced":
        who = f"<@{delivery.user_id}>" if delivery.user_id else f"**{name}**"
        was = words.t("notice.ai_seat") if p.get("was_ai") else words.t("notice.seat", seat=seat + 1)
        key = "notice.replaced_stand_in" if p.get("stand_in") else "notice.replaced"
        return Message(words.t(key, who=who, was=was, game=f"#{g}"))
    if p.get("notice") == "vote":
        votes, needed = p.get("votes"), p.get("needed")
        return Message(
            words.t("notice.vote", who=name, votes=votes, needed=needed),
            view=view_of(button(words.t("button.vote_skip"), ids.make(g, delivery.seq, VOTE, str(seat)),
                                discord.ButtonStyle.secondary, "🗳️")))
    if p.get("notice") == "skipped":
        return Message(words.t("notice.skipped_keeps" if p.get("keeps") else "notice.skipped", who=name))
    return None


def taken_back(delivery: Delivery, summary: GameSummary) -> Message:
    """The word to a player pinged for a turn that its mover then took back (by DM)."""
    words = lang.reader(lang.language(summary.language))
    by = delivery.payload.get("by")
    name = summary.seats[by].name if isinstance(by, int) and 0 <= by < len(summary.seats) else None
    return Message(words.t("notice.taken_back", who=name or words.t("notice.last_player"),
                           game=f"#{summary.game_id}", link=thread_link(summary)))
