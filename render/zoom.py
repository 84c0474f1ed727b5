"""A part of the board, enlarged: for a phone, where the whole board shows 360 pixels wide and
only the legend's scores can be read.

The board is drawn as the turn post draws it (the same cached 1600-pixel base, trains,
stations, the last move marked), from a **public view** only, then the window around a city
(or a route's middle) is cut out and enlarged to `WIDTH` on its longer side: about a third of the map's longer
side, so at a phone's 360 pixels its names read about as large as the whole board's do on a
desktop. The window stays inside the map.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from engine.maps import GameMap, load_map
from engine.view import View
from render.base_cache import BoardBase, get_base
from render.board import draw_game
from render.encode import png_bytes
from render.legend import key_entries
from render.parts import picture_parts

BOARD_W = 1600  # the turn post's board: its base is in every worker already
WIDTH = 1000  # the zoomed picture's longer side (a phone shows 360; more only costs time)
SHARE = 0.36  # the window's share of the map's longer side


@dataclass(frozen=True)
class ZoomPicture:
    """The enlarged window (PNG bytes, the RGB image) and where it is on the board picture."""

    png: bytes
    image: Image.Image
    window: tuple[int, int, int, int]


def zoom_centre(base: BoardBase, city: str | None = None, route: str | None = None) -> tuple[float, float]:
    """Where a window around `city` (or the middle of `route`) is centred, in board pixels."""
    geom = base.geom
    if route is not None and route in geom.routes:
        spaces = geom.routes[route].spaces
        if spaces:
            a, b = spaces[0].center, spaces[-1].center
            return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        track = geom.routes[route].track
        return track[len(track) // 2]
    if city is not None and city in geom.cities:
        return geom.cities[city].center
    raise ValueError(f"nothing to zoom on: city {city!r}, route {route!r}")


def zoom_window(base: BoardBase, centre: tuple[float, float]) -> tuple[int, int, int, int]:
    """The window around `centre`: `SHARE` of the map's longer side, in the map's proportions
    (a landscape map's window is wider than tall, a portrait map's taller), inside the map."""
    x0, y0, x1, y1 = base.layout.map_box
    mw, mh = x1 - x0, y1 - y0
    side = SHARE * max(mw, mh)
    w, h = (side, side * mh / mw) if mw >= mh else (side * mw / mh, side)
    w, h = round(min(w, mw)), round(min(h, mh))
    left = round(min(max(x0, centre[0] - w / 2), x1 - w))
    top = round(min(max(y0, centre[1] - h / 2), y1 - h))
    return (left, top, left + w, top + h)


def _shows(base: BoardBase, route_id: str, window: tuple[int, int, int, int]) -> bool:
    """Whether any of a route's spaces is within (or at the edge of) the window."""
    route = base.geom.routes.get(route_id)
    if route is None:
        return False
    left, top, right, bottom = window
    m = 2 * base.layout.dims.space_w + 20
    return any(left - m <= sp.center[0] <= right + m and top - m <= sp.center[1] <= bottom + m for sp in route.spaces)


def render_zoom(view: View, game_map: GameMap | None = None, *, city: str | None = None, route: str | None = None,
                highlight_routes: Iterable[str] = (), highlight_cities: Iterable[str] = (),
                colorblind: bool = False) -> ZoomPicture:
    """The board around `city` (or `route`'s middle), enlarged to `WIDTH` pixels on its longer
    side; `view` is a
    public view (``engine.game.view(state, None)``), `highlight_*` the last move, as on the board."""
    if view.you is not None:
        raise ValueError("a zoom shows the public board: render it from view(state, None)")
    game_map = game_map or load_map(view.map_id)
    parts = picture_parts(view)
    base = get_base(game_map, BOARD_W, key=key_entries(game_map, parts))
    window = zoom_window(base, zoom_centre(base, city, route))
    img = base.image.copy()
    # Only the trains that show in the window are drawn (a route's twins lie beside it, so the
    # tracks closed by a claim are still found); stations and passengers are few.
    inside = {rid: seat for rid, seat in view.route_owner.items() if _shows(base, rid, window)}
    draw_game(img, base, dataclasses.replace(view, route_owner=inside), set(highlight_routes), set(highlight_cities),
              parts, colorblind=colorblind)
    part = img.crop(window)
    scale = WIDTH / max(part.size)
    # bilinear: bicubic costs 4 ms more and is hardly sharper at twice the size
    big = part.resize((round(part.width * scale), round(part.height * scale)), Image.Resampling.BILINEAR)
    return ZoomPicture(png_bytes(big, base.palette), big, window)
