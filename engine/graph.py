"""Graph algorithms for end-of-game scoring: longest trail, connectivity, tickets.

A player's network is a multigraph whose edges are claimed routes::

    Edge = (edge_id, city_a, city_b, length)

Double routes are simply two edges with different ids between the same cities.

Dead ends (Ticket to Ride Germany's neighbouring countries): every route that
touches a dead-end space ``X`` gets its own private copy of ``X``, so ``X`` can
never join two routes together -- neither for the longest trail nor for
connectivity.  A ticket to ``X`` is complete as soon as the other city reaches
*any* copy of ``X``.

Everything here is pure and deterministic: no clock, no randomness, results only
depend on the arguments (ties are broken by input order).
"""

from __future__ import annotations

import contextlib
import heapq
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "Edge",
    "TicketOutcome",
    "best_ticket_outcome",
    "best_ticket_outcomes",
    "connected",
    "longest_trail",
    "train_distances",
]

Edge = tuple[str, str, str, int]
"""(edge_id, city_a, city_b, length)."""

# Internal node identity: a city name, or (dead_end, edge_id) for the private
# copy of a dead end owned by one edge.  Tuples can never collide with a str
# city name, whatever characters the map uses.
_Node = Hashable
# Internal edge after dead-end splitting: (edge_id, node_a, node_b, length).
_IEdge = tuple[str, _Node, _Node, int]


# ---------------------------------------------------------------------------
# Input normalisation
# ---------------------------------------------------------------------------


def _node(city: str, edge_id: str, dead_ends: Collection[str]) -> _Node:
    """The node that `city` stands for on edge `edge_id` (private copy for dead ends)."""
    return (city, edge_id) if city in dead_ends else city


def _normalise(edges: Iterable[Edge], dead_ends: Collection[str]) -> list[_IEdge]:
    """Deduplicate edges by id and replace dead-end endpoints by private copies.

    The same edge id listed twice is the same route (e.g. lent by two stations),
    so it counts once.  The same id with different data is a caller bug.
    """
    seen: dict[str, Edge] = {}
    out: list[_IEdge] = []
    for edge in edges:
        edge_id, a, b, length = edge
        if length < 0:
            raise ValueError(f"edge {edge_id!r} has negative length {length}")
        previous = seen.get(edge_id)
        if previous is not None:
            if tuple(previous) != tuple(edge):
                raise ValueError(f"edge id {edge_id!r} used for two different routes")
            continue
        seen[edge_id] = edge
        out.append((edge_id, _node(a, edge_id, dead_ends), _node(b, edge_id, dead_ends), length))
    return out


def _copies(city: str, iedges: Iterable[_IEdge], dead_ends: Collection[str]) -> list[_Node]:
    """All nodes that stand for `city`: itself, or every private copy of a dead end."""
    if city not in dead_ends:
        return [city]
    return [(city, e[0]) for e in iedges if (city, e[0]) in (e[1], e[2])]


class _UnionFind:
    """Plain union-find with path halving; nodes are created on first use."""

    def __init__(self) -> None:
        self.parent: dict[_Node, _Node] = {}

    def find(self, x: _Node) -> _Node:
        parent = self.parent
        root = parent.setdefault(x, x)
        while parent[root] != root:
            parent[root] = parent[parent[root]]
            root = parent[root]
        return root

    def union(self, x: _Node, y: _Node) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[ry] = rx


# ---------------------------------------------------------------------------
# Connectivity
# ---------------------------------------------------------------------------


def train_distances(edges: Sequence[Edge], start: str, dead_ends: Collection[str] = ()) -> dict[str, int]:
    """The fewest trains from `start` to every city the edges reach (Dijkstra). A dead end can
    be reached but never passed through. Map scripts and tests price tickets with it."""
    adj: dict[str, list[tuple[str, int]]] = {}
    for _, a, b, length in edges:
        adj.setdefault(a, []).append((b, length))
        adj.setdefault(b, []).append((a, length))
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        d, city = heapq.heappop(heap)
        if d > best[city] or (city != start and city in dead_ends):
            continue
        for nxt, length in adj.get(city, ()):
            if d + length < best.get(nxt, 1 << 30):
                best[nxt] = d + length
                heapq.heappush(heap, (d + length, nxt))
    return best


