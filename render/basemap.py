"""The static board: background, country spaces, every route space, city dots, labels, and
the legend's frame and key. Drawn once per map and picture size (see base_cache).

Shapes are drawn at twice the size and reduced, for smooth edges; text is drawn afterwards at
full size, where FreeType anti-aliases it itself.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.maps import GameMap
from render import palette as P
from render.geometry import BoardGeometry, Point, bundles
from render.layout import Label
from render.legend import draw_key
from render.parts.base import KeyEntry
from render.paste import paste
from render.space_marks import loco_mark, tunnel_polys
from render.sprites import rounded_rect
from render.text import TextItem, draw_text, font, preview_px

SS = 2  # supersampling of the shapes layer


def map_seas(game_map: GameMap) -> list[tuple[str, list[Point]]]:
    """The map's sea outlines (`extras.drawing.seas`, in the map's own coordinates), if any."""
    drawing = game_map.extras.get("drawing") or {}
    return [(str(sea["name"]), [(float(x), float(y)) for x, y in sea["outline"]]) for sea in drawing.get("seas", ())]


def sea_land_mask(game_map: GameMap, geom: BoardGeometry, scale: float) -> Image.Image:
    """Land ("L" mask, 255 = land) at `scale` × picture size from the map's sea outlines:
    everything in the map's box is land except the seas, whose coasts are smoothed a little."""
    lo = 4
    frame = geom.layout.frame
    mx0, my0, mx1, my1 = geom.layout.map_box
    w, h = max(1, math.ceil((mx1 - mx0) / lo)), max(1, math.ceil((my1 - my0) / lo))
    small = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(small)
    for _, outline in map_seas(game_map):
        pts = [((frame.ox + x * frame.scale - mx0) / lo, (frame.oy + y * frame.scale - my0) / lo) for x, y in outline]
        d.polygon(pts, fill=0)
    # Trains run on land: a narrow strip under every route but a ferry, and a little land
    # round every city, so that a coastal route never runs over a bay and a port stands on
    # its coast (the outlines are geography; the board's routes are drawn straighter).
    dims = geom.layout.dims
    strip = (dims.space_w + dims.track_gap) / lo
    for rid, rg in geom.routes.items():
        if not game_map.routes[rid].is_ferry:
            d.line([((x - mx0) / lo, (y - my0) / lo) for x, y in rg.track], fill=255, width=max(1, round(strip)),
                   joint="curve")
    for cg in geom.cities.values():
        x, y = (cg.center[0] - mx0) / lo, (cg.center[1] - my0) / lo
        r = (cg.radius + 3 * dims.k) / lo
        d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    _fill_pockets(small, game_map, geom, lo)
    small = small.filter(ImageFilter.GaussianBlur(0.8))
    return small.resize((round((mx1 - mx0) * scale), round((my1 - my0) * scale)), Image.Resampling.BILINEAR)


