"""Route planning for the computer players: shortest paths over the open board, a network
plan for a set of tickets, the cards a plan still needs, and how to pay for a route.

Everything here works on plain public data (who owns which route, a hand, a list of tickets,
train counts), so the same code serves an AI reading its `View` and the search AI's rollouts
reading a sampled state of its own making.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import COLOURS, GRAY, LOCO, Cards
from engine.maps import GameMap, Route, load_map
from engine.rulesets import build_ruleset

# A claim costs a turn of its own: paths of fewer, longer routes are better at equal trains.
CLAIM_OVERHEAD = 2.0
# Tunnels may ask for more cards; ferries need locomotives, the scarcest card.
TUNNEL_PENALTY = 0.8
FERRY_LOCO_PENALTY = 1.0

INF = float("inf")


@dataclass(frozen=True)
class MapInfo:
    """One board as the planners read it, built once per board and rule lengths."""

    game_map: GameMap
    lengths: Mapping[str, int]  # route id -> trains it takes under these rules
    adjacency: Mapping[str, tuple[tuple[Route, str], ...]]  # city -> (route, other end)
    dead_ends: frozenset[str]  # country spaces: a path may end there, never pass through
    grouped: tuple[tuple[str, str], ...]  # (route id, parallel group) of double routes
    weights: Mapping[str, float]  # route id -> path cost of claiming it
    points: Mapping[int, int]  # route length -> points

    def length(self, route_id: str) -> int:
        return self.lengths[route_id]

    def route(self, route_id: str) -> Route:
        return self.game_map.routes[route_id]


def _weight(route: Route, length: int) -> float:
    return length + CLAIM_OVERHEAD + (TUNNEL_PENALTY if route.tunnel else 0.0) + FERRY_LOCO_PENALTY * route.ferry_locos


@lru_cache(maxsize=64)
def _map_info(map_id: str, lengths: tuple[tuple[str, int], ...]) -> MapInfo:
    game_map = load_map(map_id)
    special = dict(lengths)
    route_lengths = {rid: special.get(rid, r.length) for rid, r in game_map.routes.items()}
    adjacency: dict[str, list[tuple[Route, str]]] = {cid: [] for cid in game_map.cities}
    for r in game_map.routes.values():
        adjacency.setdefault(r.a, []).append((r, r.b))
        adjacency.setdefault(r.b, []).append((r, r.a))
    grouped = tuple((r.id, r.parallel_group) for r in game_map.routes.values() if r.parallel_group)
    return MapInfo(
        game_map=game_map,
        lengths=route_lengths,
        adjacency={c: tuple(v) for c, v in adjacency.items()},
        dead_ends=game_map.country_ids,
        grouped=grouped,
        weights={rid: _weight(r, route_lengths[rid]) for rid, r in game_map.routes.items()},
        points=dict(game_map.route_points),
    )


def map_info(variant: str, players: int, options: Mapping[str, object]) -> MapInfo:
    """The planning view of a table's board (its rules decide route lengths: dice, D13)."""
    rules = build_ruleset(variant, players, dict(options))
    return _map_info(rules.map_id, tuple(sorted(rules.route_lengths.items())))


def route_points(info: MapInfo, route_id: str) -> int:
    """Points a route scores when claimed."""
    return info.points.get(info.lengths[route_id], 0)


# --- who may claim what -------------------------------------------------------------------


def closed_groups(info: MapInfo, owner: Mapping[str, int], seat: int, doubles_open: bool) -> set[str]:
    """Parallel groups `seat` may no longer use: one of its tracks is theirs, or (below the
    player count for doubles) anyone's."""
    out = set()
    for rid, group in info.grouped:
        who = owner.get(rid)
        if who is not None and (who == seat or not doubles_open):
            out.add(group)
    return out


def is_open(info: MapInfo, owner: Mapping[str, int], closed: set[str], route_id: str) -> bool:
    return route_id not in owner and info.route(route_id).parallel_group not in closed


