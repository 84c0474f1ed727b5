"""Board geometry: where the map, the legend, every route space and every city go in a picture.

Everything is computed from map data alone (city positions, route lengths, parallel groups,
border points), so a new map needs no drawing code. Coordinates returned here are image
pixels (floats). Sizes scale with the picture: ``k = width / 1600``.

Routes are drawn as quadratic curves: a route that would leave a city at almost the same angle
as another (El Paso, Petrograd, Regensburg, …) is bent away from its neighbour, as on a
printed board, so that routes never lie on top of each other near a city.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from engine.maps import GameMap
from render.text import preview_px

Point = tuple[float, float]
Poly = tuple[Point, ...]

REFERENCE_WIDTH = 1600  # sizes below are in pixels at this picture width

# How far apart (degrees) the routes leaving one city should be at least; routes closer than
# this are bent apart. The bend is limited so that no route bulges into its neighbours.
MIN_DEPARTURE_GAP = 26.0
MAX_CURVATURE = 0.22


@dataclass(frozen=True)
class Dims:
    """Drawing sizes in image pixels for one picture width."""

    k: float
    space_w: float  # width of a route space (across the track)
    track_gap: float  # between parallel tracks
    space_gap: float  # between consecutive spaces of one route
    city_r: float  # city dot radius
    pad: float  # clearance between a city dot and the first space
    label_px: int  # city label font size
    label_min_px: int  # smallest label size the layout may fall back to

    @staticmethod
    def for_width(width: float, label_scale: float = 1.0) -> Dims:
        k = width / REFERENCE_WIDTH
        # Fonts shrink more slowly than the picture: a small picture still needs readable text.
        label = max(11, round(19 * k**0.75 * label_scale))
        return Dims(
            k=k,
            space_w=max(4.0, 12.5 * k),
            track_gap=max(1.5, 3.5 * k),
            space_gap=max(1.0, 3.0 * k),
            city_r=max(3.5, 8.5 * k),
            pad=max(1.5, 3.5 * k),
            label_px=label,
            label_min_px=max(10, round(label * 0.8)),
        )


@dataclass(frozen=True)
class Frame:
    """Map drawing space -> image pixels: a uniform scale and an offset."""

    scale: float
    ox: float
    oy: float

    def pt(self, x: float, y: float) -> Point:
        return (self.ox + x * self.scale, self.oy + y * self.scale)


@dataclass(frozen=True)
class BoardLayout:
    """The picture: its size, the map's box, the legend's box and side."""

    width: int
    height: int
    map_box: tuple[int, int, int, int]
    legend_box: tuple[int, int, int, int]
    legend_side: str  # "bottom" (landscape maps) or "right" (portrait maps)
    frame: Frame
    dims: Dims


def board_layout(game_map: GameMap, width: int, legend: bool = True, label_scale: float = 1.0) -> BoardLayout:
    """Where the map and the legend go in a picture `width` pixels wide.

    Landscape maps get the legend as a strip below the map; portrait maps (Nordic, Germany) as
    a column on the right, so the picture does not become very tall."""
    dims = Dims.for_width(width, label_scale)
    k = dims.k
    landscape = game_map.width >= game_map.height
    if not legend:
        map_w = width
        scale = map_w / game_map.width
        map_h = round(game_map.height * scale)
        return BoardLayout(width, map_h, (0, 0, width, map_h), (0, map_h, width, map_h), "none",
                           Frame(scale, 0.0, 0.0), dims)
    # The legend is read at Discord's preview size: its text is at least `preview_px(width)`
    # high, and the legend is sized for three rows of it (name; score and trains; badges).
    text = preview_px(width)
    if landscape:
        scale = width / game_map.width
        map_h = round(game_map.height * scale)
        legend_h = round(text * 4.75)
        return BoardLayout(width, map_h + legend_h, (0, 0, width, map_h), (0, map_h, width, map_h + legend_h),
                           "bottom", Frame(scale, 0.0, 0.0), dims)
    legend_w = max(round(text * 11.5), round(330 * k))
    map_w = width - legend_w
    scale = map_w / game_map.width
    map_h = round(game_map.height * scale)
    return BoardLayout(width, map_h, (0, 0, map_w, map_h), (map_w, 0, width, map_h), "right",
                       Frame(scale, 0.0, 0.0), dims)


# ---------------------------------------------------------------------------------------------
# Route bundles and their bends (map units; independent of the picture size)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bundle:
    """All tracks joining the same two places, drawn side by side.

    `start` is always a city; `end` is a city or, for a route into a country space, its
    border point (the country itself is drawn as a region, not a dot)."""

    key: str
    start: str
    end: str | None  # None: ends at a border point
    p0: Point
    p2: Point
    route_ids: tuple[str, ...]  # in file order: track 1, 2, ...


def bundles(game_map: GameMap) -> dict[str, Bundle]:
    """The map's route bundles, keyed by parallel group (or route id for a lone route)."""
    return _bundles(game_map)


