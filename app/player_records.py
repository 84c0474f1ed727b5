"""A player's record on a server, for `/ttr stats`: games, wins, average and best score,
ticket completion, games per variant, favourite routes and cities — and a rating when the
ratings part of the bot gives one (`player_rating`, the hook it fills).

Everything here is public once a game is over: results, and the routes and stations each seat
held on the final board (read from the finished games' stored final states). Server-scoped:
only the results of games played in that server (from a DM, the caller's own everywhere).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.base import ServiceBase
from app.models import PlayerStats

FAVOURITES = 5  # routes and cities listed
MAX_BOARDS = 300  # the most recent finished games whose final boards are read for favourites


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, as the ratings part of the bot reports it (the stats picture shows
    `value` under `label`, with `detail` below, e.g. "rank 3 of 12 · season 2")."""

    value: float
    label: str = "Rating"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """What `/ttr stats` shows of a player (see the module's docstring). Routes are
    (map id, route id), cities (map id, city id), each with how many finished games had it."""

    stats: PlayerStats
    variants: tuple[tuple[str, int, int], ...] = ()  # (variant, games, wins), most played first
    routes: tuple[tuple[str, str, int], ...] = ()
    cities: tuple[tuple[str, str, int], ...] = ()
    rating: Rating | None = None  # filled by `player_rating` (the ratings part); None: no rating here
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def ticket_share(self) -> float | None:
        """Tickets completed out of all tickets held at the end (None: none held)."""
        done, failed = self.stats.tickets_completed, self.stats.tickets_failed
        return done / (done + failed) if done + failed else None


def favourites(boards: Sequence[tuple[str, int]]) -> tuple[
        tuple[tuple[str, str, int], ...], tuple[tuple[str, str, int], ...]]:
    """The routes and cities a seat held most often, from (final state JSON, seat) pairs:
    a route counts once per game; a city once per game where one of the player's routes
    touches it or their station stands on it."""
    routes: Counter[tuple[str, str]] = Counter()
    cities: Counter[tuple[str, str]] = Counter()
    from engine.maps import load_map

    for text, seat in boards:
        try:
            state = json.loads(text)
            map_id = str(state["map_id"])
            owned = [rid for rid, s in dict(state.get("route_owner", {})).items() if s == seat]
            stations = [c for c, s in dict(state.get("stations", {})).items() if s == seat]
            gmap = load_map(map_id)
        except (ValueError, KeyError, TypeError, OSError, LookupError):
            continue  # a board from older rules or another map set: no favourites from it
        touched: set[str] = set(stations)
        for rid in owned:
            route = gmap.routes.get(rid)
            if route is not None:
                routes[(map_id, rid)] += 1
                touched.update((route.a, route.b))
        for city in touched:
            if city in gmap.cities and not gmap.cities[city].is_country:
                cities[(map_id, city)] += 1
    top_routes = tuple((m, r, n) for (m, r), n in sorted(routes.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES])
    top_cities = tuple((m, c, n) for (m, c), n in sorted(cities.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES])
    return top_routes, top_cities


class PlayerRecordOps(ServiceBase):
    """`/ttr stats`: a player's record on a server."""

    async def player_rating(self, user_id: int, guild_id: int | None) -> Rating | None:
        """THE RATING HOOK: the player's rating on this server, or None. This branch has no
        ratings; the ratings part of the bot (app/ratings.py) overrides this method (or the
        bot sets `PlayerRecord.rating`) and the stats picture shows it."""
        _ = user_id, guild_id
        return None

    async def player_record(self, user_id: int, guild_id: int | None) -> PlayerRecord:
        """A player's record over their finished games in one server (or, with no server,
        everywhere: only ever asked for the caller's own)."""
        rows = await self.store.results_of_user(user_id, guild_id, limit=1_000_000)
        scores = [r.score for r in rows]
        stats = PlayerStats(
            user_id=user_id, games=len(rows), wins=sum(1 for r in rows if r.won),
            average_score=sum(scores) / len(scores) if scores else 0.0,
            best_score=max(scores) if scores else None,
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows))
        per_variant: dict[str, list[int]] = {}
        for r in rows:
            games_wins = per_variant.setdefault(r.variant, [0, 0])
            games_wins[0] += 1
            games_wins[1] += int(r.won)
        variants = tuple(sorted(((v, g, w) for v, (g, w) in per_variant.items()), key=lambda t: (-t[1], t[0])))
        boards: list[tuple[str, int]] = []
        for r in rows[:MAX_BOARDS]:
            snap = await self.store.snapshot(r.game_id)
            if snap is not None and not snap.unreadable:
                boards.append((snap.state_json, r.seat))
        routes, cities = await asyncio.to_thread(favourites, boards)
        return PlayerRecord(stats, variants, routes, cities, await self.player_rating(user_id, guild_id))
