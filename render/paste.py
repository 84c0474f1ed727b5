"""Pasting small sprites and text masks fast.

A board pastes a few hundred small things (each train car, every piece of the legend's text,
icons, stations); Pillow's `Image.paste` checks and normalises its arguments in Python each
time, which took longer than pasting a car. `paste` hands them to Pillow's core at once: the
same pixels, for the cases the pictures use (a colour or an image of the picture's own mode —
or RGBA onto RGB — through an "L", "1" or RGBA mask). Each paste notes its box on a tracked
picture (`render.dirty`), so that a board quantizes only where it was drawn on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from render.dirty import mark

Colour = tuple[int, ...]


def paste(img: Image.Image, source: Colour | Image.Image, origin: tuple[int, int], mask: Image.Image) -> None:
    """`img.paste(source, origin, mask)`: `source` (a colour, or an image as big as `mask`)
    through `mask`, its top left corner at `origin` (whole pixels)."""
    x, y = origin
    w, h = mask.size
    box = (x, y, x + w, y + h)
    mark(img, box)
    if isinstance(source, Image.Image):
        if source.mode != img.mode and not (img.mode == "RGB" and source.mode == "RGBA"):
            img.paste(source, box, mask)  # a conversion first: Pillow's own path
            return
        img.im.paste(source.im, box, mask.im)
    else:
        img.im.paste(source, box, mask.im)


_NOTHING = (0, 0), None  # a shape that sets no pixel


def shape_mask(cache: dict[Any, Any], key: Any, size: tuple[int, int],
               draw: Callable[[ImageDraw.ImageDraw], object]) -> tuple[tuple[int, int], Image.Image | None]:
    """The pixels a solid shape sets on a picture of `size` (its top left corner, and an "L"
    mask of its box; None when it sets none), drawn once by `draw` (ImageDraw with fill 255,
    no anti-aliasing) and kept in `cache` under `key`. Pasting a colour through it sets the
    same pixels to that colour as drawing the shape in that colour: it is rasterized at the
    same coordinates, only the ink differs."""
    got = cache.get(key)
    if got is None:
        scratch = Image.new("L", size, 0)
        draw(ImageDraw.Draw(scratch))
        box = scratch.getbbox()
        got = cache[key] = ((box[0], box[1]), scratch.crop(box)) if box else _NOTHING
    return got


def paste_shape(img: Image.Image, colour: Colour, shape: tuple[tuple[int, int], Image.Image | None]) -> None:
    """Fill a shape from `shape_mask` with `colour`."""
    origin, mask = shape
    if mask is not None:
        paste(img, colour, origin, mask)


@functools.lru_cache(maxsize=256)  # a few boxes per layout: the legend's cells and swatches
def _rounded_masks(box: tuple[int, int, int, int], radius: int, width: int) -> tuple[Image.Image, Image.Image]:
    """The fill's and the outline's pixels of ImageDraw's rounded rectangle `box` (inclusive,
    as ImageDraw takes it), as masks of the box: drawn once with two inks at the same
    coordinates, so the outline's pixels are the ones it draws over the fill."""
    x0, y0, x1, y1 = box
    scratch = Image.new("L", (x1 + 1, y1 + 1), 0)
    ImageDraw.Draw(scratch).rounded_rectangle(box, radius=radius, fill=1, outline=2, width=width)
    area = scratch.crop((x0, y0, x1 + 1, y1 + 1))
    return area.point([0, 255] + [0] * 254), area.point([0, 0, 255] + [0] * 253)


Rects = tuple[tuple[int, int, int, int], ...]


def mask_rects(mask: Image.Image) -> Rects:
    """The pixels a mask of only 0 and 255 sets, as rectangles (x0, y0, x1, y1, far edges
    excluded, relative to the mask): the runs of each row, a run repeated in the next rows
    grown down. Filling them with a colour sets the same pixels to the same bytes as pasting
    the colour through the mask (Pillow's blend of 255 is the colour, of 0 the pixel), without
    blending every pixel of the mask's box."""
    w, h = mask.size
    raw = mask.tobytes()
    out: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}  # (x0, x1) -> first row
    for y in range(h + 1):
        runs: set[tuple[int, int]] = set()
        if y < h:
            row = raw[y * w:(y + 1) * w]
            x = row.find(255)
            while x >= 0:
                end = row.find(0, x)
                end = w if end < 0 else end
                runs.add((x, end))
                x = row.find(255, end)
        for run in [run for run in open_runs if run not in runs]:
            out.append((run[0], open_runs.pop(run), run[1], y))
        for run in runs:
            open_runs.setdefault(run, y)
    return tuple(sorted(out, key=lambda r: (r[1], r[0])))


@functools.lru_cache(maxsize=256)
def _rounded_rects(box: tuple[int, int, int, int], radius: int, width: int) -> tuple[Rects, Rects]:
    """`_rounded_masks` as rectangles of the picture (`mask_rects`, moved to the box)."""
    x0, y0 = box[0], box[1]
    fill, outline = (tuple((a + x0, b + y0, c + x0, d + y0) for a, b, c, d in mask_rects(m))
                     for m in _rounded_masks(box, radius, width))
    return fill, outline


def rounded_box(img: Image.Image, box: tuple[int, int, int, int], radius: int, fill: Colour, outline: Colour,
                width: int) -> None:
    """``ImageDraw.Draw(img).rounded_rectangle(box, radius, fill, outline, width)`` for a box of
    whole pixels inside `img`: the same pixels, from masks rasterized once per box (ImageDraw
    works out the corners in Python on every call; the legend and the hand draw the same few
    boxes on every picture), filled as rectangles (`mask_rects`): a current player's cell is
    ~40,000 pixels, which a paste through its masks blended one by one twice."""
    x0, y0, x1, y1 = box
    if not (all(type(v) is int for v in (*box, radius, width)) and x0 >= 0 and y0 >= 0
            and x1 < img.width and y1 < img.height):
        ImageDraw.Draw(img).rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        mark(img, (math.floor(x0), math.floor(y0), math.ceil(x1) + 1, math.ceil(y1) + 1))
        return
    fill_rects, outline_rects = _rounded_rects(box, radius, width)
    mark(img, (x0, y0, x1 + 1, y1 + 1))
    core = img.im  # a colour goes to the core as it did through the masks: the same ink
    for r in fill_rects:
        core.paste(fill, r)
    for r in outline_rects:
        core.paste(outline, r)
