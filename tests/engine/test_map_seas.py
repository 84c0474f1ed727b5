"""The seas: drawing data of the maps (`extras.drawing.seas`), checked by the map validator,
placed against the cities (ferries cross water, no city stands in it, ports are on a coast),
and drawn by the renderer."""

from __future__ import annotations

import copy
import importlib.util
import json
import math
from pathlib import Path

import pytest

from engine.maps import MapError, load_map, parse_map
from render import palette as P
from render.base_cache import build_base
from render.geometry import board_geometry, board_layout

ROOT = Path(__file__).resolve().parents[2]
MAPS_WITH_SEAS = ("europe", "nordic", "ussr", "usa", "germany")
# The seas the issues ask for, by map.
REQUIRED = {
    "europe": {"Mediterranean Sea", "Black Sea", "Baltic Sea", "The Channel"},
    "nordic": {"Baltic Sea", "Gulf of Bothnia"},
    "ussr": {"Black Sea", "Caspian Sea"},
    "usa": {"Pacific Ocean", "Atlantic Ocean", "Gulf of Mexico", "Lake Superior", "Lake Michigan", "Lake Huron",
            "Lake Erie", "Lake Ontario"},
    "germany": {"North Sea", "Baltic Sea", "Lake Constance"},
}
# Cities on a coast or a lake shore in real geography, which the board's seas must reach
# (a port of a ferry must anyway): within this many map units.
SHORE = 50
ON_THE_SHORE = {
    "usa": {"san_francisco", "los_angeles", "boston", "new_york", "charleston", "miami", "houston", "new_orleans",
            "chicago", "duluth", "toronto", "sault_st_marie", "portland"},
    "germany": {"emden", "bremerhaven", "kiel", "rostock", "konstanz"},
}
# Ferry ends the printed boards put inland (Essen's ferry to København; Erzurum's across the
# Black Sea): everywhere else a ferry's ends stand on a coast.
INLAND_PORTS = {"europe": {"essen", "erzurum"}}


def _seas(game_map) -> list[list[tuple[float, float]]]:
    return [[(float(x), float(y)) for x, y in sea["outline"]] for sea in game_map.extras["drawing"]["seas"]]


