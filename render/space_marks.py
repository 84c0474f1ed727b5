"""A route space's own marks — a tunnel's jagged frame, a ferry's locomotive space — and the
key's samples drawn with them (a space as the map draws it, the last-move halo). The base map
draws the marks on the board and the legend draws the samples in its key, so both import this
module and neither imports the other.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import palette as P
from render.geometry import BoardLayout, Point
from render.sprites import hatched, last_move_ring, rounded_rect


def loco_mark(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """A ferry's locomotive space: a white disc in a rainbow ring (the locomotive card's look)."""
    x, y = c
    n = len(P.LOCO_STRIPES)
    for i, col in enumerate(P.LOCO_STRIPES):
        d.pieslice((x - r, y - r, x + r, y + r), i * 360 / n - 90, (i + 1) * 360 / n - 90, fill=col)
    ri = r * 0.55
    d.ellipse((x - ri, y - ri, x + ri, y + ri), fill=(255, 255, 255))
    rd = r * 0.22
    d.ellipse((x - rd, y - rd, x + rd, y + rd), fill=P.INK)


def tunnel_polys(center: Point, u: Point, length: float, width: float, k: float) -> list[list[Point]]:
    """A tunnel space's dark frame: wider than an ordinary space, with two teeth along each
    side (the printed boards' jagged tunnel outline), so that a tunnel stands out from an
    ordinary route even in Discord's preview."""
    cx, cy = center
    ux, uy = u
    nx, ny = -uy, ux
    half_w = width / 2 + 2.4 * k
    polys = [rounded_rect(center, u, length / 2 + 0.8 * k, half_w, 2.4 * k)]
    tooth = max(1.5, 3.2 * k)
    base = length * 0.17
    for along in (-length * 0.22, length * 0.22):
        for side in (-1, 1):
            bx, by = cx + ux * along + nx * side * (half_w - 0.5), cy + uy * along + ny * side * (half_w - 0.5)
            polys.append([(bx - ux * base, by - uy * base), (bx + ux * base, by + uy * base),
                          (bx + nx * side * tooth, by + ny * side * tooth)])
    return polys


def draw_space_sample(img: Image.Image, layout: BoardLayout, kind: str, c: Point, sample_w: float) -> None:
    """A key sample: a route space as the map draws it (tunnel, ferry, country border)."""
    d = ImageDraw.Draw(img)
    k = layout.dims.k
    sw = layout.dims.space_w
    half = sample_w / 2 - 4 * k
    if kind == "tunnel":
        for poly in tunnel_polys(c, (1.0, 0.0), half * 2, sw, k):
            d.polygon(poly, fill=P.TUNNEL_EDGE)
        d.polygon(rounded_rect(c, (1.0, 0.0), half - 1.2 * k, sw / 2 - 1.0 * k, 1.2 * k), fill=P.ROUTE_RGB["gray"])
    elif kind == "ferry":
        d.polygon(rounded_rect(c, (1.0, 0.0), half, sw / 2, 1.6 * k), fill=P.ROUTE_RGB["gray"], outline=P.SPACE_EDGE)
        loco_mark(d, c, sw * 0.42)
    elif kind == "closed":
        polys = [rounded_rect((half + 2, sw / 2 + 2), (1.0, 0.0), half, sw / 2, 1.6 * k)]
        size = (round(2 * half + 4), round(sw + 4))
        patch = hatched(size, k)
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).polygon(polys[0], fill=255)
        img.paste(patch, (round(c[0] - half - 2), round(c[1] - sw / 2 - 2)), mask)
    elif kind == "country":
        r = sw * 0.62
        d.polygon(rounded_rect(c, (1.0, 0.0), r, r, r * 0.35), fill=P.COUNTRY_FILL, outline=P.COUNTRY_EDGE,
                  width=max(1, round(1.6 * k)))


def draw_glow_sample(img: Image.Image, layout: BoardLayout, c: Point, sample_w: float) -> None:
    """A key sample of the last-move mark: a space with the red halo and ring."""
    d = ImageDraw.Draw(img)
    k = layout.dims.k
    sw = layout.dims.space_w
    half = sample_w / 2 - 8 * k
    d.polygon(rounded_rect(c, (1.0, 0.0), half + 4 * k, sw / 2 + 4 * k, 5 * k), fill=P.HIGHLIGHT_EDGE)
    d.polygon(rounded_rect(c, (1.0, 0.0), half, sw / 2, 1.6 * k), fill=P.INK_SOFT)
    ring = last_move_ring(c, (1.0, 0.0), half * 2, sw * 1.6, k, small=True)
    d.line(ring + ring[:1], fill=(255, 255, 255), width=max(2, round(5 * k)), joint="curve")
    d.line(ring + ring[:1], fill=P.HIGHLIGHT_EDGE, width=max(1, round(3 * k)), joint="curve")
