"""The public board picture: the cached base plus this game's trains, stations, passengers,
the last move and the legend.

Only a public view (``engine.game.view(state, None)``) is read, so nothing secret can reach
the picture. The last move is passed in explicitly (``highlight_routes``,
``highlight_cities``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.view import View
from render import legend, scratch
from render import palette as P
from render.base_cache import BoardBase, get_base
from render.basemap import colour_tag_px, draw_label, paste_colour_tags, tag_spots
from render.dirty import Box, Drawn, mark, tiles, track, tracked
from render.layout import Label
from render.legend import key_entries
from render.parts import PicturePart, picture_parts
from render.parts.base import KeyEntry
from render.paste import paste
from render.route_layers import conflicts, ready_pieces, route_layer
from render.sprites import CarSprite, ClosedSprite, car_marks, closed_sprite, last_move_ring, sprite_glow
from render.text import TextItem


@dataclass(frozen=True)
class BoardPicture:
    """A rendered board: the PNG and, for tests and previews, the RGB image, the base it was
    drawn on and the text of its legend (sizes and boxes, for layout tests)."""

    png: bytes
    image: Image.Image
    base: BoardBase
    texts: tuple[TextItem, ...] = ()


def board_image(
    view: View,
    game_map: GameMap | None = None,
    *,
    width: int = 1600,
    colorblind: bool = False,
    highlight_routes: Iterable[str] = (),
    highlight_cities: Iterable[str] = (),
) -> tuple[Image.Image, BoardBase, list[TextItem]]:
    """The board as an RGB image, the base it was drawn on, and the legend's text."""
    img, base, texts, _ = _drawn_board(view, game_map, width, colorblind, highlight_routes, highlight_cities)
    return img, base, texts


def _board_of(view: View, game_map: GameMap | None, width: int
              ) -> tuple[GameMap, Sequence[PicturePart], tuple[KeyEntry, ...], BoardBase]:
    """The map, the picture's parts, the legend's entries and the base of `view`'s board."""
    game_map = game_map or load_map(view.map_id)
    parts = picture_parts(view)
    entries = key_entries(game_map, parts)
    return game_map, parts, entries, get_base(game_map, width, key=entries)


def _drawn_board(view: View, game_map: GameMap | None, width: int, colorblind: bool, highlight_routes: Iterable[str],
                 highlight_cities: Iterable[str]) -> tuple[Image.Image, BoardBase, list[TextItem], Drawn]:
    """`board_image`, and the boxes drawn on (`render.dirty`)."""
    game_map, parts, entries, base = _board_of(view, game_map, width)
    img = base.image.copy()
    texts, drawn = _draw(img, base, game_map, view, parts, entries, colorblind, highlight_routes, highlight_cities)
    return img, base, texts, drawn


def _draw(img: Image.Image, base: BoardBase, game_map: GameMap, view: View, parts: Sequence[PicturePart],
          entries: tuple[KeyEntry, ...], colorblind: bool, highlight_routes: Iterable[str],
          highlight_cities: Iterable[str]) -> tuple[list[TextItem], Drawn]:
    """Draw the game and the legend on `img`, a picture equal to `base`'s; the legend's text
    and what was drawn (`render.dirty`)."""
    with track(img) as drawn:
        draw_game(img, base, view, set(highlight_routes), set(highlight_cities), parts, colorblind=colorblind)
        texts = list(base.key_texts) + legend.draw_legend(img, base.layout, game_map, view, parts, entries,
                                                          base.extra.setdefault("legend-cells", {}),
                                                          base.rows().palette)
    return texts, drawn


