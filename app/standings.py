"""Leaderboards and seasons of a server, and a player's card: the service's reading of results.

Ratings are computed from the stored results (app/ratings.py) and kept in a small cache per
(server, season, variant, whether AI games count); a later read folds in only the games that
finished since, so a leaderboard costs one query of the new results.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass

from app.core import ServiceCore
from app.errors import ServiceError
from app.models import Caller
from app.ratings import Ratings, Standing, player_key
from engine.maps import load_map
from store.standings import Season

# Leaderboards kept in memory at once (a server, season, variant and AI setting each).
RATINGS_CACHE = 64
# The finished games read for a player's favourite routes and cities (the most recent ones).
CARD_GAMES = 50


class SeasonError(ServiceError):
    code = "season"


def _must_manage(caller: Caller, what: str) -> None:
    if not caller.manages_server:
        raise SeasonError(f"Only someone who can manage this server can {what}.", "not_manager")


@dataclass(frozen=True)
class Leaderboard:
    """One server's ranking for a season and a variant (None: every variant)."""

    guild_id: int
    season: Season
    seasons: int  # how many seasons the server has had
    variant: str | None
    rate_ai_games: bool
    games: int  # rated games
    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class PlayerCard:
    """What /ttr results stats shows of one player on a server: rating and rank this season (every
    variant), record over all their games there, favourites from their latest games."""

    user_id: int
    name: str
    season: int
    rating: int | None  # None: not rated yet this season
    rank: int | None
    games: int
    wins: int
    average_score: float
    ticket_rate: float
    favourite_routes: tuple[tuple[str, int], ...]  # (route label, times claimed)
    favourite_cities: tuple[tuple[str, int], ...]  # (city label, times reached)


class StandingsOps:
    """Leaderboards, seasons and player cards."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        self._ratings: OrderedDict[tuple[int, int, str | None, bool], Ratings] = OrderedDict()

    async def season(self, guild_id: int, number: int | None = None) -> tuple[Season, int]:
        """A server's season (the current one when `number` is None) and how many it has had."""
        seasons = await self.store.standings.seasons(guild_id)
        if number is None:
            return seasons[-1], len(seasons)
        if not 1 <= number <= len(seasons):
            raise SeasonError(f"This server has had {len(seasons)} season{'s' if len(seasons) != 1 else ''}; "
                              f"there is no season {number}.")
        return seasons[number - 1], len(seasons)

    async def ratings(self, guild_id: int, season: Season, variant: str | None) -> Ratings:
        """The ratings of a season, brought up to date with the games finished since the
        cached ones."""
        count_ai = await self.store.standings.rate_ai_games(guild_id)
        key = (guild_id, season.number, variant, count_ai)
        cache = self._ratings
        ratings = cache.pop(key, None) or Ratings(count_ai_games=count_ai)
        rows = await self.store.standings.results_of_guild(guild_id, since=season.started_at, until=season.ends_at,
                                                           after=ratings.last, variant=variant)
        ratings.add_results(rows)
        cache[key] = ratings
        while len(cache) > RATINGS_CACHE:
            cache.popitem(last=False)
        return ratings

    async def leaderboard(self, guild_id: int, variant: str | None = None, season: int | None = None) -> Leaderboard:
        """A server's ranking: this season unless `season` is given; every variant unless
        `variant` is."""
        chosen, count = await self.season(guild_id, season)
        ratings = await self.ratings(guild_id, chosen, variant)
        return Leaderboard(guild_id, chosen, count, variant, ratings.count_ai_games, ratings.games,
                           tuple(ratings.ranking()))

    async def start_season(self, guild_id: int, caller: Caller) -> Season:
        """End the current season and begin the next one now (server managers only)."""
        _must_manage(caller, "start a new season")
        seasons = await self.store.standings.seasons(guild_id)
        tx = self.store.tx()
        tx.standings.start_season(guild_id, len(seasons) + 1, caller.user_id)
        await self.store.write(tx)
        return (await self.store.standings.seasons(guild_id))[-1]

    async def set_rate_ai_games(self, guild_id: int, on: bool, caller: Caller) -> None:
        """Whether games with AI seats count towards this server's ratings (server managers)."""
        _must_manage(caller, "choose whether games with AI players count")
        tx = self.store.tx()
        tx.standings.set_rate_ai_games(guild_id, on)
        await self.store.write(tx)

    async def player_card(self, guild_id: int, user_id: int, name: str) -> PlayerCard:
        """One player's card on a server: this season's rating and rank, record and favourites."""
        chosen, _ = await self.season(guild_id)
        ratings = await self.ratings(guild_id, chosen, None)
        ranking = ratings.ranking()
        key = f"user:{user_id}"
        rank = next((i for i, s in enumerate(ranking, 1) if s.key == key), None)
        mine = ratings.standings.get(key)
        record = await self.store.results.of_user(user_id, guild_id, limit=1_000_000)
        rows = record[:CARD_GAMES]  # newest first
        routes: Counter[str] = Counter()
        cities: Counter[str] = Counter()
        for row in rows:
            if player_key(row) != key:
                continue
            loaded = await self.loader.load(row.game_id)
            state = loaded.state
            game_map = load_map(state.map_id)
            player = state.players[row.seat]
            for route_id in player.routes:
                if route_id in game_map.routes:
                    routes[game_map.route_label(route_id)] += 1
                    route = game_map.routes[route_id]
                    cities.update({game_map.city_label(route.a), game_map.city_label(route.b)})
        scores = [r.score for r in record]
        done = sum(r.tickets_completed for r in record)
        failed = sum(r.tickets_failed for r in record)
        return PlayerCard(
            user_id=user_id,
            name=name,
            season=chosen.number,
            rating=mine.shown if mine else None,
            rank=rank,
            games=len(record),
            wins=sum(1 for r in record if r.won),
            average_score=sum(scores) / len(scores) if scores else 0.0,
            ticket_rate=done / (done + failed) if done + failed else 0.0,
            favourite_routes=tuple(routes.most_common(3)),
            favourite_cities=tuple(cities.most_common(3)),
        )
