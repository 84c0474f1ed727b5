"""Words for leaderboards and player cards: pure functions of the service's answers, so unit
tests read them directly. Only results are shown (public once a game ends), never a hand.
In the language of whoever asked (`lang.reader()`), unless `words` says another."""

from __future__ import annotations

from collections.abc import Sequence

from app import GameSummary
from app.ratings import Standing
from app.standings import Leaderboard, PlayerCard
from bot_app.lang import Language, reader
from bot_app.presentation.text import variant_title

SHOWN = 15  # lines of a leaderboard (Discord's message limit leaves room for more; eyes do not)


def who(standing: Standing, words: Language | None = None) -> str:
    """A player's name on the board (as in their latest rated game; never a mention, which
    would ping everyone listed), or the level of an AI."""
    kind, _, ident = standing.key.partition(":")
    return standing.name if kind == "user" else (words or reader()).t("standings.ai", level=ident)


def leaderboard_text(board: Leaderboard, *, you: int | None = None, words: Language | None = None) -> str:
    """A server's ranking in a few lines: rank, rating, name, games, wins, average score."""
    w = words or reader()
    what = variant_title(board.variant) if board.variant else w.t("standings.every_variant")
    season = w.t("standings.season" if board.season.ends_at is None else "standings.season_ended",
                 n=board.season.number)
    head = w.t("standings.head", what=what, season=season)
    if not board.standings:
        empty = w.t("standings.empty" if board.rate_ai_games else "standings.empty_no_ai")
        return f"{head}\n{empty}"
    lines = [head]
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    for rank, s in enumerate(board.standings[:SHOWN], 1):
        mark = medals.get(rank, f"`{rank:>2}.`")
        # Ratings and scores as before ("1234"), not as counts ("1,234").
        lines.append(w.t("standings.line", mark=mark, rating=str(s.shown), who=who(s, w),
                         games=w.n("standings.games", s.games), wins=w.n("standings.wins", s.wins),
                         average=f"{s.average_score:.0f}"))
    mine = next((i for i, s in enumerate(board.standings, 1) if s.key == f"user:{you}"), None)
    if mine is not None and mine > SHOWN:
        s = board.standings[mine - 1]
        lines.append(w.t("standings.yours", rank=f"{mine:>2}", rating=str(s.shown), who=who(s, w)))
    ai = w.t("standings.ai_count" if board.rate_ai_games else "standings.ai_no_count")
    lines.append(w.t("standings.foot", rated=w.n("standings.rated", board.games), ai=ai))
    return "\n".join(lines)


def card_text(card: PlayerCard, words: Language | None = None) -> str:
    """A player's card in words (the picture says the same)."""
    w = words or reader()
    rating = (w.t("standings.card_rating", rating=str(card.rating), rank=str(card.rank)) if card.rating is not None
              else w.t("standings.card_unrated"))
    parts = [f"**{card.name}** — {rating}",
             w.t("standings.card_record", games=w.n("standings.games", card.games),
                 wins=w.n("standings.wins", card.wins), average=f"{card.average_score:.0f}",
                 pct=f"{card.ticket_rate * 100:.0f}")]
    if card.favourite_routes:
        parts.append(w.t("standings.card_routes", list=", ".join(f"{name} ×{n}" for name, n in card.favourite_routes)))
    if card.favourite_cities:
        parts.append(w.t("standings.card_cities", list=", ".join(f"{name} ×{n}" for name, n in card.favourite_cities)))
    return "\n".join(parts)


def games_text(mine: Sequence[GameSummary], words: Language | None = None) -> str:
    """`/ttr games`: each of the caller's games, its board and whose turn it is waiting on."""
    w = words or reader()
    lines = []
    for s in mine:
        waiting = ", ".join(x.name for x in s.seats if x.seat in s.waiting_for)
        where = w.t("games.where", thread=f"<#{s.thread_id}>") if s.thread_id else ""
        state = (w.t("games.lobby") if s.status == "lobby" else w.t("games.your_turn") if s.your_turn
                 else w.t("games.waiting", who=waiting or w.t("games.nobody")))
        lines.append(w.t("games.line", game=f"#{s.game_id}", title=variant_title(s.variant), state=state, where=where))
    return "\n".join(lines) or w.t("games.none")