@functools.lru_cache(maxsize=32)
def _bundles(game_map: GameMap) -> dict[str, Bundle]:
    groups: dict[str, list] = {}
    for route in sorted(game_map.routes.values(), key=lambda r: r.index):
        groups.setdefault(route.parallel_group or route.id, []).append(route)
    out: dict[str, Bundle] = {}
    for key, routes in groups.items():
        first = routes[0]
        a, b = game_map.cities[first.a], game_map.cities[first.b]
        if first.border_point is not None and (a.is_country or b.is_country):
            inner = b if a.is_country else a
            out[key] = Bundle(key, inner.id, None, (inner.x, inner.y), tuple(first.border_point),
                              tuple(r.id for r in routes))
            continue
        if b.is_country and not a.is_country:
            pass  # a city to a country without a border point: drawn to the country's position
        elif a.id > b.id and not a.is_country:
            a, b = b, a  # a stable orientation, so every track of a group shares one normal
        out[key] = Bundle(key, a.id, b.id, (a.x, a.y), (b.x, b.y), tuple(r.id for r in routes))
    return out


def _angle(p: Point, q: Point) -> float:
    return math.atan2(q[1] - p[1], q[0] - p[0])


def _wrap(a: float) -> float:
    """An angle in (-pi, pi]."""
    return (a + math.pi) % (2 * math.pi) - math.pi


@functools.lru_cache(maxsize=32)
def curvatures(game_map: GameMap) -> dict[str, float]:
    """A bend for every bundle (offset of the curve's middle, as a share of its length; 0 is
    straight), found by pushing apart the routes that leave a city too close together."""
    bs = _bundles(game_map)
    curv = {key: 0.0 for key in bs}
    # (city, bundle key, +1 if the bundle starts there else -1, straight-line angle, half-width in tracks)
    ends: dict[str, list[tuple[str, int, float, int]]] = {}
    for key, b in bs.items():
        base = _angle(b.p0, b.p2)
        n = len(b.route_ids)
        ends.setdefault(b.start, []).append((key, 1, base, n))
        if b.end is not None and not game_map.cities[b.end].is_country:
            ends.setdefault(b.end, []).append((key, -1, _wrap(base + math.pi), n))
    gap_min = math.radians(MIN_DEPARTURE_GAP)
    for _ in range(60):
        delta = {key: 0.0 for key in bs}
        moved = False
        for items in ends.values():
            if len(items) < 2:
                continue
            angles = []
            for key, sign, base, n in items:
                # the tangent at the start turns by +atan(2c), at the end by -atan(2c)
                angles.append((_wrap(base + sign * math.atan(2 * curv[key])), key, sign, n))
            angles.sort()
            for i in range(len(angles)):
                a1, k1, s1, n1 = angles[i]
                a2, k2, s2, n2 = angles[(i + 1) % len(angles)]
                gap = (a2 - a1) % (2 * math.pi)
                # wide bundles (double/triple tracks) need a wider gap
                need = gap_min * (1 + 0.25 * (n1 + n2 - 2))
                if gap < need and k1 != k2:
                    push = (need - gap) / 2 * 0.5
                    delta[k1] -= s1 * push / 2
                    delta[k2] += s2 * push / 2
                    moved = True
        for key, d in delta.items():
            curv[key] = max(-MAX_CURVATURE, min(MAX_CURVATURE, curv[key] + d))
        if not moved:
            break
    return curv


