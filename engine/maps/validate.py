"""The map validator: checks map data entry by entry and builds the `GameMap`.

Every problem raises `MapError` whose message names the file and the bad entry, e.g.
``maps/x.json: route 'a-b' (#12): unknown city 'zzz'`` (``#N`` counts entries from 1). The
rules checked here are documented in ``maps/README.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

import networkx as nx

from engine.maps.folding import fold
from engine.maps.model import CITY_KINDS, COLORS, DECKS, ID_RE, City, GameMap, MapError, Route, Ticket

_TAG_RE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
_SUFFIX_RE = re.compile(r"[1-9][0-9]*")

_TOP_REQUIRED = ("id", "name", "provenance", "coordinates", "route_points",
                 "cities", "routes", "tickets")
_TOP_OPTIONAL = ("extras",)
_CITY_REQUIRED = ("id", "name", "x", "y")
_CITY_OPTIONAL = ("kind", "aliases", "tags")
_ROUTE_REQUIRED = ("id", "a", "b", "length", "color", "tunnel", "ferry_locos", "parallel_group")
_ROUTE_OPTIONAL = ("tags", "border_point", "note")
_TICKET_REQUIRED = ("id", "a", "b", "points", "deck")

# A JSON object of a map file, as json.load gives it: the checks below find out what it holds.
_Json = dict[str, Any]


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "an integer", float: "a number", type(None): "null"}.get(type(value),
                                                                            type(value).__name__)


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> MapError:
        return MapError(f"{self.source}: {where}: {message}" if where else
                        f"{self.source}: {message}")

    @staticmethod
    def where(kind: str, entry: Any, number: int) -> str:
        entry_id = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(entry_id, str) and entry_id:
            return f"{kind} '{entry_id}' (#{number})"
        return f"{kind} #{number}"

    def keys(self, where: str, entry: Any, required: tuple[str, ...],
             optional: tuple[str, ...] = ()) -> None:
        if not isinstance(entry, dict):
            raise self.fail(where, f"must be an object, not {_type_name(entry)}")
        for key in required:
            if key not in entry:
                raise self.fail(where, f"missing field '{key}'")
        unknown = [k for k in entry if k not in required and k not in optional]
        if unknown:
            allowed = ", ".join((*required, *optional))
            raise self.fail(where, f"unknown field '{unknown[0]}' (allowed: {allowed})")

    def check(self, where: str, entry: _Json, key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise self.wrong(where, entry, key, expected)

    def wrong(self, where: str, entry: _Json, key: str, expected: str) -> MapError:
        return self.fail(where, f"field '{key}' must be {expected}, "
                                f"not {_type_name(entry[key])} {_show(entry[key])}")

    # Each getter returns the field once its type is checked (narrowed, so the type is known).
    def string(self, where: str, entry: _Json, key: str) -> str:
        value = entry[key]
        if isinstance(value, str) and value.strip() != "":
            return value
        raise self.wrong(where, entry, key, "a non-empty string")

    def integer(self, where: str, entry: _Json, key: str) -> int:
        value = entry[key]
        if _is_int(value):
            return value
        raise self.wrong(where, entry, key, "an integer")

    def number(self, where: str, entry: _Json, key: str) -> float:
        value = entry[key]
        if _is_number(value):
            return value
        raise self.wrong(where, entry, key, "a number")

    def boolean(self, where: str, entry: _Json, key: str) -> bool:
        value = entry[key]
        if isinstance(value, bool):
            return value
        raise self.wrong(where, entry, key, "true or false")

    def ends(self, where: str, entry: _Json, cities: Container[str]) -> tuple[str, str]:
        """The two cities a route or ticket joins: both known, and not the same."""
        a = self.string(where, entry, "a")
        b = self.string(where, entry, "b")
        for end in (a, b):
            if end not in cities:
                raise self.fail(where, f"unknown city '{end}'")
        if a == b:
            raise self.fail(where, f"both ends are the same city '{a}'")
        return a, b


def _name_clash(cities: Iterable[City]) -> tuple[City, str, str] | None:
    """The first name (id, name or alias) of a city that folds to a name of an earlier city:
    (the city, its name, the other city's id); None if the names tell every city apart."""
    owners: dict[str, str] = {}
    for city in cities:
        for text in (city.id, city.name, *city.aliases):
            key = fold(text)
            if not key:
                continue
            owner = owners.setdefault(key, city.id)
            if owner != city.id:
                return city, text, owner
    return None


def parse_map(data: object, source: str) -> GameMap:
    """Validate map data (as read from JSON) and build the :class:`GameMap`.

    ``source`` names the data in error messages (normally ``maps/<id>.json``)."""
    c = _Checker(source)
    if not isinstance(data, dict):
        raise c.fail("", f"a map must be a JSON object, not {_type_name(data)}")
    unknown = [k for k in data if k not in _TOP_REQUIRED and k not in _TOP_OPTIONAL]
    if unknown:
        allowed = ", ".join((*_TOP_REQUIRED, *_TOP_OPTIONAL))
        raise c.fail("", f"unknown top-level field '{unknown[0]}' (allowed: {allowed})")
    for key in _TOP_REQUIRED:
        if key not in data:
            raise c.fail("", f"missing top-level field '{key}'")
    map_id, name = _parse_top(c, data)
    width, height = _parse_space(c, data["coordinates"])
    route_points = _parse_route_points(c, data["route_points"])
    space = _Space(c, width, height)
    cities = _parse_cities(c, data["cities"], space)
    routes, wheres = _parse_routes(c, data["routes"], cities, route_points, space)
    _check_parallel_tracks(c, routes, wheres)
    _check_route_ids(c, routes, wheres)
    _check_connected(c, cities, routes)
    tickets = _parse_tickets(c, data["tickets"], cities)
    extras = data.get("extras", {})
    _check_passengers(c, extras, cities)
    _check_drawing(c, extras.get("drawing"), width, height)

    return GameMap(map_id, name, width, height, cities, routes, tickets, route_points,
                   extras, data["provenance"])


def _parse_top(c: _Checker, data: _Json) -> tuple[str, str]:
    """The map's id and name, and the types of its top-level fields."""
    top = "top level"
    map_id = c.string(top, data, "id")
    if not ID_RE.fullmatch(map_id):
        raise c.fail(top, f"map id '{map_id}' must be lowercase letters, digits and '_'")
    name = c.string(top, data, "name")
    for key, kind, expected in (("provenance", dict, "an object"), ("cities", list, "a list"),
                                ("routes", list, "a list"), ("tickets", list, "a list"),
                                ("coordinates", dict, "an object"),
                                ("route_points", dict, "an object"),
                                ("extras", dict, "an object")):
        if key in data:
            c.check(top, data, key, isinstance(data[key], kind), expected)
    return map_id, name


def _parse_space(c: _Checker, coords: _Json) -> tuple[float, float]:
    """The drawing space's width and height."""
    c.keys("coordinates", coords, ("width", "height"))
    width = c.number("coordinates", coords, "width")
    height = c.number("coordinates", coords, "height")
    if width <= 0 or height <= 0:
        raise c.fail("coordinates", "width and height must be greater than 0")
    return width, height


def _parse_route_points(c: _Checker, table: _Json) -> dict[int, int]:
    """The points table: route length -> points."""
    route_points: dict[int, int] = {}
    for key, value in table.items():
        length = int(key) if (_is_int(key) or (isinstance(key, str) and key.isascii() and key.isdigit())) else None
        where = f"route_points '{key}'"
        if length is None or length < 1:
            raise c.fail(where, "lengths must be whole numbers from 1 up")
        if not _is_int(value) or value < 0:
            raise c.fail(where, f"points must be a whole number of 0 or more, not {value!r}")
        if length in route_points:
            raise c.fail(where, f"length {length} is listed twice")
        route_points[length] = value
    if not route_points:
        raise c.fail("route_points", "the table is empty")
    return route_points


@dataclass(frozen=True)
class _Space:
    """The drawing space, to check that positions lie inside it."""

    c: _Checker
    width: float
    height: float

    def inside(self, where: str, x: float, y: float, what: str) -> None:
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            raise self.c.fail(where, f"{what} ({x}, {y}) lies outside the drawing space "
                                     f"0..{self.width} x 0..{self.height}")


def _parse_cities(c: _Checker, entries: list[Any], space: _Space) -> dict[str, City]:
    """The cities by id, in the file's order; their names must tell them apart."""
    cities: dict[str, City] = {}
    for n, entry in enumerate(entries, 1):
        where = c.where("city", entry, n)
        c.keys(where, entry, _CITY_REQUIRED, _CITY_OPTIONAL)
        city_id = c.string(where, entry, "id")
        if not ID_RE.fullmatch(city_id):
            raise c.fail(where, f"city id '{city_id}' must be lowercase letters, digits and "
                                f"single '_' (no '-', which joins ids in route ids)")
        if city_id in cities:
            raise c.fail(where, f"duplicate city id '{city_id}'")
        city_name = c.string(where, entry, "name")
        x = c.number(where, entry, "x")
        y = c.number(where, entry, "y")
        space.inside(where, x, y, "position")
        kind = entry.get("kind", "city")
        if kind not in CITY_KINDS:
            raise c.fail(where, f"unknown kind {kind!r} (allowed: {', '.join(CITY_KINDS)})")
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(
                isinstance(a, str) and fold(a) for a in aliases):
            raise c.fail(where, "field 'aliases' must be a list of non-empty strings")
        tags = entry.get("tags", {})
        if not isinstance(tags, dict):
            raise c.fail(where, f"field 'tags' must be an object, not {_type_name(tags)}")
        cities[city_id] = City(city_id, city_name, x, y, kind, tuple(aliases), tags)
    if not cities:
        raise c.fail("cities", "the map has no cities")
    clash = _name_clash(cities.values())
    if clash is not None:
        city, text, owner = clash
        where = f"city '{city.id}' (#{list(cities).index(city.id) + 1})"
        raise c.fail(where, f"the name '{text}' also names city '{owner}' "
                            f"(names, ids and aliases must tell cities apart)")
    return cities


def _parse_routes(c: _Checker, entries: list[Any], cities: dict[str, City], route_points: dict[int, int],
                  space: _Space) -> tuple[dict[str, Route], dict[str, str]]:
    """The routes by id, each entry checked on its own, and where each is in the file (for
    the messages of the checks across routes)."""
    routes: dict[str, Route] = {}
    wheres: dict[str, str] = {}
    for n, entry in enumerate(entries, 1):
        where = c.where("route", entry, n)
        route_id = _parse_route(c, where, entry, n, routes, cities, route_points, space)
        wheres[route_id] = where
    return routes, wheres


def _parse_route(c: _Checker, where: str, entry: Any, n: int, routes: dict[str, Route],
                 cities: dict[str, City], route_points: dict[int, int], space: _Space) -> str:
    """Check route entry number `n` and add it to `routes`; its id."""
    c.keys(where, entry, _ROUTE_REQUIRED, _ROUTE_OPTIONAL)
    route_id = c.string(where, entry, "id")
    if route_id in routes:
        raise c.fail(where, f"duplicate route id '{route_id}'")
    a, b = c.ends(where, entry, cities)
    length = c.integer(where, entry, "length")
    if length < 1:
        raise c.fail(where, f"length must be at least 1, not {length}")
    if length not in route_points:
        raise c.fail(where, f"length {length} has no entry in route_points")
    color = entry["color"]
    if color not in COLORS:
        raise c.fail(where, f"unknown colour {color!r} (allowed: {', '.join(COLORS)})")
    tunnel = c.boolean(where, entry, "tunnel")
    ferry_locos = c.integer(where, entry, "ferry_locos")
    if ferry_locos < 0:
        raise c.fail(where, f"ferry_locos must not be negative, not {ferry_locos}")
    if ferry_locos > length:
        raise c.fail(where, f"ferry_locos {ferry_locos} is more than the length {length}")
    group = entry["parallel_group"]
    if group is not None:
        c.string(where, entry, "parallel_group")
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(
            isinstance(t, str) and _TAG_RE.fullmatch(t) for t in tags):
        raise c.fail(where, "field 'tags' must be a list of lowercase words "
                            "(letters, digits, '_')")
    border_point = None
    if "border_point" in entry:
        bp = entry["border_point"]
        c.keys(f"{where} border_point", bp, ("x", "y"))
        border_point = (c.number(where, bp, "x"), c.number(where, bp, "y"))
        space.inside(where, *border_point, "border_point")
    note = entry.get("note")
    if "note" in entry:
        c.string(where, entry, "note")
    routes[route_id] = Route(route_id, a, b, length, color, tunnel, ferry_locos, group,
                             frozenset(tags), border_point, n - 1, note)
    return route_id


def _check_parallel_tracks(c: _Checker, routes: dict[str, Route], wheres: dict[str, str]) -> None:
    """Tracks between the same cities share a parallel group, and a group joins one pair of
    cities with more than one track."""
    groups: dict[str, list[Route]] = {}
    pairs: dict[frozenset[str], list[Route]] = {}
    for r in routes.values():
        if r.parallel_group is not None:
            groups.setdefault(r.parallel_group, []).append(r)
        pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
    for tracks in pairs.values():
        first = tracks[0]
        for r in tracks[1:]:
            if r.parallel_group is None or r.parallel_group != first.parallel_group:
                raise c.fail(wheres[r.id], f"joins the same cities as route '{first.id}' but "
                                           f"they do not share a parallel group")
    for group, tracks in groups.items():
        first = tracks[0]
        for r in tracks[1:]:
            if {r.a, r.b} != {first.a, first.b}:
                raise c.fail(wheres[r.id], f"parallel group '{group}' joins {first.a}–{first.b} "
                                           f"on route '{first.id}' but {r.a}–{r.b} here; a "
                                           f"group's tracks must join the same two cities")
        if len(tracks) == 1:
            raise c.fail(wheres[first.id], f"parallel group '{group}' has only this one track; "
                                           f"use null for a route without parallel tracks")


def _check_route_ids(c: _Checker, routes: dict[str, Route], wheres: dict[str, str]) -> None:
    """Route ids follow the conventions (checked after the structure, whose messages are
    clearer)."""
    for r in routes.values():
        if r.parallel_group is None:
            if r.id != f"{r.a}-{r.b}":
                raise c.fail(wheres[r.id], f"a route without parallel tracks must have the id "
                                           f"'{r.a}-{r.b}'")
        else:
            if r.parallel_group not in (f"{r.a}-{r.b}", f"{r.b}-{r.a}"):
                raise c.fail(wheres[r.id], f"parallel group '{r.parallel_group}' must be named "
                                           f"'{r.a}-{r.b}' or '{r.b}-{r.a}'")
            prefix = f"{r.parallel_group}-"
            if not (r.id.startswith(prefix) and _SUFFIX_RE.fullmatch(r.id[len(prefix):])):
                raise c.fail(wheres[r.id], f"a parallel track must have the id "
                                           f"'{r.parallel_group}-N' (N = 1, 2, ...)")


def _check_connected(c: _Checker, cities: dict[str, City], routes: dict[str, Route]) -> None:
    """The board must be connected (so every ticket's cities can be joined, too)."""
    board = nx.Graph()
    board.add_nodes_from(cities)
    board.add_edges_from((r.a, r.b) for r in routes.values())
    start = next(iter(cities))
    seen = nx.node_connected_component(board, start)
    if len(seen) < len(cities):
        cut = [cid for cid in cities if cid not in seen]
        shown = ", ".join(f"'{cid}'" for cid in cut[:5]) + (" ..." if len(cut) > 5 else "")
        raise c.fail("routes", f"the board is disconnected: {len(cut)} cit"
                               f"{'y' if len(cut) == 1 else 'ies'} ({shown}) cannot be reached "
                               f"from '{start}'")


def _parse_tickets(c: _Checker, entries: list[Any], cities: dict[str, City]) -> dict[str, Ticket]:
    """The tickets by id."""
    tickets: dict[str, Ticket] = {}
    for n, entry in enumerate(entries, 1):
        where = c.where("ticket", entry, n)
        c.keys(where, entry, _TICKET_REQUIRED)
        ticket_id = c.string(where, entry, "id")
        if ticket_id in tickets:
            raise c.fail(where, f"duplicate ticket id '{ticket_id}'")
        a, b = c.ends(where, entry, cities)
        points = c.integer(where, entry, "points")
        if points < 1:
            raise c.fail(where, f"points must be at least 1, not {points}")
        deck = entry["deck"]
        if deck not in DECKS:
            raise c.fail(where, f"unknown deck {deck!r} (allowed: {', '.join(DECKS)})")
        base = f"{a}-{b}"
        suffix = ticket_id[len(base) + 1:]
        if ticket_id != base and not (ticket_id.startswith(base + "-")
                                      and _SUFFIX_RE.fullmatch(suffix) and suffix != "1"):
            raise c.fail(where, f"a ticket must have the id '{base}' (or '{base}-2', ... "
                                f"when several tickets join the same cities)")
        tickets[ticket_id] = Ticket(ticket_id, a, b, points, deck)
    return tickets


def _check_passengers(c: _Checker, extras: _Json, cities: dict[str, City]) -> None:
    """`extras.passengers` and `extras.passenger_colors` (Alsace's figures), if either is given:
    counts per city and per colour, with the same total."""
    passengers = extras.get("passengers")
    colors = extras.get("passenger_colors")
    if passengers is not None or colors is not None:
        if not isinstance(passengers, dict) or not isinstance(colors, dict):
            raise c.fail("extras", "'passengers' and 'passenger_colors' must both be objects")
        for city_id, count in passengers.items():
            where = f"extras.passengers '{city_id}'"
            if city_id not in cities:
                raise c.fail(where, f"unknown city '{city_id}'")
            if not _is_int(count) or count < 0:
                raise c.fail(where, f"count must be a whole number of 0 or more, not {count!r}")
        for color, count in colors.items():
            where = f"extras.passenger_colors '{color}'"
            if color not in COLORS:
                raise c.fail(where, f"unknown colour {color!r} (allowed: {', '.join(COLORS)})")
            if not _is_int(count) or count < 0:
                raise c.fail(where, f"count must be a whole number of 0 or more, not {count!r}")
        if sum(passengers.values()) != sum(colors.values()):
            raise c.fail("extras", f"passengers on the board ({sum(passengers.values())}) and "
                                   f"passenger_colors ({sum(colors.values())}) must have the "
                                   f"same total")


def _check_drawing(c: _Checker, drawing: Any, width: float, height: float) -> None:
    """`extras.drawing`: data for the pictures only. `seas` is a list of named outlines, each a
    polygon of at least 3 [x, y] points inside the drawing space."""
    if drawing is None:
        return
    if not isinstance(drawing, dict):
        raise c.fail("extras.drawing", f"must be an object, not {_type_name(drawing)}")
    unknown = [k for k in drawing if k != "seas"]
    if unknown:
        raise c.fail("extras.drawing", f"unknown field '{unknown[0]}' (allowed: seas)")
    seas = drawing.get("seas", [])
    if not isinstance(seas, list):
        raise c.fail("extras.drawing", f"'seas' must be a list, not {_type_name(seas)}")
    names: set[str] = set()
    for number, sea in enumerate(seas, 1):
        name = sea.get("name") if isinstance(sea, dict) else None
        where = f"extras.drawing.seas '{name}' (#{number})" if isinstance(name, str) and name else \
            f"extras.drawing.seas #{number}"
        c.keys(where, sea, ("name", "outline"))
        sea_name = c.string(where, sea, "name")
        if sea_name in names:
            raise c.fail(where, f"duplicate sea name '{sea_name}'")
        names.add(sea_name)
        outline = sea["outline"]
        if not isinstance(outline, list) or len(outline) < 3:
            raise c.fail(where, "'outline' must be a list of at least 3 [x, y] points")
        for i, point in enumerate(outline, 1):
            if (not isinstance(point, list) or len(point) != 2
                    or not all(_is_number(v) for v in point)):
                raise c.fail(where, f"point #{i} must be [x, y] (two numbers), not {_show(point)}")
            x, y = point
            if not (0 <= x <= width and 0 <= y <= height):
                raise c.fail(where, f"point #{i} {_show(point)} lies outside the drawing space "
                                    f"(0..{width:g} x 0..{height:g})")
        area = sum(outline[i][0] * outline[i - 1][1] - outline[i - 1][0] * outline[i][1]
                   for i in range(len(outline))) / 2
        if abs(area) < 1:
            raise c.fail(where, "the outline encloses no area (its points lie on one line)")
