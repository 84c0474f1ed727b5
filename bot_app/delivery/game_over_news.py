"""What the news of a game's end looks like (app/owed.py `game_over`): the result, the
player's own place and score, and a link to the final post — by direct message, as a mention
in the thread where the player's DMs are closed, or as a line of their daily digest.

Everything said here is public once the game is over (the final post shows every score and
reveals every ticket); the news is drawn from the player's own view when it is sent, never
from what the move remembered.
"""

from __future__ import annotations

from dataclasses import dataclass

from app import GameSummary, HandData
from bot_app.lang import ENGLISH, Language, english, for_reader, table_language
from bot_app.presentation import text
from bot_app.presentation.player_posts import thread_link
from bot_app.presentation.posts import Message
from bot_app.presentation.words.base import joined
from engine.view import View


@dataclass(frozen=True)
class Standing:
    """Where a seat finished: its place (1 for a winner; players level share a place), out of
    how many, its total, and the winners (seats)."""

    place: int
    players: int
    total: int
    winners: tuple[int, ...]


def standing(view: View, seat: int) -> Standing | None:
    """Where `seat` finished, from the view's final result (None: no result to read)."""
    result = view.result or {}
    totals = {int(s["seat"]): int(s.get("total", 0)) for s in result.get("sheets", []) if "seat" in s}
    winners = tuple(int(w) for w in result.get("winners", []))
    if seat not in totals:
        return None
    mine = totals[seat]
    ahead = 0 if seat in winners else sum(1 for s, total in totals.items() if s in winners or total > mine)
    return Standing(ahead + 1, len(totals), mine, winners)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def final_post_link(summary: GameSummary) -> str:
    """A link to the final post (or to the thread, while that post is not there yet)."""
    if summary.thread_id is not None and summary.turn_post_id is not None and summary.turn_post_seq == summary.seq:
        return f"https://discord.com/channels/{summary.guild_id}/{summary.thread_id}/{summary.turn_post_id}"
    return thread_link(summary)


def result_words(view: View, seat: int, lang: Language | None = None) -> str:
    """"you won with 102 points", "you came 2nd of 3 with 87 points (Alice won with 102)"."""
    words = lang or english()
    where = standing(view, seat)
    if where is None:
        return words.t("news.ended")
    points = words.n("news.points", where.total)
    if seat in where.winners:
        others = [view.name(w) for w in where.winners if w != seat]
        if others:
            return words.t("news.won_level", points=points, others=joined(others, words.t("word.and")))
        return words.t("news.won", points=points)
    best = view.result.get("sheets", []) if view.result else []
    winner_total = max((int(s.get("total", 0)) for s in best), default=0)
    names = joined([f"**{view.name(w)}**" for w in where.winners], words.t("word.and"))
    won = words.t("news.winner", names=names, total=winner_total) if where.winners else words.t("news.nobody_won")
    # English writes the place as an ordinal ("2nd"); the other catalogues write it around the number.
    place = ordinal(where.place) if words.code == ENGLISH else words.number(where.place)
    return words.t("news.came", place=place, players=where.players, points=points, won=won)


def reader_of(news: HandData) -> Language:
    """The language of the news to the player: their own choice, else the table's."""
    return for_reader(news.settings.language, table_language(news.view.options))


def direct_message(news: HandData) -> Message:
    """The news by DM (in the player's language)."""
    s = news.summary
    words = reader_of(news)
    title = text.variant_title(s.variant, None, words)
    return Message(words.t("news.dm", game=f"#{s.game_id}", title=title,
                           result=result_words(news.view, news.seat, words), link=final_post_link(s)))


def mention(user_id: int, news: HandData) -> Message:
    """The news as a mention in the game's thread (the player's DMs are closed): the table's
    language, as everything in the thread."""
    s = news.summary
    words = table_language(news.view.options)
    return Message(words.t("news.mention", who=f"<@{user_id}>", game=f"#{s.game_id}",
                           result=result_words(news.view, news.seat, words), link=final_post_link(s)))


def digest_line(news: HandData) -> str:
    """The news as a line of the player's daily digest (in the player's language)."""
    s = news.summary
    words = reader_of(news)
    return words.t("news.digest", game=f"#{s.game_id}", title=text.variant_title(s.variant, None, words),
                   result=result_words(news.view, news.seat, words), link=final_post_link(s))