# ---------------------------------------------------------------------------------------------
# Spaces in image pixels
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Space:
    """One train space: a rectangle along its track."""

    corners: Poly  # 4 corners
    center: Point
    u: Point  # unit vector along the track
    n: Point  # unit normal
    length: float
    width: float
    loco: bool  # a ferry's locomotive space


@dataclass(frozen=True)
class RouteGeom:
    """One route as drawn: its spaces, its track's polyline, the bundle it belongs to."""

    route_id: str
    spaces: tuple[Space, ...]
    track: tuple[Point, ...]
    bundle: str


@dataclass(frozen=True)
class CityGeom:
    city_id: str
    center: Point
    radius: float
    country: bool


@dataclass(frozen=True)
class BoardGeometry:
    """All routes and cities of one map in one layout."""

    layout: BoardLayout
    routes: dict[str, RouteGeom]
    cities: dict[str, CityGeom]
    border_points: dict[str, Point] = field(default_factory=dict)  # route id -> point (countries)
    countries: dict[str, Poly] = field(default_factory=dict)  # country id -> region outline


def _bezier(p0: Point, p1: Point, p2: Point, steps: int) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def _offset(poly: list[Point], off: float) -> list[Point]:
    """The polyline moved sideways by `off` (left normal of the direction of travel)."""
    out = []
    n = len(poly)
    for i in range(n):
        p = poly[max(i - 1, 0)]
        q = poly[min(i + 1, n - 1)]
        dx, dy = q[0] - p[0], q[1] - p[1]
        d = math.hypot(dx, dy) or 1.0
        out.append((poly[i][0] - dy / d * off, poly[i][1] + dx / d * off))
    return out


def _cumulative(poly: list[Point]) -> list[float]:
    acc = [0.0]
    for i in range(1, len(poly)):
        acc.append(acc[-1] + math.dist(poly[i - 1], poly[i]))
    return acc


def _at(poly: list[Point], acc: list[float], s: float) -> Point:
    """The point at arc length `s` along a polyline."""
    if s <= 0:
        return poly[0]
    if s >= acc[-1]:
        return poly[-1]
    lo, hi = 0, len(acc) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if acc[mid] <= s:
            lo = mid
        else:
            hi = mid
    seg = acc[hi] - acc[lo] or 1.0
    t = (s - acc[lo]) / seg
    p, q = poly[lo], poly[hi]
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def rect_poly(center: Point, u: Point, half_len: float, half_w: float) -> Poly:
    """The 4 corners of a rectangle centred on `center`, long side along unit vector `u`."""
    cx, cy = center
    ux, uy = u
    nx, ny = -uy, ux
    return (
        (cx - ux * half_len - nx * half_w, cy - uy * half_len - ny * half_w),
        (cx + ux * half_len - nx * half_w, cy + uy * half_len - ny * half_w),
        (cx + ux * half_len + nx * half_w, cy + uy * half_len + ny * half_w),
        (cx - ux * half_len + nx * half_w, cy - uy * half_len + ny * half_w),
    )


