"""Label placement: every city name (and country name, and passenger row) in a free spot.

A label may not overlap another label, a route space, a city dot or a border marker, and must
stay inside the map. Each label tries spots around its city, nearest and most conventional
first (right, left, above, below, the diagonals), then farther out, then on two lines, then
a slightly smaller font. Cities with the fewest free spots are placed first; when a city finds
no spot, one neighbour that blocks it is moved to another free spot if it has one.

The result is computed once per map and picture size (it is part of the cached base).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.maps import GameMap
from render.geometry import (
    BoardGeometry,
    Point,
    Poly,
    Rect,
    circle_rect_overlap,
    poly_bbox,
    poly_rect_overlap,
    rects_overlap,
)
from render.text import font

T = TypeVar("T")

DIRECTIONS = ("E", "W", "N", "S", "NE", "SE", "NW", "SW")


@dataclass(frozen=True)
class Label:
    """A placed label: its text lines, font size and box (halo included), in image pixels."""

    owner: str  # city id
    kind: str  # "city", "country" or "passengers"
    lines: tuple[str, ...]
    font_px: int
    box: Rect
    origin: Point  # where the first line is drawn (anchor "la")
    line_h: float
    ok: bool = True  # False: no free spot existed; the best overlapping one was used
    leader: tuple[Point, Point] | None = None  # a thin line from the city to a far label
    count: int = 0  # passengers: how many figures (`font_px` is then the figures per row)


@dataclass
class _Candidate:
    box: Rect
    origin: Point
    lines: tuple[str, ...]
    font_px: int
    line_h: float
    cost: float
    leader: tuple[Point, Point] | None = None


class _Grid:
    """A bucket grid of obstacles for fast overlap queries."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.items: list[tuple[str, object, Rect]] = []

    def _keys(self, r: Rect) -> Iterable[tuple[int, int]]:
        c = self.cell
        for gx in range(int(r[0] // c), int(r[2] // c) + 1):
            for gy in range(int(r[1] // c), int(r[3] // c) + 1):
                yield (gx, gy)

    def add(self, kind: str, shape: object, bbox: Rect) -> None:
        idx = len(self.items)
        self.items.append((kind, shape, bbox))
        for key in self._keys(bbox):
            self.cells.setdefault(key, []).append(idx)

    def hits(self, rect: Rect) -> int:
        """How many obstacles overlap `rect`."""
        return sum(1 for _ in self._overlapping(rect))

    def clear(self, rect: Rect) -> bool:
        """Whether no obstacle overlaps `rect` (stops at the first that does: the label search
        asks this of thousands of spots)."""
        return next(self._overlapping(rect), None) is None

    def _overlapping(self, rect: Rect) -> Iterator[int]:
        seen: set[int] = set()
        for key in self._keys(rect):
            for idx in self.cells.get(key, ()):
                if idx in seen:
                    continue
                seen.add(idx)
                kind, shape, bbox = self.items[idx]
                if not rects_overlap(bbox, rect):
                    continue
                if (
                    kind == "rect"
                    # an item's shape is a polygon or a circle, as its kind says
                    or (kind == "poly" and poly_rect_overlap(shape, rect, bbox))  # type: ignore[arg-type]
                    or (kind == "circle" and circle_rect_overlap(shape[0], shape[1], rect))  # type: ignore[index]
                ):
                    yield idx


def grow(poly: Poly, by: float) -> Poly:
    """A convex polygon pushed outwards by `by` pixels (from its centroid; fine for rectangles)."""
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    out = []
    for x, y in poly:
        dx, dy = x - cx, y - cy
        d = (dx * dx + dy * dy) ** 0.5 or 1.0
        out.append((x + dx / d * by * 1.42, y + dy / d * by * 1.42))
    return tuple(out)


def obstacles(geom: BoardGeometry, clearance: float, routes: bool = True) -> list[tuple[str, object, Rect]]:
    """Everything a label must avoid: route spaces (unless `routes` is False), city dots,
    border markers."""
    out: list[tuple[str, object, Rect]] = []
    for rg in geom.routes.values() if routes else ():
        for sp in rg.spaces:
            poly = grow(sp.corners, clearance)
            out.append(("poly", poly, poly_bbox(poly)))
    for cg in geom.cities.values():
        if cg.country:
            continue
        r = cg.radius + clearance
        out.append(("circle", (cg.center, r), (cg.center[0] - r, cg.center[1] - r, cg.center[0] + r, cg.center[1] + r)))
    for p in geom.border_points.values():
        r = geom.layout.dims.space_w * 0.6 + clearance
        out.append(("circle", (p, r), (p[0] - r, p[1] - r, p[0] + r, p[1] + r)))
    return out


def _split(name: str) -> tuple[str, ...] | None:
    """Two lines for a long name with a space or hyphen ("Sault St. / Marie"), or None."""
    cuts = [i for i, ch in enumerate(name) if ch in " -"]
    if not cuts:
        return None
    mid = len(name) / 2
    i = min(cuts, key=lambda c: abs(c - mid))
    first = name[: i + 1].rstrip() if name[i] == "-" else name[:i]
    return (first, name[i + 1 :])


def _text_candidates(
    anchor: Point, r: float, lines_options: list[tuple[str, ...]], sizes: list[int], k: float, halo: float
) -> list[_Candidate]:
    out: list[_Candidate] = []
    ax, ay = anchor
    base_gap = max(1.5, 2.0 * k)
    rings = (base_gap, base_gap + 6 * k, base_gap + 13 * k, base_gap + 22 * k)
    for vi, (lines, px) in enumerate((lines, px) for px in sizes for lines in lines_options):
        fnt = font(px, "condensed")
        line_h = round(px * 1.05)
        # the box hugs the glyphs' ink (accents and descenders included), plus the halo
        boxes = [fnt.getbbox(t, anchor="la") for t in lines]
        tw = max(b[2] for b in boxes)  # from the origin: a small left bearing stays inside
        top_off = boxes[0][1]  # from the "la" origin down to the top of the ink
        ink_h = boxes[-1][3] + (len(lines) - 1) * line_h - top_off
        bw, bh = tw + 2 * halo, ink_h + 2 * halo
        for ri, g in enumerate(rings):
            d = r + g
            diag = d * 0.72
            spots = {
                "E": (ax + d, ay - bh / 2),
                "W": (ax - d - bw, ay - bh / 2),
                "N": (ax - bw / 2, ay - d - bh),
                "S": (ax - bw / 2, ay + d),
                "NE": (ax + diag, ay - diag - bh),
                "SE": (ax + diag, ay + diag),
                "NW": (ax - diag - bw, ay - diag - bh),
                "SW": (ax - diag - bw, ay + diag),
            }
            for di, name in enumerate(DIRECTIONS):
                x0, y0 = spots[name]
                cost = ri * 10 + di + vi * 25
                out.append(_cand(x0, y0, bw, bh, halo, top_off, lines, px, line_h, cost))
            # above / below, shifted sideways (names sit well off-centre over a dot too)
            for sx in (-bw / 3, bw / 3):
                for x0, y0 in (spots["N"], spots["S"]):
                    out.append(_cand(x0 + sx, y0, bw, bh, halo, top_off, lines, px, line_h, ri * 10 + 8 + vi * 25))
    out.sort(key=lambda c: c.cost)
    return out


def _cand(x0: float, y0: float, bw: float, bh: float, halo: float, top_off: float, lines: tuple[str, ...],
          px: int, line_h: float, cost: float) -> _Candidate:
    # A whole-pixel text origin keeps glyph rendering crisp and the box exact.
    ox, oy = round(x0 + halo), round(y0 + halo - top_off)
    x0, y0 = ox - halo, oy + top_off - halo
    return _Candidate((x0, y0, x0 + bw, y0 + bh), (ox, oy), lines, px, line_h, cost)


def _box_candidates(anchor: Point, r: float, bw: float, bh: float, k: float) -> list[_Candidate]:
    """Spots for a small box (a row of passenger figures) close to its city."""
    ax, ay = anchor
    out = []
    for ri, g in enumerate((2 * k, 7 * k, 13 * k)):
        d = r + g
        spots = [
            (ax - bw / 2, ay + d), (ax - bw / 2, ay - d - bh), (ax + d, ay - bh / 2), (ax - d - bw, ay - bh / 2),
            (ax + d * 0.7, ay + d * 0.7), (ax - d * 0.7 - bw, ay + d * 0.7),
            (ax + d * 0.7, ay - d * 0.7 - bh), (ax - d * 0.7 - bw, ay - d * 0.7 - bh),
        ]
        for di, (x0, y0) in enumerate(spots):
            x0, y0 = round(x0), round(y0)
            out.append(_Candidate((x0, y0, x0 + bw, y0 + bh), (x0, y0), (), 0, bh, ri * 10 + di))
    return out


@dataclass
class _Item:
    owner: str
    kind: str
    candidates: list[_Candidate]
    count: int = 0
    anchor: Point = (0.0, 0.0)
    radius: float = 0.0
    options: tuple[tuple[str, ...], ...] = ()


def obstacle_grid(geom: BoardGeometry, routes: bool = True) -> _Grid:
    """The static obstacles of a board in a bucket grid (cacheable per base); `routes=False`
    lets labels lie over routes (the hand's small map names a few cities, over its routes)."""
    k = geom.layout.dims.k
    grid = _Grid(cell=max(24.0, 60 * k))
    for kind, shape, bbox in obstacles(geom, max(1.0, 1.5 * k), routes):
        grid.add(kind, shape, bbox)
    return grid


def place_labels(game_map: GameMap, geom: BoardGeometry, with_labels: bool = True,
                 only: Iterable[str] | None = None, grid: _Grid | None = None,
                 memo: dict[Any, Any] | None = None) -> list[Label]:
    """Place the city labels (and Germany's country names and passenger rows) of a board.

    `only` limits the labels to some cities, without passengers (the hand picture's small
    map names just the cities of the player's tickets); `grid` reuses `obstacle_grid(geom)`.

    `memo` (a dict kept with `grid`, e.g. in the cached base) keeps what does not depend on
    which other labels are placed: each city's spots free of obstacles, and a crowded city's
    wider search. Placing a new set of cities then only checks the labels against each other
    (the hand picture: a few ms instead of 50-300 ms for a ticket set never seen before). The
    labels are the same with or without it."""
    memo = {} if memo is None else memo
    dims = geom.layout.dims
    k = dims.k
    halo = max(1.5, 2.0 * k)
    mx0, my0, mx1, my1 = geom.layout.map_box
    inner = (mx0 + 2, my0 + 2, mx1 - 2, my1 - 2)
    grid = grid or obstacle_grid(geom)

    wanted = set(only) if only is not None else None
    sizes = [dims.label_px, round((dims.label_px + dims.label_min_px) / 2), dims.label_min_px]
    if dims.label_min_px <= 12:  # small pictures: one more step down, to the smallest legible size
        sizes.append(10)
    sizes = sorted(set(sizes), reverse=True)
    items: list[_Item] = []
    passengers = game_map.extras.get("passengers") or {}
    fig_w, fig_h, fig_gap = passenger_figure_size(k)
    free: dict[int, list[_Candidate]] = {}
    for city in game_map.cities.values():
        cg = geom.cities[city.id]
        if with_labels and (wanted is None or city.id in wanted):
            known = memo.get(("city", city.id))
            if known is None:
                options: list[tuple[str, ...]] = [(city.name,)]
                two = _split(city.name)
                if two:
                    options.append(two)
                r = cg.radius if not city.is_country else dims.space_w * 0.4
                kind = "country" if city.is_country else "city"
                cands = _text_candidates(cg.center, r, options, sizes, k, halo)
                item = _Item(city.id, kind, cands, 0, cg.center, r, tuple(options))
                known = memo[("city", city.id)] = (item, _free_spots(item, geom, grid, inner))
            proto, spots = known
            free[len(items)] = spots
            # a copy: the abbreviation step below rewrites an item's options
            items.append(_Item(proto.owner, proto.kind, proto.candidates, 0, proto.anchor, proto.radius,
                               proto.options))
        n = int(passengers.get(city.id, 0)) if with_labels and wanted is None else 0
        if n:
            r = cg.radius if not city.is_country else dims.space_w * 0.4
            cands = []
            for rows in (1, 2) if n >= 3 else (1,):
                cols = -(-n // rows)
                bw = cols * fig_w + (cols - 1) * fig_gap
                bh = rows * fig_h + (rows - 1) * fig_gap
                for c in _box_candidates(cg.center, r, bw, bh, k):
                    c.font_px = cols  # passengers: figures per row
                    c.cost += (rows - 1) * 4
                    cands.append(c)
            cands.sort(key=lambda c: c.cost)
            items.append(_Item(city.id, "passengers", cands, n, cg.center, r))

    for i, item in enumerate(items):
        if item.kind == "passengers":
            free[i] = _free_spots(item, geom, grid, inner)

    placed: dict[int, _Candidate] = {}

    def clashes(box: Rect, skip: int | None = None) -> list[int]:
        return [j for j, c in placed.items() if j != skip and rects_overlap(c.box, box)]

    order = sorted(range(len(items)), key=lambda i: (len(free[i]), i))
    failed: dict[int, _Candidate] = {}
    for i in order:
        choice = next((c for c in free[i] if not clashes(c.box)), None)
        if choice is None:
            choice = _repair(i, free, placed, clashes)
        if choice is None and items[i].kind != "passengers":
            choice = _search(items[i], geom, grid, inner, sizes, k, halo, clashes, memo)
        if choice is None and items[i].kind != "passengers":
            # a very crowded corner of a small picture: an abbreviated name ("Saarbr.")
            short = _abbreviations(items[i].options[0][0])
            if short:
                items[i].options = tuple((s,) for s in short)
                choice = _search(items[i], geom, grid, inner, sizes[-1:], k, halo, clashes, memo)
        if choice is None and items[i].kind == "passengers":
            choice = _search_box(items[i], geom, grid, inner, k, clashes)
        if choice is None:
            # Nothing free: the spot that overlaps least (reported as not ok; tests catch it).
            pool = [c for c in items[i].candidates if _inside(c.box, inner)] or items[i].candidates
            choice = min(pool, key=lambda c: (grid.hits(c.box) * 10 + len(clashes(c.box)), c.cost))
            failed[i] = choice
        placed[i] = choice

    labels = []
    for i, c in sorted(placed.items()):
        item = items[i]
        labels.append(Label(item.owner, item.kind, c.lines, c.font_px, c.box, c.origin, c.line_h,
                            ok=i not in failed, count=item.count, leader=c.leader))
    return labels


def _free_spots(item: _Item, geom: BoardGeometry, grid: _Grid, inner: Rect) -> list[_Candidate]:
    """An item's candidate spots inside the map, clear of obstacles and (a name) nearer its own
    city than any other, best first: all that does not depend on the other labels."""
    k = geom.layout.dims.k
    dots = [cg.center for cg in geom.cities.values() if not cg.country and cg.city_id != item.owner
            and abs(cg.center[0] - item.anchor[0]) < 400 * k and abs(cg.center[1] - item.anchor[1]) < 400 * k]

    def own(c: _Candidate) -> bool:
        # A name must sit nearer its own city than any other, or it reads as the wrong city's.
        if item.kind == "country":
            return True
        mine = _rect_dist(item.anchor, c.box)
        return all(_rect_dist(p, c.box) > mine for p in dots)

    return [c for c in item.candidates if _inside(c.box, inner) and own(c) and grid.clear(c.box)]


def _inside(b: Rect, inner: Rect) -> bool:
    return b[0] >= inner[0] and b[1] >= inner[1] and b[2] <= inner[2] and b[3] <= inner[3]


def _search(item: _Item, geom: BoardGeometry, grid: _Grid, inner: Rect, sizes: list[int], k: float, halo: float,
            clashes, memo: dict[Any, Any]) -> _Candidate | None:
    """A wider search for a crowded city: every spot on a fine grid around it, nearest first,
    as long as the label stays nearer to its own city than to any other. The spots that pass
    everything but the other labels are listed once per city and text (in `memo`)."""
    for variant in _search_variants(item, sizes):
        key = ("near", item.owner, variant)
        spots = memo.get(key)
        if spots is None:
            spots = memo[key] = _Lazy(_near_spots(item, geom, grid, inner, variant, k, halo))
        for cand, box in spots:
            if not clashes(box) and not clashes(cand.box):
                return cand
    # Last resort: a farther spot that may be nearer another city, tied to its own city by a
    # thin leader line that crosses no route.
    for variant in _search_variants(item, sizes):
        key = ("far", item.owner, variant)
        far = memo.get(key)
        if far is None:
            far = memo[key] = _Lazy(_far_spots(item, grid, inner, variant, k, halo))
        for cand, line in far:
            if not clashes(cand.box) and not any(clashes(box) for box in line):
                return cand
    return None


class _Lazy(Generic[T]):
    """A generator's items, kept as they are produced: iterating again replays them and then
    goes on where the last reader stopped (a search that found its spot early stays cheap)."""

    def __init__(self, source: Iterator[T]) -> None:
        self.source: Iterator[T] | None = source
        self.seen: list[T] = []

    def __iter__(self) -> Iterator[T]:
        i = 0
        while True:
            if i == len(self.seen):
                if self.source is None:
                    return
                try:
                    self.seen.append(next(self.source))
                except StopIteration:
                    self.source = None
                    return
            yield self.seen[i]
            i += 1


def _search_variants(item: _Item, sizes: list[int]) -> list[tuple[int, tuple[str, ...], int]]:
    """(order, lines, font size) of each way to write an item's name, in the order tried."""
    return [(vi, lines, px) for vi, (lines, px) in enumerate((lines, px) for px in sizes for lines in item.options)]


def _near_spots(item: _Item, geom: BoardGeometry, grid: _Grid, inner: Rect, variant: tuple[int, tuple[str, ...], int],
                k: float, halo: float) -> Iterator[tuple[_Candidate, Rect]]:
    """The wider search's spots near the city for one way of writing its name, nearest first,
    that are inside the map, clear of obstacles and nearer this city than any other."""
    vi, lines, px = variant
    ax, ay = item.anchor
    reach = max(46 * k, 44) + item.radius
    step = max(2.0, 3.0 * k)
    dots = [cg.center for cg in geom.cities.values() if not cg.country and cg.city_id != item.owner]
    near_dots = [p for p in dots if abs(p[0] - ax) < reach * 4 and abs(p[1] - ay) < reach * 4]
    proto = _text_candidates((0.0, 0.0), 0.0, [lines], [px], k, halo)[0]
    bw = proto.box[2] - proto.box[0]
    bh = proto.box[3] - proto.box[1]
    spots = []
    n = int((reach + bw) / step) + 1
    m = int((reach + bh) / step) + 1
    for i in range(-n, n + 1):
        for j in range(-m, m + 1):
            x0 = ax + i * step - bw / 2
            y0 = ay + j * step - bh / 2
            box = (x0, y0, x0 + bw, y0 + bh)
            dist = _rect_dist((ax, ay), box)
            if dist < item.radius + 1.5 * k or dist > reach:
                continue
            spots.append((dist, x0, y0, box))
    spots.sort()
    for dist, x0, y0, box in spots:
        if not _inside(box, inner):
            continue
        if any(_rect_dist(p, box) < dist for p in near_dots):
            continue  # would read as another city's name
        if not grid.clear(box):
            continue
        top_off = proto.box[1] + halo - proto.origin[1]
        cand = _cand(x0, y0, bw, bh, halo, top_off, lines, px, proto.line_h, 100 + vi)
        if not grid.clear(cand.box):
            continue
        yield cand, box  # the caller checks both boxes against the placed labels


def _far_spots(item: _Item, grid: _Grid, inner: Rect, variant: tuple[int, tuple[str, ...], int], k: float,
               halo: float) -> Iterator[tuple[_Candidate, list[Rect]]]:
    """The last resort's farther spots for one way of writing the name, nearest first, each with
    its leader line (as small boxes along it) when spot and line are clear of obstacles."""
    vi, lines, px = variant
    ax, ay = item.anchor
    reach = max(46 * k, 44) + item.radius
    step = max(2.0, 3.0 * k)
    proto = _text_candidates((0.0, 0.0), 0.0, [lines], [px], k, halo)[0]
    bw = proto.box[2] - proto.box[0]
    bh = proto.box[3] - proto.box[1]
    far = reach * 1.8
    near: list[tuple[float, float, float]] = []
    n, m = int((far + bw) / step) + 1, int((far + bh) / step) + 1
    for i in range(-n, n + 1):
        for j in range(-m, m + 1):
            x0, y0 = ax + i * step - bw / 2, ay + j * step - bh / 2
            box = (x0, y0, x0 + bw, y0 + bh)
            dist = _rect_dist((ax, ay), box)
            if item.radius + 4 * k <= dist <= far:
                near.append((dist, x0, y0))
    near.sort()
    for _, x0, y0 in near:
        top_off = proto.box[1] + halo - proto.origin[1]
        cand = _cand(x0, y0, bw, bh, halo, top_off, lines, px, proto.line_h, 150 + vi)
        b = cand.box
        if not _inside(b, inner) or not grid.clear(b):
            continue
        end = (min(max(ax, b[0]), b[2]), min(max(ay, b[1]), b[3]))
        length = ((end[0] - ax) ** 2 + (end[1] - ay) ** 2) ** 0.5
        ux, uy = (end[0] - ax) / length, (end[1] - ay) / length
        start = (ax + ux * (item.radius + 2.5), ay + uy * (item.radius + 2.5))
        line = _line_boxes(start, end)
        if not all(grid.clear(box) for box in line):
            continue
        cand.leader = (start, end)
        yield cand, line


def _line_boxes(a: Point, b: Point) -> list[Rect]:
    """Small boxes along a thin line from `a` to `b`, to test it against obstacles and labels."""
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    steps = max(2, int(length / 2))
    out = []
    for i in range(1, steps):
        t = i / steps
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        out.append((x - 0.5, y - 0.5, x + 0.5, y + 0.5))
    return out


def _search_box(item: _Item, geom: BoardGeometry, grid: _Grid, inner: Rect, k: float, clashes) -> _Candidate | None:
    """The wider search for a passenger row (same rules as for a name)."""
    ax, ay = item.anchor
    reach = 30 * k + item.radius
    step = max(2.0, 2.0 * k)
    dots = [cg.center for cg in geom.cities.values() if not cg.country and cg.city_id != item.owner]
    shapes: dict[tuple[float, float], int] = {}
    for c in item.candidates:
        shapes.setdefault((c.box[2] - c.box[0], c.box[3] - c.box[1]), c.font_px)
    for (bw, bh), cols in shapes.items():
        spots = []
        n, m = int((reach + bw) / step) + 1, int((reach + bh) / step) + 1
        for i in range(-n, n + 1):
            for j in range(-m, m + 1):
                x0, y0 = round(ax + i * step - bw / 2), round(ay + j * step - bh / 2)
                box = (x0, y0, x0 + bw, y0 + bh)
                dist = _rect_dist((ax, ay), box)
                if item.radius + 1.5 * k <= dist <= reach:
                    spots.append((dist, box))
        spots.sort()
        for dist, box in spots:
            if box[0] < inner[0] or box[1] < inner[1] or box[2] > inner[2] or box[3] > inner[3]:
                continue
            if clashes(box) or any(_rect_dist(p, box) < dist for p in dots):
                continue
            if not grid.clear(box):
                continue
            return _Candidate(box, (box[0], box[1]), (), cols, bh, 200)
    return None


def _abbreviations(name: str) -> list[str]:
    """Shorter forms of a long name, longest first: "Saarbrücken" -> "Saarbrü.", "Saarbr.", …"""
    if len(name) < 7:
        return []
    out = []
    for n in range(len(name) - 3, 3, -1):
        stem = name[:n].rstrip(" .-")
        if stem and stem[-1].isalpha() and f"{stem}." not in out:
            out.append(f"{stem}.")
    return out[:4]


def _rect_dist(p: Point, r: Rect) -> float:
    dx = max(r[0] - p[0], 0.0, p[0] - r[2])
    dy = max(r[1] - p[1], 0.0, p[1] - r[3])
    return (dx * dx + dy * dy) ** 0.5


def _repair(i: int, free: dict[int, list[_Candidate]], placed: dict[int, _Candidate], clashes) -> _Candidate | None:
    """Find a spot for item `i` by moving one placed label that blocks it."""
    for c in free[i]:
        blockers = clashes(c.box)
        if len(blockers) != 1:
            continue
        j = blockers[0]
        for alt in free[j]:
            if alt is placed[j] or rects_overlap(alt.box, c.box):
                continue
            if clashes(alt.box, skip=j):
                continue
            placed[j] = alt
            return c
    return None


def passenger_figure_size(k: float) -> tuple[int, int, int]:
    """Width, height and gap of one passenger figure, in pixels."""
    w = max(6, round(11 * k))
    h = max(9, round(16 * k))
    return w, h, max(1, round(1.5 * k))
