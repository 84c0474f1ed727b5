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
from bot_app import text
from bot_app.player_posts import thread_link
from bot_app.posts import Message
from bot_app.words.base import joined, plural
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


def result_words(view: View, seat: int) -> str:
    """"you won with 102 points", "you came 2nd of 3 with 87 points (Alice won with 102)"."""
    where = standing(view, seat)
    if where is None:
        return "it has ended"
    points = plural(where.total, "point")
    if seat in where.winners:
        others = [view.name(w) for w in where.winners if w != seat]
        return f"you won with {points}" + (f", level with {joined(others)}" if others else "")
    best = view.result.get("sheets", []) if view.result else []
    winner_total = max((int(s.get("total", 0)) for s in best), default=0)
    names = joined([f"**{view.name(w)}**" for w in where.winners])
    won = f"{names} won with {winner_total}" if where.winners else "nobody won"
    return f"you came {ordinal(where.place)} of {where.players} with {points} ({won})"


def direct_message(news: HandData) -> Message:
    """The news by DM."""
    s = news.summary
    title = text.variant_title(s.variant)
    return Message(f"🏁 **Game #{s.game_id} · {title} is over**: {result_words(news.view, news.seat)}.\n"
                   f"The final scores, every ticket revealed and the replay: {final_post_link(s)}")


def mention(user_id: int, news: HandData) -> Message:
    """The news as a mention in the game's thread (the player's DMs are closed)."""
    s = news.summary
    return Message(f"🏁 <@{user_id}>, game #{s.game_id} is over: {result_words(news.view, news.seat)}. "
                   f"The final scores: {final_post_link(s)}")


def digest_line(news: HandData) -> str:
    """The news as a line of the player's daily digest."""
    s = news.summary
    return (f"🏁 Game #{s.game_id} · {text.variant_title(s.variant)} ended: {result_words(news.view, news.seat)} — "
            f"{final_post_link(s)}")