def _fill_pockets(mask: Image.Image, game_map: GameMap, geom: BoardGeometry, lo: int) -> None:
    """Turn into land the little pockets of water that the land under routes cut off from
    their sea (a bay between a coastal route and its coast), keeping every water body that is
    most of a sea of its own (a lake, the Sea of Marmara)."""
    frame = geom.layout.frame
    mx0, my0 = geom.layout.map_box[:2]
    seas = []
    for _, outline in map_seas(game_map):
        one = Image.new("L", mask.size, 0)
        ImageDraw.Draw(one).polygon([((frame.ox + x * frame.scale - mx0) / lo, (frame.oy + y * frame.scale - my0) / lo)
                                     for x, y in outline], fill=255)
        seas.append(one)
    small_area = (70 * geom.layout.dims.k / lo) ** 2
    label = 1
    w, h = mask.size
    px = mask.load()
    assert px is not None
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            if px[x, y] != 0:
                continue
            ImageDraw.floodfill(mask, (x, y), label)
            region = mask.point(lambda v, lab=label: 255 if v == lab else 0)
            area = region.histogram()[255]
            keep = area >= small_area or any(
                ImageChops.multiply(region, sea).histogram()[255] >= 0.6 * max(1, sea.histogram()[255])
                for sea in seas)
            mask.paste(0 if keep else 255, (0, 0), region)
            if keep:
                mask.paste(254, (0, 0), region)  # done: not water any more for this search
            label = label + 1 if label < 200 else 1
    mask.paste(0, (0, 0), mask.point(lambda v: 255 if v == 254 else 0))


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
    key: tuple[KeyEntry, ...] | None = (),
) -> tuple[Image.Image, list[TextItem]]:
    """The static picture of a board (RGB): everything that does not change during a game;
    and the text of its key (`key`: the key's entries; None for no legend)."""
    layout = geom.layout
    key_texts: list[TextItem] = []
    k = layout.dims.k
    W, H = layout.width, layout.height
    img = Image.new("RGB", (W * SS, H * SS), P.PAPER)
    mx0, my0, mx1, my1 = layout.map_box

    # --- land and sea -------------------------------------------------------------------
    if map_seas(game_map):
        # The map ships its seas: they are the only water, everything else is land.
        mask = sea_land_mask(game_map, geom, SS)
        water = True
    else:
        # No outlines: land is the network grown by a margin. Only maps with ferries have water
        # to cross; elsewhere the area beyond the network is a quieter land tone rather than a
        # sea that may not be there.
        mask = land_mask(game_map, geom, (W, H), SS)
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
                for frame_part in tunnel_polys(sp.center, sp.u, sp.length, sp.width, k):
                    d.polygon([s(p) for p in frame_part], fill=P.TUNNEL_EDGE)
                inner = rounded_rect(sp.center, sp.u, sp.length / 2 - 1.2 * k, sp.width / 2 - 1.0 * k, 1.2 * k)
                d.polygon([s(p) for p in inner], fill=fill)
            else:
                d.polygon([s(p) for p in space_poly], fill=fill, outline=P.SPACE_EDGE, width=edge_w)
            if sp.loco:
                loco_mark(d, s(sp.center), sp.width * 0.42 * SS)

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
        if key is not None:
            key_texts = draw_key(img, layout, key)
    return img, key_texts


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


def colour_tag_px(width: int) -> int:
    """The colour-blind letters' size on a board: close to the legend's, so they read in the
    preview."""
    return max(9, round(preview_px(width) * 0.8))


def tag_spots(game_map: GameMap, geom: BoardGeometry) -> dict[str, Point]:
    """Colour-blind mode: where each coloured route's tag goes (grey routes have none): its
    middle space; the tracks of a double route at different spaces, so that their tags do not
    cover each other."""
    groups = bundles(game_map)
    out: dict[str, Point] = {}
    for rid, rg in geom.routes.items():
        if not P.ROUTE_LETTER[game_map.routes[rid].color] or not rg.spaces:
            continue
        tracks = groups[rg.bundle].route_ids
        i, n = tracks.index(rid), len(rg.spaces)
        j = min(n - 1, max(0, round((i + 1) * n / (len(tracks) + 1) - 0.5)))
        if n > 2 and rg.spaces[j].loco:
            j = j + 1 if j + 1 < n else j - 1
        out[rid] = rg.spaces[j].center
    return out


@functools.lru_cache(maxsize=64)
def colour_tag(colour: str, px: int) -> Image.Image:
    """A route colour's tag (RGBA): its letter in a white box edged in the colour."""
    w, h = round(px * 0.96) + 4, round(px * 1.16) + 4
    img = Image.new("RGBA", (w * 2, h * 2), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    edge = P.ROUTE_RGB[colour] if colour != "white" else P.INK_SOFT
    d.rounded_rectangle((1, 1, w * 2 - 2, h * 2 - 2), radius=max(3, round(px * 0.4)), fill=(255, 255, 255, 255),
                        outline=edge + (255,), width=max(3, round(px * 0.26)))
    d.text((w, h + px * 0.04), P.ROUTE_LETTER[colour], font=font(px * 2, "bold"), fill=P.INK + (255,), anchor="mm")
    return img.resize((w, h), Image.Resampling.LANCZOS)


def paste_colour_tags(img: Image.Image, game_map: GameMap, spots: dict[str, Point], px: int,
                      routes: Iterable[str]) -> None:
    """Paste the colour tags of these routes (those with a spot)."""
    for rid in routes:
        at = spots.get(rid)
        if at is None:
            continue
        tag = colour_tag(game_map.routes[rid].color, px)
        paste(img, tag, (round(at[0] - tag.width / 2), round(at[1] - tag.height / 2)), tag)
