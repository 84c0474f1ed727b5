"""Anti-aliased masks for what is drawn on top of the base: train cars, marks, stations,
passenger figures and the last-move glow.

Pillow draws polygons without anti-aliasing, so each mask is drawn four times larger and
reduced; masks do not depend on a player's colour, so one per route (per shape) serves every
game, and a claimed route costs two or three ``Image.paste`` calls per render.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFilter

from render.geometry import Point, Poly, RouteGeom, poly_bbox, rect_poly

SUPER = 4  # supersampling factor for masks


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[Point]:
    """The outline of a mark shape centred on (cx, cy) with "radius" r."""
    if shape == "circle":
        return [(cx + r * math.cos(a * math.pi / 12), cy + r * math.sin(a * math.pi / 12)) for a in range(24)]
    if shape == "triangle":
        return [(cx + r * 1.15 * math.cos(math.radians(a)), cy + r * 1.15 * math.sin(math.radians(a)) + r * 0.15)
                for a in (-90, 30, 150)]
    if shape == "square":
        s = r * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "diamond":
        s = r * 1.15
        return [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)]
    if shape == "star":
        pts = []
        for i in range(10):
            rad = r * 1.2 if i % 2 == 0 else r * 0.5
            a = math.radians(-90 + i * 36)
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return pts
    raise ValueError(f"unknown mark shape {shape!r}")


def _mask(polys: list[list[Point]], origin: tuple[int, int], size: tuple[int, int], blur: float = 0.0) -> Image.Image:
    """An "L" mask of filled polygons, drawn SUPER times larger and reduced (anti-aliased)."""
    ox, oy = origin
    big = Image.new("L", (size[0] * SUPER, size[1] * SUPER), 0)
    d = ImageDraw.Draw(big)
    for poly in polys:
        d.polygon([((x - ox) * SUPER, (y - oy) * SUPER) for x, y in poly], fill=255)
    small = big.reduce(SUPER)
    if blur:
        small = small.filter(ImageFilter.GaussianBlur(blur))
        small = small.point(lambda v: min(255, v * 2))
    return small


@functools.lru_cache(maxsize=128)
def mark_mask(shape: str, size: int) -> Image.Image:
    """A mark shape alone, `size` pixels square (for legends and cards). Cached: every board's
    legend and every hand draw the same few (~40 µs each at four times the size); callers
    only paste through it."""
    r = size / 2 - 0.5
    return _mask([shape_points(shape, size / 2, size / 2, r * 0.92)], (0, 0), (size, size))


def rounded_rect(center: Point, u: Point, half_len: float, half_w: float, radius: float) -> list[Point]:
    """A rotated rectangle with rounded corners, as a polygon."""
    radius = min(radius, half_w, half_len)
    cx, cy = center
    ux, uy = u
    nx, ny = -uy, ux
    pts: list[Point] = []
    corners = ((half_len - radius, half_w - radius, 0), (-(half_len - radius), half_w - radius, 90),
               (-(half_len - radius), -(half_w - radius), 180), (half_len - radius, -(half_w - radius), 270))
    for lx, ly, start in corners:
        for step in range(5):
            a = math.radians(start + step * 22.5)
            px, py = lx + radius * math.cos(a), ly + radius * math.sin(a)
            pts.append((cx + ux * px + nx * py, cy + uy * px + ny * py))
    return pts


@dataclass
class CarSprite:
    """Masks for one train car; `origin` is the masks' top-left in the picture. One small
    sprite per car (rather than one per route) keeps the pasted area, and so the time, small
    for long diagonal routes."""

    origin: tuple[int, int]
    fill: Image.Image
    edge: Image.Image
    center: Point
    marks: dict[str, Image.Image] = field(default_factory=dict)
    painted: dict[str, Image.Image] = field(default_factory=dict)  # by mark: the car in a player's colours


@dataclass
class RouteSprite:
    """A claimed route's cars, and the route's glow for the last move (built on first use)."""

    cars: tuple[CarSprite, ...]
    car_polys: tuple[Poly, ...]
    car_w: float
    glow: tuple[tuple[int, int], Image.Image] | None = None


def route_sprite(rg: RouteGeom, k: float) -> RouteSprite:
    """Train-car masks for a claimed route (the cars cover the spaces, a little wider)."""
    cars: list[CarSprite] = []
    polys: list[Poly] = []
    edge_w = max(1.0, 1.4 * k)
    for sp in rg.spaces:
        half_len = sp.length / 2 - max(0.3, 0.4 * k)
        half_w = sp.width / 2 + max(0.8, 1.6 * k)
        fill = rounded_rect(sp.center, sp.u, half_len - edge_w, half_w - edge_w, 2.2 * k)
        edge = rounded_rect(sp.center, sp.u, half_len, half_w, 3.0 * k)
        polys.append(rect_poly(sp.center, sp.u, half_len, half_w))
        b = poly_bbox(tuple(edge))
        x0, y0 = math.floor(b[0]) - 1, math.floor(b[1]) - 1
        size = (math.ceil(b[2]) + 1 - x0, math.ceil(b[3]) + 1 - y0)
        cars.append(CarSprite((x0, y0), _mask([fill], (x0, y0), size), _mask([edge], (x0, y0), size), sp.center))
    return RouteSprite(tuple(cars), tuple(polys), rg.spaces[0].width if rg.spaces else 0.0)


def car_marks(car: CarSprite, shape: str, car_w: float) -> Image.Image:
    """The mask of a player's mark on a car (cached on the car)."""
    mask = car.marks.get(shape)
    if mask is None:
        r = car_w * 0.36
        mask = _mask([shape_points(shape, car.center[0], car.center[1], r)], car.origin, car.fill.size)
        car.marks[shape] = mask
    return mask