# --- paths -------------------------------------------------------------------------------


def shortest_path(
    info: MapInfo,
    owner: Mapping[str, int],
    seat: int,
    closed: set[str],
    start: str,
    goal: str,
    free: Iterable[str] = (),
    max_cost: float = INF,
) -> tuple[float, list[str]] | None:
    """The cheapest way to join two cities over routes that are open or `seat`'s own (own
    routes and those in `free` cost nothing), as (cost, routes not yet owned); None if they
    cannot be joined. Country spaces are dead ends."""
    if start == goal:
        return 0.0, []
    free_set = set(free)
    weights = info.weights
    adjacency = info.adjacency
    dead = info.dead_ends
    best: dict[str, float] = {start: 0.0}
    prev: dict[str, tuple[str, str]] = {}
    heap: list[tuple[float, str]] = [(0.0, start)]
    while heap:
        dist, city = heapq.heappop(heap)
        if city == goal:
            path = []
            while city != start:
                city, rid = prev[city]
                if owner.get(rid) != seat:
                    path.append(rid)
            return dist, path
        if dist > best.get(city, INF) or dist > max_cost:
            continue
        if city != start and city in dead:
            continue
        for route, nxt in adjacency[city]:
            rid = route.id
            holder = owner.get(rid)
            if holder is None:
                if route.parallel_group is not None and route.parallel_group in closed:
                    continue
                cost = 0.0 if rid in free_set else weights[rid]
            elif holder == seat:
                cost = 0.0
            else:
                continue
            nd = dist + cost
            if nd < best.get(nxt, INF):
                best[nxt] = nd
                prev[nxt] = (city, rid)
                heapq.heappush(heap, (nd, nxt))
    return None


class Connectivity:
    """Which towns a set of routes joins (union-find; countries are dead ends: each route into
    a country reaches its own copy of it, so no path passes through)."""

    __slots__ = ("parent", "dead", "country_links")

    def __init__(self, info: MapInfo, routes: Iterable[str]) -> None:
        self.parent: dict[str, str] = {}
        self.dead = info.dead_ends
        self.country_links: dict[str, list[str]] = {}
        for rid in routes:
            r = info.route(rid)
            self.union(self._node(r.a, rid), self._node(r.b, rid))

    def _node(self, city: str, rid: str) -> str:
        if city in self.dead:
            node = f"{city}#{rid}"
            self.country_links.setdefault(city, []).append(node)
            return node
        return city

    def find(self, x: str) -> str:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def _roots(self, city: str) -> set[str]:
        if city in self.dead:
            return {self.find(n) for n in self.country_links.get(city, ())}
        return {self.find(city)}

    def joins(self, a: str, b: str) -> bool:
        """Whether the routes join a and b."""
        if a == b:
            return True
        return bool(self._roots(a) & self._roots(b))

    def joins_with(self, a: str, b: str, x: str, y: str) -> bool:
        """Whether they would join a and b with one more route between x and y."""
        if self.joins(a, b):
            return True
        return (self._near(a, x) and self._near(b, y)) or (self._near(a, y) and self._near(b, x))

    def _near(self, a: str, x: str) -> bool:
        if a == x:
            return True
        if x in self.dead:
            return False  # a route's country end is a copy of its own, joined to nothing else
        return self.find(x) in self._roots(a)


def joined(info: MapInfo, routes: Iterable[str], a: str, b: str) -> bool:
    """Whether these routes join a and b (countries are dead ends)."""
    return Connectivity(info, routes).joins(a, b)


# --- network plans -----------------------------------------------------------------------


@dataclass
class Plan:
    """The routes still to claim to finish a set of tickets, joined into one network where
    paths can share routes. `done`: tickets already complete; `planned`: tickets the plan
    finishes; `dropped`: tickets it cannot (blocked, or not enough trains)."""

    routes: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    planned: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    trains: int = 0  # trains the planned routes take
    cost: float = 0.0  # their path cost

    @property
    def route_set(self) -> set[str]:
        return set(self.routes)


