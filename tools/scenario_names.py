"""Route and city names in scenario steps, read as the bot reads what players type.

A scenario may write `route: "Atlanta - Raleigh"` or `city: Wien`; the engine takes only ids.
`with_ids` turns such names into ids with the bot's name index (bot_app/presentation/names.py) before the
action is built, and refuses a name that matches nothing with the bot-side sentence
("There is no route called 'X' on this map. Did you mean Y?").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_app.presentation import names
from engine.errors import IllegalAction
from engine.maps import GameMap, Route


def with_ids(game_map: GameMap, route_owner: Mapping[str, int], action: dict[str, Any]) -> dict[str, Any]:
    """The action's JSON with its `route` and `city` names replaced by ids (ids stay)."""
    out = dict(action)
    route = out.get("route")
    if isinstance(route, str) and route not in game_map.routes:
        found = names.find_route(game_map, route)
        if found is None:
            raise IllegalAction(names.unknown_route(game_map, route), "unknown_route")
        # A removal by the Controller means a claimed track; anything else a free one.
        claimed = out.get("type") == "play_controller" and out.get("mode") == "remove"
        out["route"] = _twin(game_map, route_owner, found, claimed).id
    city = out.get("city")
    if isinstance(city, str) and city and city not in game_map.cities:
        found_city = names.find_city(game_map, city)
        if found_city is None:
            raise IllegalAction(names.unknown_city(game_map, city), "unknown_city")
        out["city"] = found_city.id
    return out


def _twin(game_map: GameMap, route_owner: Mapping[str, int], route: Route, claimed: bool) -> Route:
    """A name such as "Dallas – Houston" fits identical parallel tracks: take the first that is
    claimed (`claimed`) or free, else the one the name matched."""
    if (route.id in route_owner) == claimed:
        return route
    same = (route.length, route.color, route.tunnel, route.ferry_locos)
    for track in game_map.parallel_tracks(route.id):
        if (track.length, track.color, track.tunnel, track.ferry_locos) == same and (
            (track.id in route_owner) == claimed
        ):
            return track
    return route