def connected(edges: Sequence[Edge], a: str, b: str, dead_ends: Collection[str] = ()) -> bool:
    """Whether cities `a` and `b` are joined by a chain of the given routes.

    Dead ends never join two routes; a dead-end endpoint is reached iff the
    other endpoint reaches any route that leads into it.  A city is connected
    to itself (a dead end only if some route leads into it).
    """
    return connectivity(edges, dead_ends)(a, b)


def connectivity(edges: Sequence[Edge], dead_ends: Collection[str] = ()) -> Callable[[str, str], bool]:
    """`connected` for many pairs of cities over the same routes (a player's tickets): the
    routes are joined once, and each pair is then two lookups."""
    iedges = _normalise(edges, dead_ends)
    uf = _UnionFind()
    for _, u, v, _ in iedges:
        uf.union(u, v)

    def joined(a: str, b: str) -> bool:
        roots_a = {uf.find(n) for n in _copies(a, iedges, dead_ends)}
        return any(uf.find(n) in roots_a for n in _copies(b, iedges, dead_ends))

    return joined


# ---------------------------------------------------------------------------
# Longest trail
# ---------------------------------------------------------------------------


def longest_trail(edges: Sequence[Edge], dead_ends: Collection[str] = ()) -> int:
    """Exact length of the longest trail in the network.

    A trail is a walk that uses each route at most once; cities may repeat and
    loops are allowed.  Its length is the sum of the route lengths.  Returns 0
    when there are no edges.  Lengths must be non-negative.

    The work is exponential in the worst case, but the reductions below (per
    component, Euler shortcut, chain contraction, pairing bounds, then a
    search over the routes left out) make a full 45-train network fast; see
    docs/performance.md.
    """
    iedges = _normalise(edges, dead_ends)
    best = 0
    for component in _components(iedges):
        best = max(best, _component_longest(component))
    return best


def _components(iedges: list[_IEdge]) -> list[list[tuple[_Node, _Node, int]]]:
    """Split edges into connected components, in order of first appearance."""
    uf = _UnionFind()
    for _, u, v, _ in iedges:
        uf.union(u, v)
    groups: dict[_Node, list[tuple[_Node, _Node, int]]] = {}
    for _, u, v, w in iedges:
        groups.setdefault(uf.find(u), []).append((u, v, w))
    return list(groups.values())


def _component_longest(comp: list[tuple[_Node, _Node, int]]) -> int:
    """Longest trail inside one connected component.

    Key fact (with non-negative lengths): among the optimal trails take one with
    the most edges.  It cannot be extended, so
      * if it is closed, every edge at every visited city is used, i.e. it is an
        Euler circuit of the whole component;
      * if it is open, each end has odd degree in the trail, so an even-degree
        city of the graph would still have an unused edge there and the trail
        could be extended: both ends are odd-degree cities of the graph.
    Hence: with at most 2 odd cities the answer is the total length (Euler), and
    otherwise only trails between two odd cities need to be searched.
    """
    total = sum(w for _, _, w in comp)
    degree: dict[_Node, int] = {}
    for u, v, _ in comp:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
    odd = [n for n, d in degree.items() if d % 2]
    if len(odd) <= 2:
        return total
    return _Reduced(comp).longest(total)


