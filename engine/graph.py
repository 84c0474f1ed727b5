"""Graph algorithms for scoring: connectivity, the longest trail, tickets with stations.

Edges are (edge_id, city_a, city_b, length). Dead ends (Germany's countries) get a private
copy per edge, so they never join two routes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.graph_tickets import Edge, TicketOutcome, best_ticket_outcome

__all__ = ["Edge", "TicketOutcome", "best_ticket_outcome", "connected", "longest_trail"]


def _split(edges: Sequence[Edge], dead_ends: Collection[str]) -> list[tuple[object, object, int]]:
    out = []
    for eid, a, b, length in edges:
        out.append(((a, eid) if a in dead_ends else a, (b, eid) if b in dead_ends else b, length))
    return out


def connected(edges: Sequence[Edge], a: str, b: str, dead_ends: Collection[str] = ()) -> bool:
    """Whether a and b are joined by the edges (a dead end is reached through any copy)."""
    adj: dict[object, list[object]] = {}
    for x, y, _ in _split(edges, dead_ends):
        adj.setdefault(x, []).append(y)
        adj.setdefault(y, []).append(x)

    def nodes(city: str) -> list[object]:
        if city in dead_ends:
            return [n for n in adj if isinstance(n, tuple) and n[0] == city]
        return [city]

    targets = set(nodes(b))
    seen = set(nodes(a))
    stack = list(seen)
    while stack:
        node = stack.pop()
        if node in targets:
            return True
        for nxt in adj.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def longest_trail(edges: Sequence[Edge], dead_ends: Collection[str] = ()) -> int:
    """Exact length of the longest trail (each edge at most once, cities may repeat)."""
    split = _split(edges, dead_ends)
    adj: dict[object, list[tuple[int, object, int]]] = {}
    for i, (x, y, w) in enumerate(split):
        adj.setdefault(x, []).append((i, y, w))
        adj.setdefault(y, []).append((i, x, w))
    used = [False] * len(split)
    best = 0

    def walk(node: object, total: int) -> None:
        nonlocal best
        best = max(best, total)
        for i, nxt, w in adj[node]:
            if not used[i]:
                used[i] = True
                walk(nxt, total + w)
                used[i] = False

    for node in adj:
        walk(node, 0)
    return best
