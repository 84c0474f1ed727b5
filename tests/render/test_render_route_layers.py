"""A claimed route's cars with their palette indices looked up once (render/route_layers.py):
cars on the bare base hand their indices to the scanlines instead of being quantized again,
and anything under them first (the last move's glow, another route's cars sharing a pixel)
sends them the old way. Either way the PNG is the whole picture quantized."""

from __future__ import annotations

import dataclasses

import pytest

from render import encode
from render.board import _drawn_board
from render.route_layers import conflicts, route_layer
from tools.samples import sample_view

WIDTH = 800  # small boards: the same code, a quarter of the pixels


def cars(base, ready) -> list:
    """The ready pieces that are cars (not the legend's kept cells)."""
    lx0, ly0, lx1, ly1 = base.layout.legend_box
    return [p for p in ready if not (lx0 <= p[0][0] and ly0 <= p[0][1] and p[0][2] <= lx1 and p[0][3] <= ly1)]


def drawn(owners: dict[str, int], marked: tuple[str, ...] = ()):
    view = dataclasses.replace(sample_view("europe", players=4, seed=2, claimed_share=0.0), route_owner=owners)
    return _drawn_board(view, None, WIDTH, False, marked, ())


def test_cars_on_the_bare_base_bring_their_indices_instead_of_their_boxes() -> None:
    img, base, _, boxes = drawn({"bruxelles-paris-1": 0})
    layer = route_layer(base, "bruxelles-paris-1")
    assert layer is not None
    assert [piece[0] for piece in cars(base, boxes.ready)] == list(layer.boxes)
    assert not set(layer.boxes) & set(boxes)
    assert base.rows().png(img, boxes) == encode.png_bytes(img, base.palette)


def test_cars_on_the_last_moves_glow_are_quantized_again() -> None:
    img, base, _, boxes = drawn({"bruxelles-paris-1": 0}, marked=("bruxelles-paris-1",))
    assert cars(base, boxes.ready) == []
    assert base.rows().png(img, boxes) == encode.png_bytes(img, base.palette)


def test_the_tracks_of_a_double_route_share_pixels_and_each_knows_it() -> None:
    img, base, _, _ = drawn({})
    one, two = route_layer(base, "bruxelles-paris-1"), route_layer(base, "bruxelles-paris-2")
    assert one is not None and two is not None
    assert "bruxelles-paris-2" in conflicts(base, "bruxelles-paris-1", one)
    assert "bruxelles-paris-1" in conflicts(base, "bruxelles-paris-2", two)
    assert "moskva-petrograd" not in conflicts(base, "bruxelles-paris-1", one)


def test_cars_drawn_over_another_routes_cars_are_quantized_again() -> None:
    img, base, _, boxes = drawn({"bruxelles-paris-1": 0, "bruxelles-paris-2": 1})
    first = route_layer(base, "bruxelles-paris-1")
    assert first is not None
    assert [piece[0] for piece in cars(base, boxes.ready)] == list(first.boxes)  # the second track: noted
    assert base.rows().png(img, boxes) == encode.png_bytes(img, base.palette)


def test_cars_beside_a_closed_track_are_quantized_again() -> None:
    """Three players on Europe: the twin of a claimed double route is closed, its hatched patch
    drawn before the cars and reaching their box."""
    view = dataclasses.replace(sample_view("europe", players=3, seed=2, claimed_share=0.0),
                               route_owner={"bruxelles-paris-1": 0})
    img, base, _, boxes = _drawn_board(view, None, WIDTH, False, (), ())
    assert cars(base, boxes.ready) == []
    assert base.rows().png(img, boxes) == encode.png_bytes(img, base.palette)


def test_cars_copied_from_their_pieces_are_the_cars_blended(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every map, a busy board at the turn post's width: the picture whose cars on the bare
    base are copied from their prepared pieces through "1" masks is, pixel for pixel, the
    picture with every car blended through its "L" mask (each route sent the old way)."""
    import render.board as board
    from engine.maps import available_maps

    for map_id in available_maps():
        view = sample_view(map_id, players=5, seed=4, claimed_share=0.6)
        marked = (sorted(view.route_owner)[0],)
        img, base, _, boxes = board._drawn_board(view, None, 1600, False, marked, ())
        assert len(cars(base, boxes.ready)) > 20, map_id  # most cars did come from their pieces
        with monkeypatch.context() as m:
            m.setattr(board, "_on_base", lambda *args: False)
            blended, _, _, old = board._drawn_board(view, None, 1600, False, marked, ())
        assert cars(base, old.ready) == []
        if img.tobytes() != blended.tobytes():
            pytest.fail(f"{map_id}: cars from pieces differ from the blended cars")
