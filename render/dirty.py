"""Where a picture was drawn on since it was copied from its base.

A board is its base's picture with a game drawn on top: trains, stations, rings, the
legend's status and players. Quantizing a pixel to the base's palette depends on that pixel
alone (Pillow's nearest-colour lookup), so the pixels nobody drew on quantize to what the
base's pixels quantize to, and only the drawn-on boxes need the lookup again
(`render.encode.BaseRows`). Every paste (`render.paste.paste`) notes its box here while a
picture is tracked; what is drawn otherwise (ImageDraw: the legend, a ring's city names) is
noted by its drawer with `mark`.

A drawer that already knows a piece's palette indices (a claimed route's cars on the bare
base, `render.route_layers`) hands them over with `ready` instead of noting a box: the
scanlines take those indices as they are, and every box noted (drawn on later, or before)
is quantized again from the picture on top of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from PIL import Image

Box = tuple[int, int, int, int]
# A piece already quantized: its box, its "P" core and the "1" core of the pixels it sets, or
# None when it sets its whole box (pasted without a mask: a paste through a mask tests every
# pixel, ten times slower for a legend cell than the copy).
Ready = tuple[Box, Any, Any | None]


class Drawn(list[Box]):
    """The boxes drawn on a tracked picture, and (`ready`) the pieces whose palette indices
    are already known."""

    ready: list[Ready]

    def __init__(self) -> None:
        super().__init__()
        self.ready = []


# The pictures being tracked (by id: an Image is not hashable by value), each with its boxes.
_TRACKED: dict[int, Drawn] = {}

# Boxes are gathered into tiles this many pixels square: fewer, larger pieces to quantize
# (each piece costs a few microseconds of calls; a pixel costs about a nanosecond).
TILE = 32


@contextmanager
def track(img: Image.Image) -> Iterator[Drawn]:
    """Note every box drawn on `img` inside the block (the list yielded fills as it goes)."""
    boxes = Drawn()
    _TRACKED[id(img)] = boxes
    try:
        yield boxes
    finally:
        del _TRACKED[id(img)]


def mark(img: Image.Image, box: Box) -> None:
    """Note that `box` (x0, y0, x1, y1, the far edges excluded) of `img` was drawn on."""
    boxes = _TRACKED.get(id(img))
    if boxes is not None:
        boxes.append(box)


def tracked(img: Image.Image) -> Drawn | None:
    """What is noted of `img` (None when it is not tracked)."""
    return _TRACKED.get(id(img))


def touched(box: Box, marks: Sequence[Box], ready: Sequence[Ready]) -> bool:
    """Whether any noted box or ready piece reaches `box` (x0, y0, x1, y1, far edges excluded)."""
    x0, y0, x1, y1 = box
    for b in marks:
        if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]:
            return True
    for r in ready:
        b = r[0]
        if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]:
            return True
    return False


def keep_drawn(drawn: Drawn, n_marks: int, box: Box, indices: Any) -> None:
    """Hand the pixels drawn inside `box` since the first `n_marks` boxes were noted to the
    scanlines as `indices` (their palette indices, just looked up) instead of quantizing
    their boxes again: those boxes are dropped and the piece goes with the ready ones. Only
    for a box nothing drawn before reaches (`touched`); what is drawn later on top notes its
    own boxes, quantized again over the piece."""
    del drawn[n_marks:]
    drawn.ready.append((box, indices, None))


def tiles(boxes: list[Box], size: tuple[int, int], tile: int = TILE) -> list[Box]:
    """The boxes covered by whole tiles, as few rectangles as a row-by-row merge gives (runs of
    tiles in a row; a run repeated in the next row grows down), clipped to the picture."""
    width, height = size
    rows = (height + tile - 1) // tile
    masks = [0] * rows
    # A board notes ~200 boxes: plain comparisons rather than min()/max() calls (a third of
    # this function's time went to them).
    for x0, y0, x1, y1 in boxes:
        if x0 < 0:
            x0 = 0
        if y0 < 0:
            y0 = 0
        if x1 > width:
            x1 = width
        if y1 > height:
            y1 = height
        if x0 >= x1 or y0 >= y1:
            continue
        bits = (1 << ((x1 - 1) // tile + 1)) - (1 << (x0 // tile))  # columns x0 // tile .. (x1 - 1) // tile
        for r in range(y0 // tile, (y1 - 1) // tile + 1):
            masks[r] |= bits
    out: list[Box] = []
    open_runs: dict[tuple[int, int], int] = {}  # (first column, end column) -> first row
    for r in range(rows + 1):
        runs = set(_runs(masks[r])) if r < rows else set()
        for run in [run for run in open_runs if run not in runs]:
            r0 = open_runs.pop(run)
            out.append((run[0] * tile, r0 * tile, min(width, run[1] * tile), min(height, r * tile)))
        for run in runs:
            open_runs.setdefault(run, r)
    return out


def _runs(bits: int) -> Iterator[tuple[int, int]]:
    """(first, end) of each run of set bits, lowest first."""
    col = 0
    while bits:
        skip = (bits & -bits).bit_length() - 1
        bits >>= skip
        col += skip
        length = (~bits & (bits + 1)).bit_length() - 1
        yield col, col + length
        bits >>= length
        col += length