def board_geometry(game_map: GameMap, layout: BoardLayout) -> BoardGeometry:
    """Every route space and city dot of `game_map` in `layout`, in image pixels."""
    frame, dims = layout.frame, layout.dims
    bs = _bundles(game_map)
    curv = curvatures(game_map)
    cities = {
        c.id: CityGeom(c.id, frame.pt(c.x, c.y), dims.city_r, c.is_country) for c in game_map.cities.values()
    }
    pitch = dims.space_w + dims.track_gap

    # Departure angles and half-widths at every city, to trim routes that meet at a narrow angle.
    departures: dict[str, list[tuple[str, float, float]]] = {}
    curves: dict[str, list[Point]] = {}
    for key, b in bs.items():
        p0, p2 = frame.pt(*b.p0), frame.pt(*b.p2)
        length = math.dist(p0, p2)
        ux, uy = (p2[0] - p0[0]) / length, (p2[1] - p0[1]) / length
        c = curv[key]
        p1 = ((p0[0] + p2[0]) / 2 - uy * c * length, (p0[1] + p2[1]) / 2 + ux * c * length)
        steps = max(8, int(length / 6))
        curves[key] = _bezier(p0, p1, p2, steps)
        half = (len(b.route_ids) * dims.space_w + (len(b.route_ids) - 1) * dims.track_gap) / 2
        departures.setdefault(b.start, []).append((key, _angle(p0, p1), half))
        if b.end is not None:
            departures.setdefault(b.end, []).append((key, _angle(p2, p1), half))

    def trim(city: str | None, key: str) -> float:
        if city is None:  # a border point: the space may start right there
            return dims.pad * 0.5
        if cities[city].country:
            return dims.city_r * 2.2
        need = dims.city_r + dims.pad
        mine = [d for d in departures[city] if d[0] == key][0]
        for other, ang, half in departures[city]:
            if other == key:
                continue
            theta = abs(_wrap(ang - mine[1]))
            if theta < math.radians(80):
                need = max(need, (half + mine[2] * math.cos(theta)) / math.sin(theta) + dims.pad)
        return need

    extra: dict[tuple[str, str | None], float] = {}
    for _ in range(12):
        routes = _place_spaces(game_map, bs, curves, dims, pitch, trim, extra)
        # Where two routes' end spaces still touch at a shared city (tight angles between
        # double tracks), pull both ends back a little and try again.
        clashes = _end_clashes(bs, routes)
        if not clashes:
            break
        for key, city in clashes:
            extra[(key, city)] = extra.get((key, city), 0.0) + 2.0 * dims.k + 1.0

    border_points: dict[str, Point] = {}
    countries: dict[str, Poly] = {}
    for r in game_map.routes.values():
        if r.border_point is not None:
            border_points[r.id] = frame.pt(*r.border_point)
    for country in game_map.cities.values():
        if not country.is_country:
            continue
        pts = [frame.pt(country.x, country.y)] + [border_points[r.id] for r in game_map.routes_at(country.id)
                                                  if r.id in border_points]
        countries[country.id] = _region(pts, dims.space_w * 1.6)
    return BoardGeometry(layout, routes, cities, border_points, countries)


def _place_spaces(game_map: GameMap, bs: dict[str, Bundle], curves: dict[str, list[Point]], dims: Dims, pitch: float,
                  trim, extra: dict[tuple[str, str | None], float]) -> dict[str, RouteGeom]:
    routes: dict[str, RouteGeom] = {}
    for key, b in bs.items():
        t0 = trim(b.start, key) + extra.get((key, b.start), 0.0)
        t2 = trim(b.end, key) + extra.get((key, b.end), 0.0)
        n_tracks = len(b.route_ids)
        for i, rid in enumerate(b.route_ids):
            route = game_map.routes[rid]
            off = (i - (n_tracks - 1) / 2) * pitch
            track = _offset(curves[key], off) if off else curves[key]
            acc = _cumulative(track)
            total = acc[-1]
            start, end = t0, total - t2
            avail = end - start
            if avail < route.length * dims.space_w * 1.2:  # never squash spaces into squares
                spare = route.length * dims.space_w * 1.2 - avail
                start -= spare / 2
                end += spare / 2
                avail = end - start
            gap = dims.space_gap
            space_len = (avail - (route.length - 1) * gap) / route.length
            spaces = []
            for j in range(route.length):
                s0 = start + j * (space_len + gap)
                p, q = _at(track, acc, s0), _at(track, acc, s0 + space_len)
                d = math.dist(p, q) or 1.0
                u = ((q[0] - p[0]) / d, (q[1] - p[1]) / d)
                center = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
                # Ferry locomotive spaces: the middle ones, as printed boards spread them.
                loco = _is_loco_space(j, route.length, route.ferry_locos)
                spaces.append(Space(rect_poly(center, u, d / 2, dims.space_w / 2), center, u, (-u[1], u[0]),
                                    d, dims.space_w, loco))
            routes[rid] = RouteGeom(rid, tuple(spaces), tuple(track), key)

    return routes


