"""Paths a player may still build: the fewest trains still to place to join two cities, over
the routes the rules leave open to them. A question about the board that the computer players
ask of a view, and that the pictures ask to draw a ticket's way; pure, no clock, no chance.
"""

from __future__ import annotations

import heapq

from engine.maps import GameMap
from engine.view import View


def shortest_open_path(
    view: View, game_map: GameMap, seat: int, start: str, goal: str
) -> tuple[int, list[str]] | None:
    """The fewest trains still to place to join two cities, over routes that are open or the
    player's own (own routes cost nothing), and the routes of that path; None if impossible.
    Country spaces are dead ends: a path may end in one but never pass through it."""
    owner = view.route_owner
    doubles_open = len(view.players) >= view.doubles_from_players
    blocked_groups = set()
    for rid, who in owner.items():
        group = game_map.routes[rid].parallel_group
        if group and (who == seat or not doubles_open):
            blocked_groups.add(group)
    best: dict[str, int] = {start: 0}
    prev: dict[str, tuple[str, str]] = {}
    heap = [(0, start)]
    while heap:
        dist, city = heapq.heappop(heap)
        if city == goal:
            path = []
            while city != start:
                city, rid = prev[city]
                path.append(rid)
            return dist, path
        if dist > best.get(city, 1 << 30):
            continue
        if city != start and game_map.cities[city].is_country:
            continue
        for route in game_map.routes_at(city):
            holder = owner.get(route.id)
            if holder is not None and holder != seat:
                continue
            if holder is None and route.parallel_group in blocked_groups:
                continue
            cost = 0 if holder == seat else route.length
            nxt = route.b if route.a == city else route.a
            nd = dist + cost
            if nd < best.get(nxt, 1 << 30):
                best[nxt] = nd
                prev[nxt] = (city, route.id)
                heapq.heappush(heap, (nd, nxt))
    return None