class _Reduced:
    """A component after the reductions that keep some maximal optimal trail.

    * A loop at city c: a maximal trail visiting c uses it, so it becomes a
      "bonus" collected on the first visit of c.
    * A city of degree 2 is even, so a maximal optimal trail never ends there:
      it uses both edges or neither; the two edges (and the city's bonus) are
      merged into one edge.  Repeated until no such city is left.
    The total weight (edges + bonuses) is unchanged by both reductions.
    """

    def __init__(self, comp: list[tuple[_Node, _Node, int]]) -> None:
        ends: dict[int, tuple[_Node, _Node, int]] = {}  # edge index -> (u, v, w)
        incident: dict[_Node, list[int]] = {}
        bonus: dict[_Node, int] = {}
        for i, (u, v, w) in enumerate(comp):
            incident.setdefault(u, [])
            incident.setdefault(v, [])
            bonus.setdefault(u, 0)
            bonus.setdefault(v, 0)
            if u == v:
                bonus[u] += w
            else:
                ends[i] = (u, v, w)
                incident[u].append(i)
                incident[v].append(i)
        next_id = len(comp)
        work = [n for n in incident if len(incident[n]) == 2]
        while work:
            n = work.pop()
            if len(incident.get(n, ())) != 2:
                continue
            e1, e2 = incident.pop(n)
            u1, v1, w1 = ends.pop(e1)
            u2, v2, w2 = ends.pop(e2)
            a = v1 if u1 == n else u1
            b = v2 if u2 == n else u2
            weight = w1 + w2 + bonus.pop(n)
            incident[a].remove(e1)
            incident[b].remove(e2)
            if a == b:
                # The chain closed into a loop at a: a bonus, and a lost 2 degrees.
                bonus[a] += weight
                if len(incident[a]) == 2:
                    work.append(a)
            else:
                ends[next_id] = (a, b, weight)
                incident[a].append(next_id)
                incident[b].append(next_id)
                next_id += 1
        # Deterministic indexing: nodes in first-appearance order.
        self.nodes: list[_Node] = list(incident)
        index = {n: i for i, n in enumerate(self.nodes)}
        self.bonus: list[int] = [bonus[n] for n in self.nodes]
        self.edges: list[tuple[int, int, int]] = [(index[u], index[v], w) for u, v, w in ends.values()]

    def longest(self, total: int) -> int:
        """Longest trail weight (edges + bonuses of visited cities)."""
        n = len(self.nodes)
        degree = [0] * n
        for u, v, _ in self.edges:
            degree[u] += 1
            degree[v] += 1
        odd_nodes = [i for i in range(n) if degree[i] % 2]
        pairing = _Pairing(n, self.edges, odd_nodes)
        lower, upper = pairing.root_bounds(self.bonus, total)
        if lower >= upper:
            return lower
        return self.leftover_search(lower, upper, total, sum(1 << i for i in odd_nodes))

    def leftover_search(self, best: int, upper: int, total: int, odd_all: int) -> int:
        """Exact longest trail by searching the unused edges instead.

        A maximal optimal trail S runs between odd cities s, t; L = E - S has
        odd(E - L) = {s, t}.  Conversely, for any L whose removal leaves at
        most two odd cities, all of them odd in G, every component of E - L has
        an Euler trail.  So the answer is the heaviest component of E - L over
        all such L, and L weighs at most total - answer: when the answer is
        close to the total (dense networks) only light sets L are searched.
        """
        n = len(self.nodes)
        edges = self.edges
        bonus = self.bonus
        m = len(edges)
        es = _decision_order(n, edges)
        finish, unfinished_after = _finish_tables(n, es)
        wmin = min(w for _, _, w in es)
        best_left = total - best
        target = total - upper

        class _Done(Exception):
            pass

        def leaf(removed: int) -> None:
            nonlocal best_left
            uf = list(range(n))

            def find(x: int) -> int:
                while uf[x] != x:
                    uf[x] = uf[uf[x]]
                    x = uf[x]
                return x

            weight = bonus[:]
            for i, (u, v, w) in enumerate(es):
                if removed >> i & 1:
                    continue
                ru, rv = find(u), find(v)
                if ru != rv:
                    uf[rv] = ru
                    weight[ru] += weight[rv]
                weight[ru] += w
            left = total - max(weight[find(x)] for x in range(n))
            if left < best_left:
                best_left = left
                if best_left <= target:
                    raise _Done

        def rec(i: int, par: int, wl: int, exc: int, removed: int) -> None:
            if i == m:
                leaf(removed)
                return
            u, v, w = es[i]
            # Removing an edge between two cities of wrong parity fixes both:
            # try that first, it tends to reach light solutions sooner.
            wrong_now = par ^ odd_all
            first = bool(wrong_now >> u & 1 and wrong_now >> v & 1)
            for take in (first, not first):
                if take:
                    npar = par ^ (1 << u) ^ (1 << v)
                    nwl = wl + w
                    nrem = removed | (1 << i)
                else:
                    npar, nwl, nrem = par, wl, removed
                if nwl >= best_left:
                    continue
                nexc = exc
                ok = True
                for x in finish[i]:
                    if not (npar ^ odd_all) >> x & 1:
                        continue
                    # x stays odd in E - L: allowed only for (at most two)
                    # odd cities of G, the trail's ends.
                    if npar >> x & 1 or nexc == 2:
                        ok = False
                        break
                    nexc += 1
                if not ok:
                    continue
                # Every unfinished city whose parity is still wrong needs one
                # more removed edge (unless it becomes a trail end).
                wrong = (npar ^ odd_all) & unfinished_after[i]
                need = wrong.bit_count() - min(2 - nexc, (wrong & ~npar).bit_count())
                if need > 0 and nwl + (need * wmin + 1) // 2 >= best_left:
                    continue
                rec(i + 1, npar, nwl, nexc, nrem)

        with contextlib.suppress(_Done):
            rec(0, 0, 0, 0, 0)
        return total - best_left