def _end_clashes(bs: dict[str, Bundle], routes: dict[str, RouteGeom]) -> set[tuple[str, str]]:
    """(bundle, city) ends whose first spaces overlap another bundle's at the same city."""
    at: dict[str, list[tuple[str, list[Poly]]]] = {}
    for key, b in bs.items():
        for city, first in ((b.start, True), (b.end, False)):
            if city is None:
                continue
            polys = []
            for rid in b.route_ids:
                sp = routes[rid].spaces
                if sp:
                    polys += [s.corners for s in (sp[:2] if first else sp[-2:])]
            at.setdefault(city, []).append((key, polys))
    out: set[tuple[str, str]] = set()
    for city, ends in at.items():
        for i in range(len(ends)):
            for j in range(i + 1, len(ends)):
                k1, p1 = ends[i]
                k2, p2 = ends[j]
                if any(polys_overlap(a, b) for a in p1 for b in p2):
                    out.add((k1, city))
                    out.add((k2, city))
    return out


def polys_overlap(p: Poly, q: Poly) -> bool:
    """Whether two convex polygons overlap (separating axes; touching does not count)."""
    if not rects_overlap(poly_bbox(p), poly_bbox(q)):
        return False
    for poly in (p, q):
        n = len(poly)
        for i in range(n):
            a, b = poly[i], poly[(i + 1) % n]
            ax, ay = b[1] - a[1], a[0] - b[0]
            pp = [ax * v[0] + ay * v[1] for v in p]
            qq = [ax * v[0] + ay * v[1] for v in q]
            if max(pp) <= min(qq) or max(qq) <= min(pp):
                return False
    return True


def _is_loco_space(j: int, length: int, locos: int) -> bool:
    if locos <= 0:
        return False
    if locos >= length:
        return True
    # spread `locos` marks evenly, starting from the middle
    picks = sorted({round((i + 0.5) * length / locos - 0.5) for i in range(locos)})
    return j in picks


def _region(points: list[Point], radius: float) -> Poly:
    """A rounded outline around a few points (convex hull, grown by `radius`)."""
    hull = convex_hull(points)
    out: list[Point] = []
    for px, py in hull:
        for a in range(0, 360, 20):
            out.append((px + radius * math.cos(math.radians(a)), py + radius * math.sin(math.radians(a))))
    return tuple(convex_hull(out))


def convex_hull(points: list[Point]) -> list[Point]:
    """Andrew's monotone chain; counter-clockwise, no repeated point."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


# ---------------------------------------------------------------------------------------------
# Intersection tests (label layout and its tests)
# ---------------------------------------------------------------------------------------------

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


def rects_overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def poly_bbox(poly: Poly) -> Rect:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def poly_rect_overlap(poly: Poly, rect: Rect, bbox: Rect | None = None) -> bool:
    """Whether a convex polygon and an axis-aligned rectangle overlap (separating axes)."""
    if not rects_overlap(bbox or poly_bbox(poly), rect):
        return False
    x0, y0, x1, y1 = rect
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        ax, ay = q[1] - p[1], p[0] - q[0]  # edge normal
        pmin = pmax = ax * poly[0][0] + ay * poly[0][1]
        for v in poly[1:]:
            d = ax * v[0] + ay * v[1]
            pmin, pmax = min(pmin, d), max(pmax, d)
        ds = [ax * c[0] + ay * c[1] for c in corners]
        if max(ds) <= pmin or min(ds) >= pmax:
            return False
    return True


def circle_rect_overlap(center: Point, r: float, rect: Rect) -> bool:
    cx = min(max(center[0], rect[0]), rect[2])
    cy = min(max(center[1], rect[1]), rect[3])
    return math.hypot(center[0] - cx, center[1] - cy) < r
