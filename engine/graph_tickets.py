"""Ticket completion with station loans (a stop-gap until engine/graph.py has its own)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

Edge = tuple[str, str, str, int]


@dataclass(frozen=True)
class TicketOutcome:
    """The best ticket result: total, per-ticket completion, each station's loan, and how
    many stations that result needs."""

    total: int
    completed: tuple[bool, ...]
    loans: Mapping[str, str | None]
    stations_used: int


class _Find:
    def __init__(self) -> None:
        self.parent: dict[object, object] = {}

    def find(self, x: object) -> object:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: object, b: object) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def _ends(edge: Edge, dead_ends: Collection[str]) -> tuple[object, object]:
    eid, a, b, _ = edge
    return ((a, eid) if a in dead_ends else a, (b, eid) if b in dead_ends else b)


def best_ticket_outcome(
    own_edges: Sequence[Edge],
    tickets: Sequence[tuple[str, str, int]],
    station_options: Mapping[str, Sequence[Edge]] | None = None,
    dead_ends: Collection[str] = (),
) -> TicketOutcome:
    """Choose, for each station, the opponent route it lends (or none) that maximises the
    ticket total; among equal totals, the fewest stations used (X2)."""
    station_options = station_options or {}
    uf = _Find()
    copies: dict[str, list[object]] = {}
    for edge in own_edges:
        x, y = _ends(edge, dead_ends)
        uf.union(x, y)
        for node in (x, y):
            if isinstance(node, tuple):
                copies.setdefault(node[0], []).append(node)
    stations = list(station_options)
    # Each station's choices: None, then one candidate per distinct pair of components joined.
    choices: list[list[tuple[Edge, object, object] | None]] = []
    for city in stations:
        seen: set[frozenset[object]] = set()
        options: list[tuple[Edge, object, object] | None] = [None]
        for edge in station_options[city]:
            x, y = _ends(edge, dead_ends)
            key = frozenset((uf.find(x), uf.find(y)))
            if len(key) == 2 and key not in seen:
                seen.add(key)
                options.append((edge, x, y))
        choices.append(options)

    def _components(city: str, joins: _Find, loan_copies: dict[str, list[object]]) -> set[object]:
        nodes = copies.get(city, []) + loan_copies.get(city, []) if city in dead_ends else [city]
        return {joins.find(uf.find(n)) for n in nodes}

    best: tuple[int, int] | None = None
    best_combo: tuple[tuple[Edge, object, object] | None, ...] = tuple(None for _ in stations)
    best_done: tuple[bool, ...] = ()
    for combo in product(*choices):
        joins = _Find()
        loan_copies: dict[str, list[object]] = {}
        for choice in combo:
            if choice is not None:
                _, x, y = choice
                joins.union(uf.find(x), uf.find(y))
                for node in (x, y):
                    if isinstance(node, tuple):
                        loan_copies.setdefault(node[0], []).append(node)

        done = tuple(
            bool(_components(a, joins, loan_copies) & _components(b, joins, loan_copies)) for a, b, _ in tickets
        )
        total = sum(p if ok else -p for (_, _, p), ok in zip(tickets, done, strict=True))
        used = sum(1 for c in combo if c is not None)
        key = (total, -used)
        if best is None or key > best:
            best, best_combo, best_done = key, combo, done
    assert best is not None
    loans = {city: (c[0][0] if c is not None else None) for city, c in zip(stations, best_combo, strict=True)}
    return TicketOutcome(best[0], best_done, loans, -best[1])