def render_board(
    view: View,
    game_map: GameMap | None = None,
    *,
    width: int = 1600,
    colorblind: bool = False,
    highlight_routes: Iterable[str] = (),
    highlight_cities: Iterable[str] = (),
) -> BoardPicture:
    """The public board picture of a game (PNG bytes in ``.png``).

    `view` is ``engine.game.view(state, None)``; `game_map` defaults to the view's map;
    `highlight_routes` / `highlight_cities` mark the last move; `colorblind` adds each route
    colour's letter (each player always has a shape mark)."""
    img, base, texts, drawn = _drawn_board(view, game_map, width, colorblind, highlight_routes, highlight_cities)
    # The same bytes as png_bytes(img, base.palette), quantizing only the boxes drawn on.
    return BoardPicture(base.rows().png(img, drawn), img, base, tuple(texts))


def board_png(
    view: View,
    game_map: GameMap | None = None,
    *,
    width: int = 1600,
    colorblind: bool = False,
    highlight_routes: Iterable[str] = (),
    highlight_cities: Iterable[str] = (),
) -> bytes:
    """``render_board(...).png``, the same bytes, for a caller that keeps no picture (a render
    job): a large board is drawn into a picture kept with its base instead of a fresh copy
    (`render.scratch`), so no picture is returned."""
    game_map, parts, entries, base = _board_of(view, game_map, width)
    kept = scratch.acquire(base)
    if kept is None:
        img = base.image.copy()
        _, drawn = _draw(img, base, game_map, view, parts, entries, colorblind, highlight_routes, highlight_cities)
        return base.rows().png(img, drawn)
    try:
        img = kept.image
        _, drawn = _draw(img, base, game_map, view, parts, entries, colorblind, highlight_routes, highlight_cities)
        rows = base.rows()
        rects = tiles(list(drawn), img.size)
        png = rows.encode(rows.scanlines(img, drawn, into=kept.lines, rects=rects))
        kept.restore(base, rects, drawn)
    except BaseException:
        scratch.drop(base, kept)  # drawn halfway: no longer the base's pixels
        raise
    finally:
        kept.lock.release()
    return png


# ---------------------------------------------------------------------------------------------
# The game on the map
# ---------------------------------------------------------------------------------------------


def paste_route(img: Image.Image, base: BoardBase, route_id: str, seat: int,
                on_base: bool = False) -> None:
    """Draw a claimed route as a row of train cars in the seat's colours, with its mark: one
    paste per car, of the car painted once in that player's colours (cached on the car).

    `on_base`: the caller knows nothing was drawn under these cars (`render.route_layers`),
    so on a tracked picture each car's finished pixels are copied from a piece prepared once
    per route and mark (`render.route_layers.ready_pieces`), and their palette indices go to
    its scanlines ready-made instead of their boxes being noted."""
    style = P.player_style(seat)
    sprite = base.sprite(route_id)
    drawn = tracked(img) if on_base else None
    layer = route_layer(base, route_id) if drawn is not None else None
    if drawn is None or layer is None:
        for car in sprite.cars:
            paste(img, _painted(car, style, sprite.car_w), car.origin, car.edge)
        return
    pieces, ready = ready_pieces(base, layer, sprite, style.mark,
                                 lambda: [_painted(car, style, sprite.car_w) for car in sprite.cars])
    core = img.im
    # on the bare base: each car's finished pixels, copied where it sets any (no note: the
    # scanlines take their indices from `ready`)
    for box, piece, where in zip(layer.boxes, pieces, layer.wheres, strict=True):
        core.paste(piece, box, where)
    drawn.ready += ready


def _painted(car: CarSprite, style: P.PlayerStyle, car_w: float) -> Image.Image:
    painted = car.painted.get(style.mark)
    if painted is None:
        painted = Image.new("RGB", car.edge.size, style.dark)
        painted.paste(style.fill, (0, 0), car.fill)
        painted.paste((255, 255, 255), (0, 0), car_marks(car, style.mark, car_w))
        car.painted[style.mark] = painted
    return painted