def sprite_glow(sprite: RouteSprite, k: float) -> tuple[tuple[int, int], Image.Image]:
    """A wide halo around a route's cars, for the last move: (origin, mask), cached. It is
    several times wider than a car's outline so that it still shows at phone size."""
    if sprite.glow is None:
        grow = 8.0 * k + 1.5
        polys = []
        for poly in sprite.car_polys:
            cx = sum(p[0] for p in poly) / 4
            cy = sum(p[1] for p in poly) / 4
            polys.append([(x + _sgn(x - cx) * grow, y + _sgn(y - cy) * grow) for x, y in poly])
        boxes = [poly_bbox(tuple(p)) for p in polys]
        pad = math.ceil(4 * k) + 2
        x0 = math.floor(min(b[0] for b in boxes)) - pad
        y0 = math.floor(min(b[1] for b in boxes)) - pad
        x1 = math.ceil(max(b[2] for b in boxes)) + pad
        y1 = math.ceil(max(b[3] for b in boxes)) + pad
        sprite.glow = ((x0, y0), _mask(polys, (x0, y0), (x1 - x0, y1 - y0), blur=max(1.0, 1.6 * k)))
    return sprite.glow


def last_move_ring(center: Point, u: Point, length: float, across: float, k: float,
                   small: bool = False) -> list[Point]:
    """An ellipse around a route (or a city) that marks the last move: long enough to hold the
    whole route, and at least big enough to catch the eye in a picture shown 360 wide."""
    a = length / 2 + (6 if small else 26) * k
    b = max(across / 2 + (4 if small else 20) * k, (0 if small else 30) * k)
    cx, cy = center
    ux, uy = u
    nx, ny = -uy, ux
    pts = []
    for i in range(48):
        t = 2 * math.pi * i / 48
        x, y = a * math.cos(t), b * math.sin(t)
        pts.append((cx + ux * x + nx * y, cy + uy * x + ny * y))
    return pts


def _sgn(v: float) -> float:
    return (v > 0) - (v < 0)


def station_masks(size: float) -> tuple[Image.Image, Image.Image]:
    """(edge, fill) masks of a station: a little house, `size` pixels wide."""
    s = math.ceil(size) + 2
    c = s / 2

    def house(half: float) -> list[Point]:
        return [(c - half, c + half * 0.95), (c - half, c - half * 0.1), (c, c - half * 1.05),
                (c + half, c - half * 0.1), (c + half, c + half * 0.95)]

    edge = _mask([house(size / 2)], (0, 0), (s, s))
    fill = _mask([house(size / 2 - max(1.0, size * 0.12))], (0, 0), (s, s))
    return edge, fill


def passenger_masks(w: int, h: int) -> tuple[Image.Image, Image.Image]:
    """(edge, fill) masks of a passenger figure (head and body), w × h pixels."""

    def figure(inset: float) -> list[list[Point]]:
        hr = w * 0.3 - inset
        head = [(w / 2 + hr * math.cos(a * math.pi / 8), h * 0.22 + hr * math.sin(a * math.pi / 8)) for a in range(16)]
        body = [(inset, h - inset), (w * 0.18 + inset, h * 0.45 + inset), (w * 0.82 - inset, h * 0.45 + inset),
                (w - inset, h - inset)]
        return [head, body]

    edge = _mask(figure(0), (0, 0), (w, h))
    fill = _mask(figure(max(0.6, w * 0.12)), (0, 0), (w, h))
    return edge, fill


def hatched(size: tuple[int, int], k: float) -> Image.Image:
    """A pale grey patch hatched across (a closed track's look), `size` pixels."""
    from render import palette as P

    img = Image.new("RGB", size, P.CLOSED_FILL)
    d = ImageDraw.Draw(img)
    step = max(4, round(6 * k))
    width = max(1, round(1.5 * k))
    w, h = size
    for c in range(-h, w + h, step):
        d.line((c, h, c + h, 0), fill=P.CLOSED_HATCH, width=width)
    return img


@dataclass
class ClosedSprite:
    """A closed track: every space covered by one hatched patch through one mask."""

    origin: tuple[int, int]
    painted: Image.Image
    mask: Image.Image


def closed_sprite(rg: RouteGeom, k: float) -> ClosedSprite:
    """The look of a track nobody may claim any more, covering its spaces (a little wider,
    so that the route's colour does not show round the edge)."""
    polys = [rounded_rect(sp.center, sp.u, sp.length / 2 - max(0.3, 0.4 * k), sp.width / 2 + max(0.6, 1.0 * k),
                          2.2 * k) for sp in rg.spaces]
    boxes = [poly_bbox(tuple(poly)) for poly in polys]
    x0, y0 = math.floor(min(b[0] for b in boxes)) - 1, math.floor(min(b[1] for b in boxes)) - 1
    size = (math.ceil(max(b[2] for b in boxes)) + 1 - x0, math.ceil(max(b[3] for b in boxes)) + 1 - y0)
    return ClosedSprite((x0, y0), hatched(size, k), _mask(polys, (x0, y0), size))
