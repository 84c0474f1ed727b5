"""Who may claim which route, and what happens once a route is claimed; and the route or
city an action names, by id.

Shared by the ordinary claim, the tunnel decision and variant actions that build routes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Cards
from engine.errors import IllegalAction, excerpt
from engine.events import Payload
from engine.maps import City, Route

if TYPE_CHECKING:
    from engine.core import Game


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class RouteClaimed(Payload):
    kind = "route_claimed"
    player: int
    route: str
    payment: dict[str, int]
    points: int



def find_route(game: Game, route_id: str) -> Route:
    """The route with this id; a plain sentence if the map has none. (The bot turns the names
    players type into ids: bot_app/presentation/names.py.)"""
    route = game.map.routes.get(route_id)
    if route is None:
        raise IllegalAction(f"There is no route called {excerpt(route_id)} on this map.", "unknown_route")
    return route


def find_city(game: Game, city_id: str) -> City:
    """The city with this id where a station may stand; a plain sentence if there is none (a
    country space is not a city)."""
    city = game.map.cities.get(city_id)
    if city is None or city.is_country:
        raise IllegalAction(f"There is no city called {excerpt(city_id)} on this map.", "unknown_city")
    return city


def blocked_reason(game: Game, seat: int, route: Route) -> str | None:
    """Why `seat` may not claim `route` right now, or None if the route is open to them.

    Parallel tracks: nobody owns two tracks of one connection; below the rule set's player
    count for doubles, once one track is claimed the others are closed to everyone."""
    s = game.state
    owner = s.route_owner.get(route.id)
    if owner is not None:
        who = "you" if owner == seat else game.name(owner)
        return f"{route_name(game, route)} is already claimed by {who}."
    for track in game.map.parallel_tracks(route.id):
        track_owner = s.route_owner.get(track.id)
        if track_owner is None:
            continue
        if track_owner == seat:
            return f"You already own a track of {route_name(game, route)}; a player may own only one."
        if game.n_players < game.rules.doubles_from_players:
            return (
                f"In a {game.n_players}-player game only one track of {route_name(game, route)} may be used, "
                f"and {game.name(track_owner)} has it."
            )
    trains = game.player(seat).trains
    if trains < route.length:
        return f"{route_name(game, route)} needs {route.length} trains; you have {trains} left."
    return None


_TRACKS: dict[str, dict[str, tuple[str, ...]]] = {}


def _tracks(game: Game) -> dict[str, tuple[str, ...]]:
    """Route id -> the ids of every track of its connection, for the routes that have
    parallel tracks, once per map."""
    tracks = _TRACKS.get(game.map.id)
    if tracks is None:
        groups: dict[str, list[str]] = {}
        for r in game.map.routes.values():
            if r.parallel_group:
                groups.setdefault(r.parallel_group, []).append(r.id)
        tracks = _TRACKS[game.map.id] = {rid: tuple(ids) for ids in groups.values() for rid in ids}
    return tracks


def closed_routes(game: Game, seat: int) -> set[str]:
    """The ids of the routes `seat` may not claim, whatever their trains: those claimed, and
    every track of a connection closed to them by the parallel-track rules (one of its tracks
    is theirs, or is claimed below the rule set's player count for doubles). Listing claims
    tests each route against this set (it runs for every decision of every AI game)."""
    owner = game.state.route_owner
    closed = set(owner)
    doubles_open = game.n_players >= game.rules.doubles_from_players
    tracks = _tracks(game)
    for route_id, who in owner.items():
        ids = tracks.get(route_id)
        if ids is not None and (who == seat or not doubles_open):
            closed.update(ids)
    return closed


def open_route_test(game: Game, seat: int) -> Callable[[Route], bool]:
    """A fast test equal to `blocked_reason(game, seat, route) is None`, for listing legal
    claims: the parallel-track rules are worked out once for all routes (`closed_routes`)
    instead of once per route."""
    closed = closed_routes(game, seat)
    trains = game.player(seat).trains

    def is_open(route: Route) -> bool:
        return route.id not in closed and route.length <= trains

    return is_open


def open_routes(game: Game, seat: int) -> list[Route]:
    """The routes `seat` could claim if they had the cards."""
    is_open = open_route_test(game, seat)
    return [r for r in game.map.routes.values() if is_open(r)]


def route_name(game: Game, route: Route) -> str:
    return f"{game.map.city_label(route.a)} – {game.map.city_label(route.b)}"


def complete_claim(game: Game, seat: int, route: Route, payment: Cards, points: int | None = None) -> None:
    """Place the trains, score the route and tell everyone; then the turn ends, unless a rule
    module opened a decision of its own after the claim (it ends the turn once resolved).

    `payment` has already left the hand; it goes to the discard pile. `points` defaults to the
    map's table (a Controller build passes 0)."""
    s = game.state
    player = game.player(seat)
    if points is None:
        points = game.map.points_for(route.length)
    game.discard_cards(payment)
    player.trains -= route.length
    player.routes.append(route.id)
    player.route_points += points
    s.route_owner[route.id] = seat
    s.route_scored[route.id] = points
    game.emit(RouteClaimed(player=seat, route=route.id, payment=dict(payment), points=points))
    decision = game.state.pending
    for module in game.rules.hooked("on_route_claimed"):
        module.on_route_claimed(game, seat, route.id)
    if game.state.pending is decision:
        game.end_turn()


def unclaim_route(game: Game, route: Route) -> tuple[int, int]:
    """Take a claimed route off the board (the USSR Controller, U6): its trains go back to
    the owner, the owner loses the points recorded for it, and the route is open again. An end
    of game already triggered stays triggered. Returns (owner, points taken back)."""
    s = game.state
    owner = s.route_owner.pop(route.id)
    points = s.route_scored.pop(route.id, 0)
    player = game.player(owner)
    player.routes.remove(route.id)
    player.route_points -= points
    player.trains += route.length
    return owner, points