def _on_base(base: BoardBase, route_id: str, drawn: set[str], under: list[Box]) -> bool:
    """Whether a route's cars go on the bare base: no route drawn before them shares a pixel
    with them, and no glow or closed patch drawn before them reaches their box."""
    layer = route_layer(base, route_id)
    if layer is None or not conflicts(base, route_id, layer).isdisjoint(drawn):
        return False
    x0, y0, x1, y1 = layer.box
    return not any(b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3] for b in under)


def closed_tracks(view: View, game_map: GameMap) -> list[str]:
    """The tracks nobody may claim any more although nobody owns them: in a game with fewer
    players than the rule set's count for doubles, once one track of a double (or triple)
    route is claimed its other tracks are closed (engine/rules/routes.py, `blocked_reason`)."""
    if len(view.players) >= view.doubles_from_players:
        return []
    owners = view.route_owner
    return sorted({t.id for rid in owners if rid in game_map.routes
                   for t in game_map.parallel_tracks(rid) if t.id not in owners})


def paste_closed(img: Image.Image, base: BoardBase, route_id: str) -> Box:
    """Cover a closed track with its hatched patch (built once per base and route); returns
    the patch's box."""
    key = ("closed", route_id)
    sprite = base.extra.get(key)
    if not isinstance(sprite, ClosedSprite):
        sprite = base.extra[key] = closed_sprite(base.geom.routes[route_id], base.layout.dims.k)
    paste(img, sprite.painted, sprite.origin, sprite.mask)
    x, y = sprite.origin
    return (x, y, x + sprite.mask.width, y + sprite.mask.height)


def draw_game(
    img: Image.Image,
    base: BoardBase,
    view: View,
    highlight_routes: set[str],
    highlight_cities: set[str],
    parts: Sequence[PicturePart] = (),
    colorblind: bool = False,
) -> None:
    """Trains, closed tracks, the rule modules' marks (stations, passengers) and the last
    move, on a copy of the base; with `colorblind`, a tag with its colour's letter on every
    route still open."""
    geom = base.geom
    k = base.layout.dims.k
    owners = view.route_owner
    closed = [rid for rid in closed_tracks(view, base.game_map) if rid in geom.routes]
    # in a fixed order: overlapping rings then lie the same way in every process (a set's
    # order follows the process's string hashing)
    marked = sorted(rid for rid in highlight_routes if rid in geom.routes)
    # the last move's halo goes under the cars (a highlighted open route, e.g. a tunnel given
    # up, glows too)
    under: list[Box] = []  # what is drawn before the cars, so may lie under them
    for rid in marked:
        origin, mask = sprite_glow(base.sprite(rid), k)
        paste(img, P.HIGHLIGHT_EDGE, origin, mask)
        under.append((origin[0], origin[1], origin[0] + mask.width, origin[1] + mask.height))
    for rid in closed:
        under.append(paste_closed(img, base, rid))
    drawn: set[str] = set()
    for rid, seat in owners.items():
        if rid in geom.routes:
            paste_route(img, base, rid, int(seat), on_base=_on_base(base, rid, drawn, under))
            drawn.add(rid)
    if colorblind:  # the colour of each route still open (a claimed or closed one has none to give)
        spots = base.extra.get("tag_spots")
        if spots is None:
            spots = base.extra["tag_spots"] = tag_spots(base.game_map, geom)
        shut = set(closed)
        paste_colour_tags(img, base.game_map, spots, colour_tag_px(base.layout.width),
                          [rid for rid in spots if rid not in owners and rid not in shut])
    for part in parts:
        part.overlay(img, base, view)
    d = ImageDraw.Draw(img)
    rings: list[tuple[tuple[int, int], Image.Image]] = []
    for rid in marked:
        if geom.routes[rid].spaces:
            rings.append(_route_ring(base, rid))
    for city in sorted(highlight_cities):
        if city in geom.cities:
            rings.append(_city_ring(base, city))
    paste_rings(img, d, base, rings, k)