def _decision_order(n: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The edges in the order the leftover search decides them: cities ordered so that each
    one's edges are decided early (greedy "most already-placed neighbours first"), so its
    parity is checked early; edges by the later, then the earlier, of their cities."""
    nbrs: list[list[int]] = [[] for _ in range(n)]
    for u, v, _ in edges:
        nbrs[u].append(v)
        nbrs[v].append(u)
    pos = [-1] * n
    links = [0] * n
    order: list[int] = []
    for _ in range(n):
        c = max((x for x in range(n) if pos[x] < 0), key=lambda x: (links[x], -len(nbrs[x]), -x))
        pos[c] = len(order)
        order.append(c)
        for y in nbrs[c]:
            links[y] += 1
    return sorted(edges, key=lambda e: (max(pos[e[0]], pos[e[1]]), min(pos[e[0]], pos[e[1]])))


def _finish_tables(n: int, es: list[tuple[int, int, int]]) -> tuple[list[list[int]], list[int]]:
    """For each position i in `es`: the cities whose last edge is es[i] (their parity is final
    once it is decided), and the bit set of cities still having edges after it."""
    m = len(es)
    last = [-1] * n
    for i, (u, v, _) in enumerate(es):
        last[u] = i
        last[v] = i
    finish: list[list[int]] = [[] for _ in range(m)]
    unfinished_after = [0] * m
    for x in range(n):
        if last[x] >= 0:
            finish[last[x]].append(x)
    pending = 0
    for x in range(n):
        if last[x] >= 0:
            pending |= 1 << x
    for i in range(m):
        for x in finish[i]:
            pending &= ~(1 << x)
        unfinished_after[i] = pending
    return finish, unfinished_after


class _Pairing:
    """Minimum-cost pairings of odd cities under shortest-path distances.

    A set of edges whose odd cities are exactly T (a T-join) splits into
    edge-disjoint paths pairing up T, so it weighs at least the cheapest
    pairing of T by shortest-path distance.  Distances in the full component
    are used throughout: removing edges only lengthens paths, so the bound
    stays valid for any subgraph.
    """

    def __init__(self, n: int, edges: list[tuple[int, int, int]], odd_nodes: list[int]) -> None:
        self.n = n
        self.edges = edges
        self.odd_nodes = odd_nodes
        adj: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        for i, (u, v, w) in enumerate(edges):
            adj[u].append((v, w, i))
            adj[v].append((u, w, i))
        self.adj = adj
        # Shortest-path rows, computed on first use (Dijkstra per source).
        self.dist: list[list[float] | None] = [None] * n
        self.pred: list[list[int] | None] = [None] * n
        self.memo: dict[tuple[int, int, int], float] = {}
        # Lightest edge at each city (every reduced city has an edge).
        self.minw = [min(w for _, w, _ in adj[x]) for x in range(n)]

    def row(self, s: int) -> list[float]:
        """Shortest distances from city s (cached)."""
        row = self.dist[s]
        if row is None:
            row, self.pred[s] = _dijkstra(self.adj, s, self.n)
            self.dist[s] = row
        return row

    def cost(self, mask: int, allowed: int, free: int) -> float:
        """Cheapest pairing of the cities in `mask`, leaving exactly `free` of
        them unpaired, all taken from `allowed`.  Infinite if impossible."""
        if mask == 0:
            return 0 if free == 0 else float("inf")
        if mask.bit_count() > _MAX_PAIRING:
            return self.cheap_cost(mask, allowed, free)
        key = (mask, allowed, free)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        i = (mask & -mask).bit_length() - 1
        rest = mask ^ (1 << i)
        best = self.cost(rest, allowed & rest, free - 1) if free and allowed >> i & 1 else float("inf")
        row = self.dist[i] or self.row(i)
        m = rest
        while m:
            low = m & -m
            m ^= low
            j = low.bit_length() - 1
            c = row[j] + self.cost(rest ^ low, allowed & ~low & rest, free)
            if c < best:
                best = c
        self.memo[key] = best
        return best

    def root_bounds(self, bonus: list[int], total: int) -> tuple[int, int]:
        """(lower, upper) bounds on the longest trail of the component.

        Upper: a maximal optimal trail runs between two odd cities s and t, and
        the edges it leaves unused form a T-join for T = odd cities - {s, t}.
        Lower: remove one cheapest such T-join J; every component of what is
        left has at most two odd cities, hence an Euler trail, and the
        heaviest of those is a real trail.  When the bounds meet, no search
        is needed.
        """
        odd_nodes = self.odd_nodes
        full = 0
        for i in odd_nodes:
            full |= 1 << i
        upper = total - int(self.cost(full, full, 2))
        if len(odd_nodes) > _MAX_PAIRING:
            pairs = self.greedy_pairs()
        else:
            pairs = self.optimal_pairs(full)
        # The symmetric difference of the pairs' shortest paths is a T-join.
        join: set[int] = set()
        for i, j in pairs:
            self.row(i)
            pred = self.pred[i]
            assert pred is not None
            node = j
            while node != i:
                e = pred[node]
                join ^= {e}
                u, v, _ = self.edges[e]
                node = u if v == node else v
        uf = _UnionFind()
        for i in range(self.n):
            uf.find(i)
        for idx, (u, v, _) in enumerate(self.edges):
            if idx not in join:
                uf.union(u, v)
        weight: dict[_Node, int] = {}
        for i in range(self.n):
            r = uf.find(i)
            weight[r] = weight.get(r, 0) + bonus[i]
        for idx, (u, _, w) in enumerate(self.edges):
            if idx not in join:
                weight[uf.find(u)] += w
        return max(weight.values()), upper

    def cheap_cost(self, mask: int, allowed: int, free: int) -> float:
        """A quick lower bound on cost(): a pair (x, y) costs at least
        (minw[x] + minw[y]) / 2, minw being the lightest edge at a city."""
        minw = self.minw
        total = 0
        for i in range(mask.bit_length()):
            if mask >> i & 1:
                total += minw[i]
        spare = sorted((minw[i] for i in range(allowed.bit_length()) if allowed >> i & 1), reverse=True)
        if len(spare) < free:
            return float("inf")
        total -= sum(spare[:free])
        return (total + 1) // 2 if total > 0 else 0

    def optimal_pairs(self, full: int) -> list[tuple[int, int]]:
        """The pairs of one cheapest pairing of `full` (two left free), read
        back from the memo of cost()."""
        pairs: list[tuple[int, int]] = []
        mask, allowed, free = full, full, 2
        while mask:
            target = self.cost(mask, allowed, free)
            i = (mask & -mask).bit_length() - 1
            rest = mask ^ (1 << i)
            if free and allowed >> i & 1 and self.cost(rest, allowed & rest, free - 1) == target:
                mask, allowed, free = rest, allowed & rest, free - 1
                continue
            m = rest
            while m:
                low = m & -m
                m ^= low
                j = low.bit_length() - 1
                sub = (rest ^ low, allowed & ~low & rest, free)
                if self.row(i)[j] + self.cost(*sub) == target:
                    pairs.append((i, j))
                    mask, allowed, free = sub
                    break
        return pairs

    def greedy_pairs(self) -> list[tuple[int, int]]:
        """Closest-first pairing of the odd cities, two left free: not optimal,
        but cheap, and only used to build a starting trail."""
        odd = self.odd_nodes
        order = sorted(
            ((self.row(a)[b], a, b) for x, a in enumerate(odd) for b in odd[x + 1 :]),
        )
        left = len(odd)
        paired: set[int] = set()
        pairs: list[tuple[int, int]] = []
        for _, a, b in order:
            if left <= 2:
                break
            if a in paired or b in paired:
                continue
            paired.update((a, b))
            pairs.append((a, b))
            left -= 2
        return pairs


# The pairing DP is exponential in the number of cities to pair (12 odd cities
# take about a millisecond); beyond this the upper bound falls back to the
# per-city estimate of cheap_cost() and the starting trail to a greedy pairing.
_MAX_PAIRING = 12


def _dijkstra(adj: list[list[tuple[int, int, int]]], s: int, n: int) -> tuple[list[float], list[int]]:
    """Shortest distances from s and the edge used to reach each node."""
    inf = float("inf")
    dist: list[float] = [inf] * n
    pred = [-1] * n
    dist[s] = 0
    heap: list[tuple[float, int]] = [(0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w, i in adj[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = i
                heapq.heappush(heap, (nd, v))
    return dist, pred


# ---------------------------------------------------------------------------
# Tickets and stations
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TicketOutcome:
    """The best ticket result for one player.

    total: sum over tickets of +points if completed, else -points.
    completed: per ticket, in input order.
    loans: every station city -> the borrowed edge id, or None when that
        station's loan is not needed.
    stations_used: how many stations lend a route (the non-None loans); no
        smaller set of the chosen loans completes the same tickets.
    """

    total: int
    completed: tuple[bool, ...]
    loans: Mapping[str, str | None]
    stations_used: int


_NO_STATIONS: Mapping[str, Sequence[Edge]] = MappingProxyType({})


def best_ticket_outcome(
    own_edges: Sequence[Edge],
    tickets: Sequence[tuple[str, str, int]],
    station_options: Mapping[str, Sequence[Edge]] | None = _NO_STATIONS,
    dead_ends: Collection[str] = (),
) -> TicketOutcome:
    """Score the tickets, choosing each station's loan to maximise the total: the first of
    `best_ticket_outcomes`."""
    return best_ticket_outcomes(own_edges, tickets, station_options, dead_ends)[0]


def best_ticket_outcomes(
    own_edges: Sequence[Edge],
    tickets: Sequence[tuple[str, str, int]],
    station_options: Mapping[str, Sequence[Edge]] | None = _NO_STATIONS,
    dead_ends: Collection[str] = (),
) -> tuple[TicketOutcome, ...]:
    """Score the tickets, choosing each station's loan to maximise the total; every best
    choice that completes a different set of tickets (X2: with equal totals and stations
    used, the rules that score the game pick among them), first as described below.

    Each station city may lend one opponent route touching it
    (`station_options[city]`); the same loans serve every ticket, and loans
    never count for the longest trail.  Among equal totals the fewest
    stations are used; remaining ties go to the first choice in input order
    (stations in mapping order, each preferring no loan, then its candidates
    in order).  A route offered to two stations is one route.

    Raises ValueError if a candidate route does not touch its station city,
    or if an edge id is reused for a different route.
    """
    stations = dict(station_options or {})
    own = _normalise(own_edges, dead_ends)
    known: dict[str, tuple[str | int, ...]] = {e[0]: tuple(e) for e in own_edges}
    for city, options in stations.items():
        for edge in options:
            if city not in (edge[1], edge[2]):
                raise ValueError(f"station at {city!r} cannot borrow route {edge[0]!r}: it does not touch the city")
            previous = known.setdefault(edge[0], tuple(edge))
            if previous != tuple(edge):
                raise ValueError(f"edge id {edge[0]!r} used for two different routes")

    uf = _UnionFind()
    for _, u, v, _ in own:
        uf.union(u, v)

    # Every edge that may end up in the network, for the copies of dead ends.
    own_ids = {e[0] for e in own}
    loan_edges: list[_IEdge] = []
    for options in stations.values():
        loan_edges.extend(_normalise((e for e in options if e[0] not in own_ids), dead_ends))
    all_edges = own + loan_edges

    def roots(city: str, with_loans: bool) -> list[_Node]:
        # The components standing for `city`.  A dead end's copy on a loan
        # only exists once that loan is chosen.
        out: list[_Node] = []
        for node in _copies(city, all_edges if with_loans else own, dead_ends):
            r = uf.find(node)
            if r not in out:
                out.append(r)
        return out

    # Tickets already complete on the player's own routes are fixed; the
    # others are "open" and may be completed by loans.
    completed = [False] * len(tickets)
    open_tickets: list[tuple[int, list[_Node], list[_Node]]] = []
    for t, (a, b, _) in enumerate(tickets):
        own_a = roots(a, False)
        if any(r in own_a for r in roots(b, False)):
            completed[t] = True
            continue
        ra, rb = roots(a, True), roots(b, True)
        if ra and rb:
            open_tickets.append((t, ra, rb))

    # Each station's useful loans, as pairs of own components.  A loan inside
    # one component adds nothing; loans joining the same two components are
    # interchangeable, so only the first (input order) is kept.
    choices: list[list[tuple[str, _Node, _Node]]] = []
    for options in stations.values():
        seen_pairs: set[frozenset[_Node]] = set()
        kept: list[tuple[str, _Node, _Node]] = []
        for edge_id, a, b, _ in options:
            if edge_id in own_ids:
                continue
            na, nb = uf.find(_node(a, edge_id, dead_ends)), uf.find(_node(b, edge_id, dead_ends))
            pair = frozenset((na, nb))
            if na == nb or pair in seen_pairs:
                continue
            seen_pairs.add(pair)
            kept.append((edge_id, na, nb))
        choices.append(kept)

    # Drop tickets that even all loans together cannot complete.
    if open_tickets:
        everything = _UnionFind()
        for kept in choices:
            for _, na, nb in kept:
                everything.union(na, nb)
        open_tickets = [
            (t, ra, rb)
            for t, ra, rb in open_tickets
            if {everything.find(r) for r in ra} & {everything.find(r) for r in rb}
        ]
    choices = _relevant_loans(choices, open_tickets)

    stations_list = list(stations)
    best: list[tuple[list[str | None], int]] = [([None] * len(stations_list), 0)]
    if open_tickets:
        best = _best_loans(choices, open_tickets, [tickets[t][2] for t, _, _ in open_tickets])
    outcomes = []
    for chosen, done_mask in best:
        done = list(completed)
        for k, (t, _, _) in enumerate(open_tickets):
            if done_mask >> k & 1:
                done[t] = True
        total = sum(p if ok else -p for (_, _, p), ok in zip(tickets, done, strict=True))
        loans = MappingProxyType(dict(zip(stations_list, chosen, strict=True)))
        used = sum(1 for c in chosen if c is not None)
        outcomes.append(TicketOutcome(total, tuple(done), loans, used))
    return tuple(outcomes)


def _relevant_loans(
    choices: list[list[tuple[str, _Node, _Node]]],
    open_tickets: list[tuple[int, list[_Node], list[_Node]]],
) -> list[list[tuple[str, _Node, _Node]]]:
    """Drop loans that can never be needed.

    In a fewest-stations optimum every loan is needed by some ticket: either
    it lies on the ticket's path, which (through own components) visits each
    component once, so each end of the loan is a ticket's component or shares
    a component with a loan of another station; or it creates the copy of a
    dead end that the ticket starts and ends at.  Loans failing both are
    removed until stable.
    """
    terminal: set[_Node] = set()
    # A component on both sides of an open ticket is a dead end's copy that
    # only a loan creates (ticket X-X): that loan alone completes it.
    creates: set[_Node] = set()
    for _, ra, rb in open_tickets:
        terminal.update(ra)
        terminal.update(rb)
        creates.update(r for r in ra if r in rb)
    keep = [list(kept) for kept in choices]
    changed = True
    while changed:
        changed = False
        touching: dict[_Node, set[int]] = {}
        for i, kept in enumerate(keep):
            for _, na, nb in kept:
                touching.setdefault(na, set()).add(i)
                touching.setdefault(nb, set()).add(i)
        for i, kept in enumerate(keep):
            good = [
                loan
                for loan in kept
                if all(end in terminal or touching[end] - {i} for end in loan[1:])
                or any(end in creates for end in loan[1:])
            ]
            if len(good) != len(kept):
                keep[i] = good
                changed = True
    return keep


def _best_loans(
    choices: list[list[tuple[str, _Node, _Node]]],
    open_tickets: list[tuple[int, list[_Node], list[_Node]]],
    points: list[int],
) -> list[tuple[list[str | None], int]]:
    """Enumerate every combination of loans (no loan first, then input order)
    and return the best ones with the mask of open tickets each completes: for
    every mask reached by a best combination, the first combination reaching
    it, in the order first reached.

    Own components become bits.  A combination's loans merge components into
    groups; since groups only grow as loans are added, a new loan can only
    complete tickets through the group it joins, so each step costs one group
    merge and one (memoised) lookup.
    """
    bit: dict[_Node, int] = {}

    def mask_of(nodes: Iterable[_Node]) -> int:
        m = 0
        for node in nodes:
            m |= 1 << bit.setdefault(node, len(bit))
        return m

    ends = [(mask_of(ra), mask_of(rb)) for _, ra, rb in open_tickets]
    options = [[(edge_id, mask_of((ra, rb))) for edge_id, ra, rb in kept] for kept in choices]
    active = [i for i, opts in enumerate(options) if opts]

    group_memo: dict[int, int] = {}

    def done_by(group: int) -> int:
        hit = group_memo.get(group)
        if hit is None:
            hit = 0
            for k, (ma, mb) in enumerate(ends):
                if ma & group and mb & group:
                    hit |= 1 << k
            group_memo[group] = hit
        return hit

    value_memo: dict[int, int] = {}

    def value(done: int) -> int:
        hit = value_memo.get(done)
        if hit is None:
            hit = sum(p if done >> k & 1 else -p for k, p in enumerate(points))
            value_memo[done] = hit
        return hit

    best_key = (value(0), 0)
    # The best combinations found so far: done mask -> the first pick reaching it.
    best: dict[int, tuple[int, ...]] = {0: ()}
    pick: list[int] = []

    def rec(depth: int, groups: tuple[int, ...], done: int, used: int) -> None:
        nonlocal best_key, best
        if depth == len(active):
            key = (value(done), -used)
            if key > best_key:
                best_key, best = key, {done: tuple(pick)}
            elif key == best_key and done not in best:
                best[done] = tuple(pick)
            return
        pick.append(-1)
        rec(depth + 1, groups, done, used)
        pick.pop()
        for j, (_, m) in enumerate(options[active[depth]]):
            merged = m
            rest: list[int] = []
            for g in groups:
                if g & merged:
                    merged |= g
                else:
                    rest.append(g)
            rest.append(merged)
            pick.append(j)
            rec(depth + 1, tuple(rest), done | done_by(merged), used + 1)
            pick.pop()

    rec(0, (), 0, 0)
    out = []
    for best_done, best_pick in best.items():
        chosen: list[str | None] = [None] * len(choices)
        for depth, j in enumerate(best_pick):
            if j >= 0:
                chosen[active[depth]] = options[active[depth]][j][0]
        out.append((chosen, best_done))
    return out
