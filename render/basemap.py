"""The static board: background, country spaces, every route space, city dots, labels, and
the legend's frame and key. Drawn once per map and picture size (see base_cache).

Shapes are drawn at twice the size and reduced, for smooth edges; text is drawn afterwards at
full size, where FreeType anti-aliases it itself.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFilter

from engine.maps import GameMap
from render import palette as P
from render.geometry import BoardGeometry, BoardLayout, Point
from render.layout import Label
from render.sprites import rounded_rect
from render.text import draw_text, font

SS = 2  # supersampling of the shapes layer


def land_mask(game_map: GameMap, geom: BoardGeometry, size: tuple[int, int], scale: float) -> Image.Image:
    """Land ("L" mask, 255 = land) at `scale` × picture size: the rail network grown by a
    margin, ferries left out (they cross water), holes filled, edges smoothed.

    No map has coastline data, so this is a calm stylised land shape rather than geography;
    maps whose network covers their whole box simply come out as all land."""
    lo = 8  # work at 1/8 of the picture: blur and fill are cheap there
    k = geom.layout.dims.k
    mx0, my0, mx1, my1 = geom.layout.map_box
    w, h = max(1, math.ceil((mx1 - mx0) / lo)) + 2, max(1, math.ceil((my1 - my0) / lo)) + 2
    small = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(small)
    reach = 58 * k / lo  # how far land extends around the network

    def pt(p: Point) -> Point:
        return ((p[0] - mx0) / lo + 1, (p[1] - my0) / lo + 1)

    for cg in geom.cities.values():
        x, y = pt(cg.center)
        r = reach * (0.6 if cg.country else 1.0)
        d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    for rid, rg in geom.routes.items():
        # ferries cross water: only a narrow strip of land along them
        width = reach * (0.5 if game_map.routes[rid].is_ferry else 1.6)
        d.line([pt(p) for p in rg.track], fill=255, width=max(1, round(width)), joint="curve")
    for poly in geom.countries.values():
        d.polygon([pt(p) for p in poly], fill=255)
    small = small.filter(ImageFilter.GaussianBlur(reach * 0.5)).point(lambda v: 255 if v > 90 else 0)
    # Fill lakes: whatever sea the outer border cannot reach becomes land.
    ImageDraw.floodfill(small, (0, 0), 128)
    small = small.point(lambda v: 0 if v == 128 else 255)
    small = small.filter(ImageFilter.GaussianBlur(1.2))
    big = small.crop((1, 1, w - 1, h - 1)).resize(
        (round((mx1 - mx0) * scale), round((my1 - my0) * scale)), Image.Resampling.BILINEAR)
    return big


def draw_base(
    game_map: GameMap,
    geom: BoardGeometry,
    labels: list[Label],
    colorblind: bool = False,
    key: bool = True,
) -> Image.Image:
    """The static picture of a board (RGB): everything that does not change during a game."""
    layout = geom.layout
    k = layout.dims.k
    W, H = layout.width, layout.height
    img = Image.new("RGB", (W * SS, H * SS), P.PAPER)
    mx0, my0, mx1, my1 = layout.map_box

    # --- land and sea -------------------------------------------------------------------
    mask = land_mask(game_map, geom, (W, H), SS)
    # Only maps with ferries have water to cross; elsewhere the area beyond the network is
    # drawn as a quieter land tone rather than as a sea that may not be there.
    water = any(r.is_ferry for r in game_map.routes.values())
    sea = Image.new("RGB", mask.size, P.SEA if water else P.BEYOND)
    coast = mask.point(lambda v: 255 if v > 100 else 0)
    land = mask.point(lambda v: 255 if v > 150 else 0)
    sea.paste(P.COAST if water else P.BEYOND_EDGE, (0, 0), coast)
    sea.paste(P.LAND, (0, 0), land)
    img.paste(sea, (mx0 * SS, my0 * SS))

    d = ImageDraw.Draw(img)

    def s(p: Point) -> Point:
        return (p[0] * SS, p[1] * SS)

    # --- country spaces (Germany's neighbours) ------------------------------------------
    for poly in geom.countries.values():
        d.polygon([s(p) for p in poly], fill=P.COUNTRY_FILL, outline=P.COUNTRY_EDGE, width=max(1, round(1.5 * k * SS)))

    # --- routes -----------------------------------------------------------------------------
    edge_w = max(1, round(1.1 * k * SS))
    for rid, rg in geom.routes.items():
        route = game_map.routes[rid]
        fill = P.ROUTE_RGB[route.color]
        for sp in rg.spaces:
            space_poly = rounded_rect(sp.center, sp.u, sp.length / 2, sp.width / 2, 1.6 * k)
            if route.tunnel:
                # a heavy dark frame, as printed tunnels have
                outer = rounded_rect(sp.center, sp.u, sp.length / 2 + 0.6 * k, sp.width / 2 + 1.3 * k, 2.2 * k)
                d.polygon([s(p) for p in outer], fill=P.TUNNEL_EDGE)
                d.polygon([s(p) for p in space_poly], fill=fill)
                inner = rounded_rect(sp.center, sp.u, sp.length / 2 - 1.8 * k, sp.width / 2 - 1.8 * k, 1 * k)
                d.polygon([s(p) for p in inner], fill=fill)
            else:
                d.polygon([s(p) for p in space_poly], fill=fill, outline=P.SPACE_EDGE, width=edge_w)
            if sp.loco:
                _loco_mark(d, s(sp.center), sp.width * 0.42 * SS)

    # --- border spaces and cities -----------------------------------------------------------
    for p in geom.border_points.values():
        r = layout.dims.space_w * 0.62
        box = rounded_rect(p, (1.0, 0.0), r, r, r * 0.35)
        d.polygon([s(q) for q in box], fill=P.COUNTRY_FILL, outline=P.COUNTRY_EDGE, width=max(1, round(1.6 * k * SS)))
    for cg in geom.cities.values():
        if cg.country:
            continue
        x, y = s(cg.center)
        r = cg.radius * SS
        d.ellipse((x - r, y - r, x + r, y + r), fill=P.CITY_EDGE)
        ri = r - max(2, 2.4 * k * SS)
        d.ellipse((x - ri, y - ri, x + ri, y + ri), fill=P.CITY_FILL)

    img = img.reduce(SS)
    d = ImageDraw.Draw(img)

    # --- colour-blind letters on each route's middle space -----------------------------------
    if colorblind:
        px = max(7, round(layout.dims.space_w * 0.82))
        fnt = font(px, "bold")
        for rid, rg in geom.routes.items():
            route = game_map.routes[rid]
            letter = P.ROUTE_LETTER[route.color]
            if not letter or not rg.spaces:
                continue
            for j in _letter_spaces(len(rg.spaces)):
                sp = rg.spaces[j]
                if sp.loco:
                    continue
                d.text(sp.center, letter, font=fnt, fill=P.ROUTE_INK[route.color], anchor="mm")

    # --- labels ---------------------------------------------------------------------------
    for lab in labels:
        draw_label(d, lab, k)

    # --- legend frame and key ---------------------------------------------------------------
    if layout.legend_side != "none":
        lx0, ly0, lx1, ly1 = layout.legend_box
        d.rectangle((lx0, ly0, lx1, ly1), fill=P.PANEL)
        if layout.legend_side == "bottom":
            d.line((lx0, ly0, lx1, ly0), fill=P.PANEL_EDGE, width=max(1, round(2 * k)))
        else:
            d.line((lx0, ly0, lx0, ly1), fill=P.PANEL_EDGE, width=max(1, round(2 * k)))
        if key:
            draw_key(img, game_map, layout)
    return img


def draw_label(d: ImageDraw.ImageDraw, lab: Label, k: float, colour: P.RGB | None = None) -> None:
    """One placed label (city or country name) with its halo."""
    if lab.kind == "passengers":
        return
    fnt = font(lab.font_px, "condensed")
    if lab.leader is not None:
        d.line(lab.leader, fill=P.INK_SOFT, width=max(1, round(1.2 * k)))
    if colour is None:
        colour = P.COUNTRY_EDGE if lab.kind == "country" else P.INK
    for i, line in enumerate(lab.lines):
        draw_text(d, (lab.origin[0], lab.origin[1] + i * lab.line_h), line, fnt, colour,
                  halo=P.LAND if lab.kind == "city" else P.COUNTRY_FILL, halo_width=max(1, round(2 * k)))


def _letter_spaces(n: int) -> list[int]:
    """Which spaces of an n-space route carry the colour letter: the middle one, and the
    ends of long routes too, so a letter is near wherever one looks."""
    if n <= 3:
        return [n // 2]
    return [0, n // 2, n - 1] if n >= 6 else [n // 2]


def _loco_mark(d: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    """A ferry's locomotive space: a white disc in a rainbow ring (the locomotive card's look)."""
    x, y = c
    n = len(P.LOCO_STRIPES)
    for i, col in enumerate(P.LOCO_STRIPES):
        d.pieslice((x - r, y - r, x + r, y + r), i * 360 / n - 90, (i + 1) * 360 / n - 90, fill=col)
    ri = r * 0.55
    d.ellipse((x - ri, y - ri, x + ri, y + ri), fill=(255, 255, 255))
    rd = r * 0.22
    d.ellipse((x - rd, y - rd, x + rd, y + rd), fill=P.INK)


Box = tuple[int, int, int, int]


def legend_cells(layout: BoardLayout, n_players: int) -> tuple[Box, list[Box], Box]:
    """(info box, one box per player, key box) inside the legend."""
    k = layout.dims.k
    lx0, ly0, lx1, ly1 = layout.legend_box
    pad = round(10 * k)
    n = max(1, n_players)
    if layout.legend_side == "bottom":
        info_w, key_w = round(250 * k), round(215 * k)
        info = (lx0 + pad, ly0 + pad, lx0 + info_w, ly1 - pad)
        keyb = (lx1 - key_w, ly0 + pad, lx1 - pad, ly1 - pad)
        avail = keyb[0] - info[2] - 2 * pad
        cell = min(avail / n, 300 * k)
        cells = []
        for i in range(n):
            x0 = info[2] + pad + round(i * cell)
            cells.append((x0, ly0 + pad, x0 + round(cell) - pad, ly1 - pad))
        return info, cells, keyb
    info_h, key_h = round(92 * k), round(150 * k)
    info = (lx0 + pad, ly0 + pad, lx1 - pad, ly0 + info_h)
    keyb = (lx0 + pad, ly1 - key_h, lx1 - pad, ly1 - pad)
    avail = keyb[1] - info[3] - 2 * pad
    cell = min(avail / n, 170 * k)
    cells = []
    for i in range(n):
        y0 = info[3] + pad + round(i * cell)
        cells.append((lx0 + pad, y0, lx1 - pad, y0 + round(cell) - pad))
    return info, cells, keyb


def draw_key(img: Image.Image, game_map: GameMap, layout: BoardLayout) -> None:
    """The symbol key: only the symbols this map uses, plus the last-move mark."""
    k = layout.dims.k
    _, _, box = legend_cells(layout, 1)
    d = ImageDraw.Draw(img)
    fnt = font(max(11, round(14 * k)), "regular")
    row = max(14, round(22 * k))
    x0, y = box[0], box[1]
    sw = layout.dims.space_w
    entries: list[tuple[str, str]] = []
    if any(r.tunnel for r in game_map.routes.values()):
        entries.append(("tunnel", "tunnel"))
    if any(r.is_ferry for r in game_map.routes.values()):
        entries.append(("ferry", "ferry: loco space"))
    if any(c.is_country for c in game_map.cities.values()):
        entries.append(("country", "country border"))
    entries.append(("glow", "last move"))
    for kind, text in entries:
        cy = y + row / 2
        c = (x0 + sw * 1.6, cy)
        if kind == "tunnel":
            outer = rounded_rect(c, (1.0, 0.0), sw * 1.4 + 0.6 * k, sw / 2 + 1.3 * k, 2 * k)
            d.polygon(outer, fill=P.TUNNEL_EDGE)
            inner = rounded_rect(c, (1.0, 0.0), sw * 1.4 - 1.8 * k, sw / 2 - 1.8 * k, 1 * k)
            d.polygon(inner, fill=P.ROUTE_RGB["gray"])
        elif kind == "ferry":
            d.polygon(rounded_rect(c, (1.0, 0.0), sw * 1.4, sw / 2, 1.6 * k), fill=P.ROUTE_RGB["gray"],
                      outline=P.SPACE_EDGE)
            _loco_mark(d, c, sw * 0.42)
        elif kind == "country":
            r = sw * 0.62
            d.polygon(rounded_rect(c, (1.0, 0.0), r, r, r * 0.35), fill=P.COUNTRY_FILL, outline=P.COUNTRY_EDGE,
                      width=max(1, round(1.6 * k)))
        else:
            glow = rounded_rect(c, (1.0, 0.0), sw * 1.4 + 4 * k, sw / 2 + 4 * k, 5 * k)
            d.polygon(glow, fill=P.HIGHLIGHT)
            d.polygon(rounded_rect(c, (1.0, 0.0), sw * 1.4, sw / 2, 1.6 * k), fill=P.INK_SOFT)
        d.text((x0 + sw * 3.6, cy), text, font=fnt, fill=P.INK, anchor="lm")
        y += row