def paste_rings(img: Image.Image, d: ImageDraw.ImageDraw, base: BoardBase,
                rings: list[tuple[tuple[int, int], Image.Image]], k: float) -> None:
    """Paste the last-move rings, drawing again on top of them the city names they cover (so
    the names stay readable)."""
    for origin, ring in rings:
        paste(img, ring, origin, ring)
        x0, y0 = origin
        x1, y1 = x0 + ring.width, y0 + ring.height
        for lab in base.labels:
            if lab.box[0] < x1 and x0 < lab.box[2] and lab.box[1] < y1 and y0 < lab.box[3]:
                mark(img, label_extent(lab, k))
                draw_label(d, lab, k)


def label_extent(lab: Label, k: float) -> Box:
    """Whole pixels that drawing `lab` may touch: its box (halo included) and its leader line,
    a few pixels wider for anti-aliasing."""
    xs = [lab.box[0], lab.box[2]]
    ys = [lab.box[1], lab.box[3]]
    if lab.leader is not None:
        xs += [p[0] for p in lab.leader]
        ys += [p[1] for p in lab.leader]
    pad = 3 + max(1, round(2 * k))
    return (math.floor(min(xs)) - pad, math.floor(min(ys)) - pad, math.ceil(max(xs)) + pad, math.ceil(max(ys)) + pad)


def _route_ring(base: BoardBase, route_id: str) -> tuple[tuple[int, int], Image.Image]:
    key = ("ring", route_id)
    ring = base.extra.get(key)
    if ring is None:
        spaces = base.geom.routes[route_id].spaces
        a, b = spaces[0].center, spaces[-1].center
        gap = math.dist(a, b)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        u = spaces[len(spaces) // 2].u if gap < 1 else ((b[0] - a[0]) / gap, (b[1] - a[1]) / gap)
        k = base.layout.dims.k
        ring = base.extra[key] = _ring_sprite(last_move_ring(mid, u, gap + spaces[0].length, spaces[0].width, k), k)
    return ring


def _city_ring(base: BoardBase, city: str) -> tuple[tuple[int, int], Image.Image]:
    key = ("ring-city", city)
    ring = base.extra.get(key)
    if ring is None:
        cg = base.geom.cities[city]
        k = base.layout.dims.k
        size = cg.radius * 2 + 20 * k  # a city is small: its ring is as big as a short route's
        ring = base.extra[key] = _ring_sprite(last_move_ring(cg.center, (1.0, 0.0), size, size, k), k)
    return ring


def _ring_sprite(points: list[tuple[float, float]], k: float) -> tuple[tuple[int, int], Image.Image]:
    """The last-move ring as a cached RGBA sprite: red on a white edge, thick enough to see on
    a phone, drawn at twice the size and reduced (smooth edges)."""
    white_w, red_w = max(3, round(12 * k)), max(2, round(8 * k))
    pad = white_w + 2
    x0 = math.floor(min(p[0] for p in points)) - pad
    y0 = math.floor(min(p[1] for p in points)) - pad
    x1 = math.ceil(max(p[0] for p in points)) + pad
    y1 = math.ceil(max(p[1] for p in points)) + pad
    ss = 2
    big = Image.new("RGBA", ((x1 - x0) * ss, (y1 - y0) * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    closed = [((x - x0) * ss, (y - y0) * ss) for x, y in points + points[:2]]
    d.line(closed, fill=(255, 255, 255, 255), width=white_w * ss, joint="curve")
    d.line(closed, fill=P.HIGHLIGHT_EDGE + (255,), width=red_w * ss, joint="curve")
    return (x0, y0), big.reduce(ss)


def draw_legend(img: Image.Image, base: BoardBase, view: View) -> list[TextItem]:
    """The players' panel (the key is part of the base); returns its text."""
    parts = picture_parts(view)
    return legend.draw_legend(img, base.layout, base.game_map, view, parts,
                              key_entries(base.game_map, parts))