def _inside(p: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = p
    inside = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[i - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _looks_wet(pixel: tuple[int, int, int]) -> bool:
    """Nearer the sea's colour than the land's (a thin sea's pixels blend with its coast)."""
    return math.dist(pixel, P.SEA) < math.dist(pixel, P.LAND)


def _coast_distance(p: tuple[float, float], polys) -> float:
    best = math.inf
    for poly in polys:
        for i in range(len(poly)):
            (ax, ay), (bx, by) = poly[i - 1], poly[i]
            dx, dy = bx - ax, by - ay
            t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
            best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


@pytest.mark.parametrize("map_id", MAPS_WITH_SEAS)
def test_the_map_has_the_seas_the_issue_asks_for(map_id: str) -> None:
    names = {sea["name"] for sea in load_map(map_id).extras["drawing"]["seas"]}
    assert REQUIRED[map_id] <= names


@pytest.mark.parametrize("map_id", MAPS_WITH_SEAS)
def test_no_city_stands_in_the_sea_and_ports_are_on_a_coast(map_id: str) -> None:
    game_map = load_map(map_id)
    polys = _seas(game_map)
    wet = [c.id for c in game_map.cities.values() if any(_inside((c.x, c.y), p) for p in polys)]
    assert wet == []
    ports = {end for r in game_map.routes.values() if r.is_ferry for end in (r.a, r.b)}
    shore = (ports - INLAND_PORTS.get(map_id, set())) | ON_THE_SHORE.get(map_id, set())
    far = sorted(p for p in shore if _coast_distance((game_map.cities[p].x, game_map.cities[p].y), polys) > SHORE)
    assert far == []


@pytest.mark.parametrize("map_id", MAPS_WITH_SEAS)
def test_every_sea_shows_as_water_on_the_board(map_id: str) -> None:
    """The renderer keeps land under every route and drops the little pockets of water that
    cuts off: a sea laid under the routes would vanish from the picture. Every sea and lake of
    every map shows, at least half of it as water, on the 1600-pixel board of a turn post."""
    game_map = load_map(map_id)
    base = build_base(game_map, 1600, legend=False)
    frame = base.layout.frame
    hidden = []
    for sea in game_map.extras["drawing"]["seas"]:
        poly = [(float(x), float(y)) for x, y in sea["outline"]]
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        step = max(1, round(min(max(xs) - min(xs), max(ys) - min(ys)) / 30))
        samples = [(x, y) for x in range(int(min(xs)), int(max(xs)) + 1, step)
                   for y in range(int(min(ys)), int(max(ys)) + 1, step) if _inside((x, y), poly)]
        water = sum(_looks_wet(base.image.getpixel((min(base.image.width - 1, round(frame.ox + x * frame.scale)),
                                                    min(base.image.height - 1, round(frame.oy + y * frame.scale)))))
                    for x, y in samples)
        if water < 0.45 * len(samples):
            hidden.append((sea["name"], round(water / max(1, len(samples)), 2)))
    assert hidden == []


@pytest.mark.parametrize("map_id", MAPS_WITH_SEAS)
def test_every_ferry_crosses_water_as_drawn(map_id: str) -> None:
    """Each ferry's track, as the board draws it (bent and offset), runs over water for at
    least a fifth of its length."""
    game_map = load_map(map_id)
    polys = _seas(game_map)
    layout = board_layout(game_map, 1600)
    geom = board_geometry(game_map, layout)
    frame = layout.frame
    dry = []
    for rid, route in game_map.routes.items():
        if not route.is_ferry:
            continue
        track = [((x - frame.ox) / frame.scale, (y - frame.oy) / frame.scale) for x, y in geom.routes[rid].track]
        share = sum(any(_inside(p, poly) for poly in polys) for p in track) / len(track)
        if share < 0.2:
            dry.append((rid, round(share, 2)))
    assert dry == []


def test_the_renderer_draws_the_seas_as_water() -> None:
    game_map = load_map("europe")
    base = build_base(game_map, 800, legend=False)
    frame = base.layout.frame
    black_sea = next(s for s in game_map.extras["drawing"]["seas"] if s["name"] == "Black Sea")
    poly = [(float(x), float(y)) for x, y in black_sea["outline"]]
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    samples = [(x, y) for x in range(int(min(xs)), int(max(xs)), 12) for y in range(int(min(ys)), int(max(ys)), 12)
               if _inside((x, y), poly)]
    sea = sum(base.image.getpixel((round(frame.ox + x * frame.scale), round(frame.oy + y * frame.scale))) == P.SEA
              for x, y in samples)
    assert sea / len(samples) > 0.6


@pytest.mark.parametrize("map_id", ("europe", "nordic", "usa", "germany"))
def test_the_seas_script_reproduces_the_shipped_files(map_id: str) -> None:
    module = importlib.import_module("tools.maps.seas")
    assert module.write(map_id, check_only=True) == (ROOT / "maps" / f"{map_id}.json").read_text(encoding="utf-8")


# --- the validator --------------------------------------------------------------------------------


def _with(change) -> dict:
    data = json.loads((ROOT / "maps" / "europe.json").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    change(data)
    return data


def test_the_validator_accepts_the_shipped_seas() -> None:
    parse_map(_with(lambda d: None), "maps/europe.json")


@pytest.mark.parametrize("change,message", [
    (lambda d: d["extras"]["drawing"]["seas"][0]["outline"].append([1800, 10]),
     "extras.drawing.seas 'Atlantic Ocean' (#1): point #50 [1800, 10] lies outside the drawing space "
     "(0..1760 x 0..1140)"),
    (lambda d: d["extras"]["drawing"]["seas"][1]["outline"].__setitem__(2, ["a", 3]),
     "extras.drawing.seas 'Irish Sea' (#2): point #3 must be [x, y] (two numbers), not [\"a\", 3]"),
    (lambda d: d["extras"]["drawing"]["seas"][2].__setitem__("outline", [[1, 1], [2, 2]]),
     "extras.drawing.seas 'The Channel' (#3): 'outline' must be a list of at least 3 [x, y] points"),
    (lambda d: d["extras"]["drawing"]["seas"][2].__setitem__("outline", [[1, 1], [2, 2], [3, 3]]),
     "extras.drawing.seas 'The Channel' (#3): the outline encloses no area (its points lie on one line)"),
    (lambda d: d["extras"]["drawing"]["seas"][3].__setitem__("name", "Irish Sea"),
     "extras.drawing.seas 'Irish Sea' (#4): duplicate sea name 'Irish Sea'"),
    (lambda d: d["extras"]["drawing"]["seas"][0].__setitem__("colour", "blue"),
     "extras.drawing.seas 'Atlantic Ocean' (#1): unknown field 'colour' (allowed: name, outline)"),
    (lambda d: d["extras"]["drawing"].__setitem__("lakes", []),
     "extras.drawing: unknown field 'lakes' (allowed: seas)"),
    (lambda d: d["extras"].__setitem__("drawing", []), "extras.drawing: must be an object, not a list"),
])
def test_a_broken_sea_outline_is_refused_with_a_clear_message(change, message: str) -> None:
    with pytest.raises(MapError) as err:
        parse_map(_with(change), "maps/europe.json")
    assert str(err.value) == f"maps/europe.json: {message}"
