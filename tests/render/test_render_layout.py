"""Label layout and route geometry: on every map, at the sizes players see, no label overlaps
another label, a route space or a city dot, and no two routes' spaces overlap."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from engine.maps import available_maps, load_map, parse_map
from render.base_cache import BoardBase, build_base
from render.board import render_board
from render.geometry import circle_rect_overlap, poly_bbox, poly_rect_overlap, rects_overlap
from tools.samples import sample_view

MAPS = available_maps()
WIDTHS = [1600, 800]


@pytest.fixture(scope="module")
def bases() -> Callable[[str, int], BoardBase]:
    """Each map's base at each width, drawn from scratch once for the tests of this module
    that read it (a base takes about a second; three tests read each one)."""
    built: dict[tuple[str, int], BoardBase] = {}

    def base(map_id: str, width: int) -> BoardBase:
        if (map_id, width) not in built:
            built[map_id, width] = build_base(load_map(map_id), width)
        return built[map_id, width]

    return base


def _polys_overlap(p: tuple, q: tuple) -> bool:
    """Convex polygons overlap (separating axes), with a hair of tolerance for touching."""
    for poly in (p, q):
        n = len(poly)
        for i in range(n):
            a, b = poly[i], poly[(i + 1) % n]
            ax, ay = b[1] - a[1], a[0] - b[0]
            pp = [ax * v[0] + ay * v[1] for v in p]
            qq = [ax * v[0] + ay * v[1] for v in q]
            norm = (ax * ax + ay * ay) ** 0.5 or 1.0
            if max(pp) <= min(qq) + 0.25 * norm or max(qq) <= min(pp) + 0.25 * norm:
                return False
    return True


def _check(base) -> list[str]:
    problems = []
    labels = base.labels
    geom = base.geom
    x0, y0, x1, y1 = base.layout.map_box
    for lab in labels:
        if not lab.ok:
            problems.append(f"{lab.kind} {lab.owner}: no free spot")
        b = lab.box
        if b[0] < x0 or b[1] < y0 or b[2] > x1 or b[3] > y1:
            problems.append(f"{lab.kind} {lab.owner}: outside the map")
    for a, b in itertools.combinations(labels, 2):
        if rects_overlap(a.box, b.box):
            problems.append(f"{a.kind} {a.owner} overlaps {b.kind} {b.owner}")
    for lab in labels:
        for rid, rg in geom.routes.items():
            for sp in rg.spaces:
                if poly_rect_overlap(sp.corners, lab.box):
                    problems.append(f"{lab.kind} {lab.owner} overlaps route {rid}")
                    break
        for cg in geom.cities.values():
            if not cg.country and circle_rect_overlap(cg.center, cg.radius, lab.box):
                problems.append(f"{lab.kind} {lab.owner} overlaps city {cg.city_id}")
    return problems


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("width", WIDTHS)
def test_labels_never_overlap(map_id: str, width: int, bases: Callable[[str, int], BoardBase]) -> None:
    base = bases(map_id, width)
    assert _check(base) == []


@pytest.mark.parametrize("map_id", MAPS)
def test_hand_minimap_labels_never_overlap(map_id: str) -> None:
    from render.hand import _mini_base

    assert _check(_mini_base(load_map(map_id))) == []


@pytest.mark.parametrize("map_id", MAPS)
def test_routes_never_overlap(map_id: str, bases: Callable[[str, int], BoardBase]) -> None:
    """Double and triple routes lie side by side; routes meeting at a city do not cross there."""
    base = bases(map_id, 1600)
    spaces = [(rid, sp.corners, poly_bbox(sp.corners)) for rid, rg in base.geom.routes.items() for sp in rg.spaces]
    clashes = set()
    for (r1, p1, b1), (r2, p2, b2) in itertools.combinations(spaces, 2):
        if r1 != r2 and rects_overlap(b1, b2) and _polys_overlap(p1, p2):
            clashes.add(tuple(sorted((r1, r2))))
    assert sorted(clashes) == []


@pytest.mark.parametrize("map_id", MAPS)
def test_every_route_has_its_spaces(map_id: str, bases: Callable[[str, int], BoardBase]) -> None:
    game_map = load_map(map_id)
    base = bases(map_id, 1600)
    for rid, route in game_map.routes.items():
        spaces = base.geom.routes[rid].spaces
        assert len(spaces) == route.length
        assert sum(sp.loco for sp in spaces) == route.ferry_locos
        # a space stays longer than it is wide, so a route never looks like a row of dots
        assert min(sp.length for sp in spaces) >= 1.15 * spaces[0].width, rid


def test_a_new_map_needs_no_drawing_code() -> None:
    """Any map in the schema renders: here a made-up one with a double route, a tunnel, a
    ferry and a country space with border points."""
    data = {
        "id": "tiny", "name": "Tiny", "provenance": {"note": "test"},
        "coordinates": {"width": 800, "height": 500},
        "route_points": {str(n): n for n in range(1, 10)},
        "cities": [
            {"id": "alpha", "name": "Älpha", "x": 100, "y": 100},
            {"id": "beta", "name": "Beta Town", "x": 500, "y": 120},
            {"id": "gamma", "name": "Gamma", "x": 300, "y": 400},
            {"id": "land", "name": "Outland", "x": 760, "y": 460, "kind": "country"},
        ],
        "routes": [
            {"id": "alpha-beta-1", "a": "alpha", "b": "beta", "length": 4, "color": "red", "tunnel": False,
             "ferry_locos": 0, "parallel_group": "alpha-beta"},
            {"id": "alpha-beta-2", "a": "alpha", "b": "beta", "length": 4, "color": "blue", "tunnel": False,
             "ferry_locos": 0, "parallel_group": "alpha-beta"},
            {"id": "alpha-gamma", "a": "alpha", "b": "gamma", "length": 3, "color": "gray", "tunnel": True,
             "ferry_locos": 0, "parallel_group": None},
            {"id": "beta-gamma", "a": "beta", "b": "gamma", "length": 3, "color": "gray", "tunnel": False,
             "ferry_locos": 1, "parallel_group": None},
            {"id": "gamma-land", "a": "gamma", "b": "land", "length": 3, "color": "green", "tunnel": False,
             "ferry_locos": 0, "parallel_group": None, "border_point": {"x": 700, "y": 440}},
        ],
        "tickets": [{"id": "alpha-land", "a": "alpha", "b": "land", "points": 5, "deck": "main"}],
    }
    game_map = parse_map(data, "tiny.json")
    view = sample_view(game_map, players=2, seed=1, claimed_share=0.6)
    pic = render_board(view, game_map, highlight_routes=list(view.route_owner)[:1])
    assert pic.png.startswith(b"\x89PNG")
    assert _check(pic.base) == []
