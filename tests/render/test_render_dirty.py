"""Where a picture was drawn on (render/dirty.py): every paste on a tracked picture notes its
box, and the boxes are covered by a few whole-tile rectangles."""

from __future__ import annotations

from PIL import Image

from render import dirty
from render.paste import paste


def covered(rects: list[dirty.Box], size: tuple[int, int]) -> set[tuple[int, int]]:
    return {(x, y) for x0, y0, x1, y1 in rects for x in range(x0, x1) for y in range(y0, y1)
            if x < size[0] and y < size[1]}


def test_a_paste_on_a_tracked_picture_notes_its_box() -> None:
    img = Image.new("RGB", (100, 60), (1, 2, 3))
    mask = Image.new("L", (7, 5), 255)
    with dirty.track(img) as drawn:
        paste(img, (200, 0, 0), (10, 20), mask)
        dirty.mark(img, (50, 1, 52, 3))  # drawn some other way, noted by its drawer
    paste(img, (0, 200, 0), (30, 30), mask)  # after the block: not noted
    assert drawn == [(10, 20, 17, 25), (50, 1, 52, 3)]


def test_a_picture_not_tracked_notes_nothing() -> None:
    img, other = Image.new("RGB", (40, 40)), Image.new("RGB", (40, 40))
    with dirty.track(img) as drawn:
        paste(other, (9, 9, 9), (0, 0), Image.new("L", (3, 3), 255))
    assert drawn == []


def test_tiles_cover_every_box_with_whole_tiles_and_nothing_far_away() -> None:
    size = (100, 70)
    boxes = [(3, 3, 5, 5), (40, 2, 75, 9), (41, 12, 70, 30), (90, 60, 120, 90), (-5, 66, 2, 69)]
    rects = dirty.tiles(boxes, size, tile=16)
    cells = covered(rects, size)
    for x0, y0, x1, y1 in boxes:  # every pixel drawn on is in a rectangle
        assert {(x, y) for x in range(max(0, x0), min(size[0], x1))
                for y in range(max(0, y0), min(size[1], y1))} <= cells
    # and a rectangle only holds the tiles of boxes: nothing in the empty middle
    assert not {(x, y) for x in range(0, 32) for y in range(20, 60)} & cells
    # the rectangles do not overlap, and stay inside the picture
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects) == len(cells)
    assert all(0 <= x0 < x1 <= size[0] and 0 <= y0 < y1 <= size[1] for x0, y0, x1, y1 in rects)


def test_a_run_repeated_row_after_row_is_one_rectangle() -> None:
    assert dirty.tiles([(0, 0, 64, 96)], (200, 200), tile=32) == [(0, 0, 64, 96)]
    assert dirty.tiles([(0, 0, 10, 10), (33, 0, 40, 5)], (200, 200), tile=32) == [(0, 0, 64, 32)]


def test_no_box_no_rectangle() -> None:
    assert dirty.tiles([], (50, 50)) == []
    assert dirty.tiles([(60, 60, 70, 70)], (50, 50)) == []
