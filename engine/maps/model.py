"""The map data model: cities, routes, tickets and the immutable `GameMap` with its indexes.

Pure Python (standard library only). Maps are read and checked by `engine.maps.load` and
`engine.maps.validate`; the schema is documented in ``maps/README.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")

COLORS = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")
COLOR_SYNONYMS = {"grey": "gray", "purple": "pink"}
CITY_KINDS = ("city", "country")
DECKS = ("main", "short", "long", "tourist")

ID_RE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")  # city and map ids: no '-', route ids use it


class MapError(ValueError):
    """A map file is missing, unreadable or breaks a rule of the schema."""


class FrozenDict(dict[_K, _V]):
    """A read-only dict: hashable, JSON-serialisable, picklable."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("map data is read-only")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = __ior__ = _read_only

    # dict is unhashable (its __hash__ is None); a read-only map is hashable.
    def __hash__(self) -> int:  # type: ignore[override]  # see the line above
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenDict[_K, _V]], tuple[dict[_K, _V]]]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict[_K, _V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict[_K, _V]:
        return self

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


def _freeze(value: Any) -> Any:
    """Deep read-only copy of JSON-like data (dict -> FrozenDict, list -> tuple)."""
    if isinstance(value, Mapping):
        return FrozenDict((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class City:
    """A city (or, on some maps, a country at the board's edge) and where it is drawn."""

    id: str
    name: str
    x: float
    y: float
    kind: str = "city"
    aliases: tuple[str, ...] = ()
    tags: Mapping[str, Any] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", tuple(self.aliases))
        object.__setattr__(self, "tags", _freeze(self.tags))

    @property
    def is_country(self) -> bool:
        """A country space (Germany's neighbours): tickets end there, stations may not."""
        return self.kind == "country"


@dataclass(frozen=True)
class Route:
    """One track between two cities; parallel tracks are separate routes sharing a group."""

    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool = False
    ferry_locos: int = 0
    parallel_group: str | None = None
    tags: frozenset[str] = frozenset()
    border_point: tuple[float, float] | None = None
    index: int = 0  # position in the file's route list, from 0
    note: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))
        if self.border_point is not None:
            object.__setattr__(self, "border_point", tuple(self.border_point))

    @property
    def is_ferry(self) -> bool:
        """A ferry needs `ferry_locos` locomotives among its cards."""
        return self.ferry_locos > 0

    @property
    def ends(self) -> tuple[str, str]:
        """The two city ids, in file order."""
        return (self.a, self.b)

    def other_end(self, city: str) -> str:
        """The end that is not `city` (ValueError if the route does not end there)."""
        if city == self.a:
            return self.b
        if city == self.b:
            return self.a
        raise ValueError(f"route {self.id!r} does not end at {city!r}")


@dataclass(frozen=True)
class Ticket:
    """A destination ticket: join cities `a` and `b` for `points`; `deck` is the pile it is in."""

    id: str
    a: str
    b: str
    points: int
    deck: str = "main"



class _Index:
    """Lookups precomputed once per map."""

    __slots__ = ("at", "countries", "decks", "pairs", "parallel", "track_no")

    def __init__(self, cities: Mapping[str, City], routes: Mapping[str, Route],
                 tickets: Mapping[str, Ticket]) -> None:
        groups: dict[str, list[Route]] = {}
        at: dict[str, list[Route]] = {cid: [] for cid in cities}
        pairs: dict[frozenset[str], list[Route]] = {}
        for r in routes.values():
            if r.parallel_group is not None:
                groups.setdefault(r.parallel_group, []).append(r)
            at.setdefault(r.a, []).append(r)
            at.setdefault(r.b, []).append(r)
            pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
        self.parallel: dict[str, tuple[Route, ...]] = {}
        self.track_no: dict[str, int] = {}
        for r in routes.values():
            group = groups.get(r.parallel_group, []) if r.parallel_group is not None else []
            self.parallel[r.id] = tuple(t for t in group if t.id != r.id)
            self.track_no[r.id] = group.index(r) + 1 if group else 1
        self.at = {cid: tuple(rs) for cid, rs in at.items()}
        self.countries = frozenset(cid for cid, c in cities.items() if c.is_country)
        self.pairs = {pair: tuple(rs) for pair, rs in pairs.items()}
        decks: dict[str, list[Ticket]] = {}
        for t in tickets.values():
            decks.setdefault(t.deck, []).append(t)
        order = {name: i for i, name in enumerate(DECKS)}
        self.decks = {name: tuple(decks[name])
                      for name in sorted(decks, key=lambda d: (order.get(d, len(order)), d))}


@dataclass(frozen=True)
class GameMap:
    """One board, read-only: its cities, routes and tickets by id (in file order), the points
    per route length, and indexes for the questions the rules ask often."""

    id: str
    name: str
    width: float
    height: float
    cities: Mapping[str, City] = field(hash=False)
    routes: Mapping[str, Route] = field(hash=False)
    tickets: Mapping[str, Ticket] = field(hash=False)
    route_points: Mapping[int, int] = field(hash=False)
    extras: Mapping[str, Any] = field(default_factory=FrozenDict, hash=False)
    provenance: Mapping[str, Any] = field(default_factory=FrozenDict, hash=False)
    _index: _Index = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for name in ("cities", "routes", "tickets", "route_points"):
            object.__setattr__(self, name, FrozenDict(getattr(self, name)))
        object.__setattr__(self, "extras", _freeze(self.extras))
        object.__setattr__(self, "provenance", _freeze(self.provenance))
        object.__setattr__(self, "_index", _Index(self.cities, self.routes, self.tickets))

    # A map never changes: copies of a game state may share it.
    def __copy__(self) -> GameMap:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameMap:
        return self

    # -- scoring and structure -----------------------------------------------------------------

    def points_for(self, length: int) -> int:
        """Points for claiming a route of this length."""
        try:
            return self.route_points[length]
        except KeyError:
            raise MapError(f"map '{self.id}': no route points for length {length!r}") from None

    def parallel_tracks(self, route_id: str) -> tuple[Route, ...]:
        """The other tracks of the route's parallel group, in file order (empty if none)."""
        return self._index.parallel[route_id]

    @property
    def country_ids(self) -> frozenset[str]:
        """The country spaces (dead ends: a path may end there, never pass through)."""
        return self._index.countries

    def routes_at(self, city_id: str) -> tuple[Route, ...]:
        """Every route with an end at the city, in file order."""
        return self._index.at[city_id]

    def routes_between(self, a: str, b: str) -> tuple[Route, ...]:
        """Every route joining the two cities (either order), in file order."""
        return self._index.pairs.get(frozenset((a, b)), ())

    def track_number(self, route_id: str) -> int:
        """1, 2, ... for the tracks of a parallel group in file order; 1 for a lone route."""
        return self._index.track_no[route_id]

    def ticket_deck(self, deck: str) -> tuple[Ticket, ...]:
        """The tickets of one deck, in file order (empty if the map has no such deck)."""
        return self._index.decks.get(deck, ())

    def deck_names(self) -> tuple[str, ...]:
        """Decks present on this map: main, short, long, tourist (in that order), then others."""
        return tuple(self._index.decks)

    # -- labels ----------------------------------------------------------------------------------

    def city_label(self, city_id: str) -> str:
        """The city's name as players read it."""
        return self.cities[city_id].name

    def route_label(self, route_id: str) -> str:
        """ "Oslo – Stockholm (4 yellow)", "... (3 gray tunnel)", "... (2 gray ferry,
        1 locomotive)"; a parallel track of the same colour adds ", track N"."""
        r = self.routes[route_id]
        detail = f"{r.length} {r.color}"
        if r.tunnel:
            detail += " tunnel"
        if r.is_ferry:
            detail += f" ferry, {r.ferry_locos} locomotive{'' if r.ferry_locos == 1 else 's'}"
        if any(t.color == r.color for t in self.parallel_tracks(r.id)):
            detail += f", track {self.track_number(r.id)}"
        return f"{self.city_label(r.a)} – {self.city_label(r.b)} ({detail})"
