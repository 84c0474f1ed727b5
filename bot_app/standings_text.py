"""Words for leaderboards and player cards: pure functions of the service's answers, so unit
tests read them directly. Only results are shown (public once a game ends), never a hand."""

from __future__ import annotations

from app.ratings import Standing
from app.standings import Leaderboard, PlayerCard
from bot_app.text import variant_title

SHOWN = 15  # lines of a leaderboard (Discord's message limit leaves room for more; eyes do not)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def who(standing: Standing) -> str:
    """A player's name on the board (as in their latest rated game; never a mention, which
    would ping everyone listed), or the level of an AI."""
    kind, _, ident = standing.key.partition(":")
    return standing.name if kind == "user" else f"🤖 AI ({ident})"


def leaderboard_text(board: Leaderboard, *, you: int | None = None) -> str:
    """A server's ranking in a few lines: rank, rating, name, games, wins, average score."""
    what = variant_title(board.variant) if board.variant else "every variant"
    season = f"season {board.season.number}" + ("" if board.season.ends_at is None else " (ended)")
    head = f"🏆 **Leaderboard** — {what}, {season}"
    if not board.standings:
        return (f"{head}\nNo rated games yet: a game counts once it ends with at least two players"
                + ("." if board.rate_ai_games else " (games with AI players do not count here)."))
    lines = [head]
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for rank, s in enumerate(board.standings[:SHOWN], 1):
        mark = medals.get(rank, f"`{rank:>2}.`")
        lines.append(f"{mark} **{s.shown}** {who(s)} — {_plural(s.games, 'game')}, {_plural(s.wins, 'win')}, "
                     f"average {s.average_score:.0f}")
    mine = next((i for i, s in enumerate(board.standings, 1) if s.key == f"user:{you}"), None)
    if mine is not None and mine > SHOWN:
        s = board.standings[mine - 1]
        lines.append(f"…\n`{mine:>2}.` **{s.shown}** {who(s)} — you")
    rated = _plural(board.games, "rated game")
    ai = "games with AI players count" if board.rate_ai_games else "games with AI players do not count"
    lines.append(f"-# {rated}; OpenSkill rating (mu − 3σ, ×40; a newcomer shows 0); {ai}.")
    return "\n".join(lines)


def card_text(card: PlayerCard) -> str:
    """A player's card in words (the picture says the same)."""
    rating = (f"rating **{card.rating}** (#{card.rank} this season)" if card.rating is not None
              else "not rated yet this season")
    parts = [f"**{card.name}** — {rating}",
             f"{_plural(card.games, 'game')}, {_plural(card.wins, 'win')}, average score {card.average_score:.0f}, "
             f"{card.ticket_rate:.0%} of tickets completed"]
    if card.favourite_routes:
        parts.append("Favourite routes: " + ", ".join(f"{name} ×{n}" for name, n in card.favourite_routes))
    if card.favourite_cities:
        parts.append("Favourite cities: " + ", ".join(f"{name} ×{n}" for name, n in card.favourite_cities))
    return "\n".join(parts)
