"""A large board drawn into a picture kept with its base, instead of a fresh copy of the base.

A board starts as a copy of its base (`render.board`): on the portrait maps (Germany 1600 ×
1996, Nordic 1600 × 1951 px, 3.1–3.2 Mpx) that copy is a fresh 12–13 MB picture every time,
~0.9 ms of CPU, mostly first-touch page faults, and the scanlines' fresh 3.2 MB buffer comes
on top. A board of at least `MIN_PIXELS` is drawn instead into a `Scratch` kept with its base
(one per base, so per map, width and key), which holds the base's pixels and the base's
scanlines everywhere before each board: the board is drawn on it as on a copy (every box
noted, `render.dirty`), its scanlines written into the kept buffer and deflated, then the
picture and the buffer are put back to the base's over exactly what was written — the tiles
quantized again and the ready pieces' boxes (12–14 % of a board) — before the next board.

The kept picture is never handed out: only `render.board.board_png` (PNG bytes, what a render
job returns) draws into it; `render_board` and `board_image`, whose callers keep the picture,
still draw on a copy. One board at a time uses a scratch (a lock, not waited for: a second
thread draws on a copy meanwhile); a board that fails midway drops its scratch, so that no
half-drawn picture is used again. At most `MAX_KEPT` scratches are kept in a process, the
least recently used let go first: with the six maps at 1600 px only Germany's and Nordic's
qualify, ~16 MB each (the RGB picture at 4 bytes a pixel and the scanlines).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any

from render.base_cache import BoardBase
from render.dirty import Box, Drawn
from render.encode import BaseRows, ScanlineBuffer

# Boards of fewer pixels draw on a fresh copy: restoring costs a crop and a paste per box
# drawn, which only pays where the copy is large (docs/performance.md, "ninth step").
MIN_PIXELS = 2_800_000
MAX_KEPT = 2


# What the restore needs of each ready piece's box, remembered per scratch up to this many
# pixels of boxes, then forgotten all at once: ready pieces come back to the same boxes board
# after board (a route's cars, a legend cell, a city's figures). Germany's boards use ~2 Mpx
# of them (~10 MB of crops).
BOXES_PIXELS = 4_000_000


class Scratch:
    """A picture equal to its base's (and the base's scanlines), lent to one board at a time."""

    def __init__(self, base: BoardBase) -> None:
        self.image = base.image.copy()
        self.lines = ScanlineBuffer(base.rows())
        self.lock = threading.Lock()
        # per box of a ready piece, what puts the base back there: its one colour and palette
        # index (a legend cell on the bare panel), or the base's RGB and "P" crops of the box
        # (a crop is an allocation and a copy on top of the paste; a route's cars are ~100
        # boxes a Germany board)
        self.boxes: dict[Box, tuple[Any, Any]] = {}
        self.box_pixels = 0

    def restore(self, base: BoardBase, rects: list[Box], drawn: Drawn) -> None:
        """Put the picture and the scanlines back to the base's over the tiles `rects` that
        were quantized again (copied from crops of the base) and the boxes of the ready pieces
        of `drawn` (filled where the base is one colour, else pasted from the base's crops
        kept for the box)."""
        src, core, rows, lines = base.image.im, self.image.im, base.rows(), self.lines
        boxes = self.boxes
        for box, _, _ in drawn.ready:
            got = boxes.get(box)
            if got is None:
                x0, y0, x1, y1 = box
                if self.box_pixels >= BOXES_PIXELS:
                    boxes.clear()
                    self.box_pixels = 0
                got = boxes[box] = (_one_colour(src, rows, box)
                                    or (src.crop(box), rows.core.crop((x0 + 1, y0, x1 + 1, y1))))
                self.box_pixels += (x1 - x0) * (y1 - y0)
            core.paste(got[0], box)
            lines.core.paste(got[1], (box[0] + 1, box[1], box[2] + 1, box[3]))
        for box in rects:
            core.paste(src.crop(box), box)
        lines.restore(rows, rects)


def _one_colour(src: Any, rows: BaseRows, box: Box) -> tuple[tuple[int, ...], int] | None:
    """The base's colour inside `box` and its palette index, if the box has one colour only."""
    colours = src.crop(box).getcolors(1)
    if not colours:
        return None
    counts = rows.core.crop((box[0] + 1, box[1], box[2] + 1, box[3])).histogram()
    used = [i for i, n in enumerate(counts) if n]
    if len(used) != 1:  # (one colour is one index: a pixel's index depends on it alone)
        return None
    return tuple(colours[0][1]), used[0]


_KEY = "board-scratch"
# The bases holding a scratch, least recently used first (weakly: a base the base cache let
# go takes its scratch with it).
_KEPT: OrderedDict[int, weakref.ref[BoardBase]] = OrderedDict()
_LOCK = threading.Lock()


def acquire(base: BoardBase) -> Scratch | None:
    """The base's scratch, locked for this board; None when the base is too small for one or
    its scratch is in use (then the board draws on a copy)."""
    w, h = base.image.size
    if w * h < MIN_PIXELS:
        return None
    with _LOCK:
        got = base.extra.get(_KEY)
        if not isinstance(got, Scratch):
            got = base.extra[_KEY] = Scratch(base)
        _KEPT[id(base)] = weakref.ref(base)
        _KEPT.move_to_end(id(base))
        for key in [key for key, ref in _KEPT.items() if ref() is None]:
            del _KEPT[key]
        while len(_KEPT) > MAX_KEPT:
            old = _KEPT.popitem(last=False)[1]()
            if old is not None:
                old.extra.pop(_KEY, None)
    return got if got.lock.acquire(blocking=False) else None


def drop(base: BoardBase, scratch: Scratch) -> None:
    """Forget a scratch whose picture is no longer known to equal its base's."""
    with _LOCK:
        if base.extra.get(_KEY) is scratch:
            del base.extra[_KEY]
            _KEPT.pop(id(base), None)


def kept(base: BoardBase) -> Scratch | None:
    """The base's scratch, if it has one (tests)."""
    got = base.extra.get(_KEY)
    return got if isinstance(got, Scratch) else None


def clear() -> None:
    """Forget every scratch (tests)."""
    with _LOCK:
        for ref in _KEPT.values():
            base = ref()
            if base is not None:
                base.extra.pop(_KEY, None)
        _KEPT.clear()