def ticket_order(info: MapInfo, tickets: Iterable[str]) -> list[str]:
    """Longest tickets first: they make the backbone the others join."""
    tmap = info.game_map.tickets
    return sorted(tickets, key=lambda t: (-tmap[t].points, t))


def plan_network(
    info: MapInfo,
    owner: Mapping[str, int],
    seat: int,
    closed: set[str],
    tickets: Sequence[str],
    trains: int,
    own_routes: Iterable[str] = (),
    free: Iterable[str] = (),
) -> Plan:
    """A network finishing as many of `tickets` as `trains` allow: each ticket in turn (the
    longest first) takes its cheapest path, where routes already owned or planned cost
    nothing. A ticket whose path does not fit in the trains left is dropped."""
    plan = Plan()
    own = list(own_routes)
    planned: set[str] = set(free)
    tmap = info.game_map.tickets
    lengths = info.lengths
    links = Connectivity(info, own)
    for t in ticket_order(info, tickets):
        ticket = tmap[t]
        if own and links.joins(ticket.a, ticket.b):
            plan.done.append(t)
            continue
        found = shortest_path(info, owner, seat, closed, ticket.a, ticket.b, planned)
        if found is None:
            plan.dropped.append(t)
            continue
        cost, path = found
        new = [r for r in path if r not in planned]
        extra = sum(lengths[r] for r in new)
        if plan.trains + extra > trains:
            plan.dropped.append(t)
            continue
        plan.trains += extra
        plan.cost += cost
        planned.update(new)
        plan.routes.extend(new)
        plan.planned.append(t)
    return plan


# --- cards -------------------------------------------------------------------------------


def colour_needs(info: MapInfo, routes: Iterable[str], hand: Mapping[str, int]) -> dict[str, int]:
    """Cards of each colour (and locomotives) the routes take, grey routes given the colour the
    hand has most of beyond the coloured routes' needs. Longest routes are assigned first."""
    need: dict[str, int] = {}
    greys: list[tuple[int, Route]] = []
    for rid in routes:
        r = info.route(rid)
        n = info.lengths[rid]
        if r.ferry_locos:
            need[LOCO] = need.get(LOCO, 0) + r.ferry_locos
            n -= r.ferry_locos
        if r.color == GRAY:
            greys.append((n, r))
        else:
            need[r.color] = need.get(r.color, 0) + n
    for n, _ in sorted(greys, key=lambda g: (-g[0], g[1].id)):
        best = max(COLOURS, key=lambda c: (hand.get(c, 0) - need.get(c, 0), -COLOURS.index(c)))
        need[best] = need.get(best, 0) + n
    return need


def deficits(need: Mapping[str, int], hand: Mapping[str, int]) -> dict[str, int]:
    """Cards still missing per colour (locomotives left aside: they stand in anywhere)."""
    return {c: n - hand.get(c, 0) for c, n in need.items() if c != LOCO and n > hand.get(c, 0)}


def payment_cost(payment: Cards, need: Mapping[str, int], hand: Mapping[str, int]) -> float:
    """What paying with these cards takes away from the rest of a plan: a locomotive is worth
    three cards; a colour card costs more the more the plan still needs that colour."""
    cost = 0.0
    for name, n in payment:
        if name == LOCO:
            cost += 3.0 * n
        else:
            spare = hand.get(name, 0) - need.get(name, 0)
            cost += n * (1.0 if spare >= 0 else 1.6)
    return cost


def completed(info: MapInfo, routes: Sequence[str], tickets: Iterable[str]) -> set[str]:
    """The tickets these routes join."""
    tmap = info.game_map.tickets
    links = Connectivity(info, routes)
    return {t for t in tickets if links.joins(tmap[t].a, tmap[t].b)}
