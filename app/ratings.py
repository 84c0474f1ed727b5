"""Server leaderboards: OpenSkill ratings computed from the stored final results.

Why OpenSkill (its Plackett-Luce model) rather than Elo or TrueSkill: a Ticket to Ride game has
two to five players and shared places, which Elo only handles by pretending the game was a set
of duels; OpenSkill rates a free-for-all with ties directly, is pure Python under the MIT
licence (TrueSkill is a Microsoft trademark with a patent history), and is fast enough to
recompute a server's whole season on demand.

Ratings are never stored: they are a pure function of the results of a season, in the order
the games finished (`finished_at`, then the game id). So recomputing a season always gives the
same numbers, a new season is just a later starting time, and changing whether games with AI
players count only changes which results are read.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from store.records import ResultRow

# The model's defaults (mu 25, sigma 25/3): the library's documented starting rating.
MODEL = PlackettLuce()
# The number shown is the conservative estimate mu - 3 sigma, scaled so that a newcomer shows 0
# and a strong regular several hundred points higher; the order is the library's `ordinal`.
DISPLAY_SCALE = 40


def player_key(row: ResultRow) -> str:
    """Who a result row belongs to on a leaderboard: a user, or one AI level ("ai:greedy")."""
    if row.is_ai or row.user_id is None:
        return f"ai:{row.ai_level or 'ai'}"
    return f"user:{row.user_id}"


@dataclass
class Standing:
    """One player's line on a leaderboard."""

    key: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    points: int = 0
    tickets_completed: int = 0
    tickets_failed: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating the board is sorted by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as players see it: a whole number, 0 for a newcomer."""
        return round(self.ordinal * DISPLAY_SCALE)

    @property
    def average_score(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def ticket_rate(self) -> float:
        """The share of destination tickets completed, 0..1."""
        done = self.tickets_completed + self.tickets_failed
        return self.tickets_completed / done if done else 0.0


@dataclass
class Ratings:
    """Ratings folded over results in finishing order; `add_game` takes one game's rows."""

    count_ai_games: bool = True
    standings: dict[str, Standing] = field(default_factory=dict)
    # The (finished_at, game_id) of the last game folded in: an update reads only what came after.
    last: tuple[float, int] = (-math.inf, -1)
    games: int = 0

    def add_game(self, rows: Sequence[ResultRow]) -> None:
        """Rate one finished game (its rows, one per seat). A game with an AI seat counts only
        when the server counts them; a game with fewer than two rated seats changes nothing."""
        if not rows:
            return
        self.last = max(self.last, (rows[0].finished_at, rows[0].game_id))
        if not self.count_ai_games and any(r.is_ai for r in rows):
            return
        keyed: dict[str, ResultRow] = {}
        for row in sorted(rows, key=lambda r: r.seat):
            # Two AI seats of one level are one "player" on the board: rate the better placed.
            keyed.setdefault(player_key(row), row)
        if len(keyed) < 2:
            return
        self.games += 1
        entries = list(keyed.items())
        teams = [[self._rating(key, row)] for key, row in entries]
        rated = MODEL.rate(teams, ranks=[float(row.place) for _, row in entries])
        for (key, row), [after] in zip(entries, rated, strict=True):
            standing = self.standings[key]
            standing.mu, standing.sigma = after.mu, after.sigma
            standing.name = row.name
            standing.games += 1
            standing.wins += int(row.won)
            standing.points += row.score
            standing.tickets_completed += row.tickets_completed
            standing.tickets_failed += row.tickets_failed

    def add_results(self, rows: Iterable[ResultRow]) -> None:
        """Fold in result rows in finishing order (rows of one game are adjacent)."""
        game: list[ResultRow] = []
        for row in sorted(rows, key=lambda r: (r.finished_at, r.game_id, r.seat)):
            if game and game[0].game_id != row.game_id:
                self.add_game(game)
                game = []
            game.append(row)
        self.add_game(game)

    def ranking(self) -> list[Standing]:
        """Everyone rated, best first (ties by more games, then by name)."""
        return sorted(self.standings.values(), key=lambda s: (-s.ordinal, -s.games, s.name))

    def _rating(self, key: str, row: ResultRow) -> PlackettLuceRating:
        standing = self.standings.get(key)
        if standing is None:
            start = MODEL.rating()
            standing = self.standings[key] = Standing(key, row.name, start.mu, start.sigma)
        return MODEL.rating(mu=standing.mu, sigma=standing.sigma, name=key)


def rate(rows: Iterable[ResultRow], count_ai_games: bool = True) -> Ratings:
    """The ratings of a set of results, computed from scratch."""
    ratings = Ratings(count_ai_games=count_ai_games)
    ratings.add_results(rows)
    return ratings
