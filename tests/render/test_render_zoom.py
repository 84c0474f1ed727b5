"""A part of the board, enlarged (render/zoom.py): the window around a city or a route's middle,
inside the map, in the map's proportions, enlarged to 1000 pixels on its longer side; the same
board as the turn post's (trains, the last move); public views only."""

from __future__ import annotations

import pytest
from PIL import ImageChops, ImageStat

from engine.maps import available_maps, load_map
from render import palette as P
from render.base_cache import get_base
from render.board import render_board
from render.legend import key_entries
from render.parts import picture_parts
from render.zoom import WIDTH, render_zoom, zoom_centre, zoom_window
from tools.samples import sample_view


def _base(view):
    game_map = load_map(view.map_id)
    return get_base(game_map, 1600, key=key_entries(game_map, picture_parts(view)))


@pytest.mark.parametrize("map_id", available_maps())
def test_every_citys_window_is_inside_the_map_and_holds_the_city(map_id):
    view = sample_view(map_id, players=3, seed=2)
    base = _base(view)
    x0, y0, x1, y1 = base.layout.map_box
    landscape = (x1 - x0) >= (y1 - y0)
    for city, cg in base.geom.cities.items():
        left, top, right, bottom = zoom_window(base, zoom_centre(base, city=city))
        assert x0 <= left < right <= x1 and y0 <= top < bottom <= y1, city
        assert left <= cg.center[0] <= right and top <= cg.center[1] <= bottom, city
        assert (right - left >= bottom - top) == landscape, city


def test_the_zoom_is_the_boards_own_pixels_enlarged():
    view = sample_view("europe", players=4, seed=3)
    last = sorted(view.route_owner)[0]
    zoom = render_zoom(view, city="berlin", highlight_routes=[last])
    assert max(zoom.image.size) == WIDTH
    left, top, right, bottom = zoom.window
    assert zoom.image.width / (right - left) > 1.5  # enlarged
    board = render_board(view, highlight_routes=[last]).image.crop(zoom.window)
    small = zoom.image.resize(board.size)
    diff = sum(ImageStat.Stat(ImageChops.difference(small, board)).mean) / 3
    assert diff < 12, diff  # the same picture, but for resampling and the palette


def test_a_routes_zoom_is_centred_on_it_and_shows_the_last_move():
    view = sample_view("usa", players=4, seed=3)
    route = sorted(view.route_owner)[0]
    zoom = render_zoom(view, route=route, highlight_routes=[route])
    base = _base(view)
    cx, cy = zoom_centre(base, route=route)
    left, top, right, bottom = zoom.window
    assert left <= cx <= right and top <= cy <= bottom
    reds = {colour: n for n, colour in zoom.image.getcolors(maxcolors=1 << 24)}.get(P.HIGHLIGHT_EDGE, 0)
    assert reds > 500  # the last move's red ring, enlarged


def test_only_a_public_view_is_zoomed():
    with pytest.raises(ValueError):
        render_zoom(sample_view("europe", players=3, seed=1, seat=0), city="berlin")


def test_a_place_not_on_the_map_is_refused():
    with pytest.raises(ValueError):
        render_zoom(sample_view("europe", players=3, seed=1), city="atlantis")
