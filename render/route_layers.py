"""A claimed route's cars with their palette indices looked up once per base and player mark.

Most of what a board quantizes again (`render.dirty`) is train cars: each claimed route's
cars pasted on the bare base. Where nothing was drawn before them, the pixels they set are
the same in every game (the base, the cars in the seat's colours), so their palette indices
are too: a layer keeps, per car, the indices of those pixels (a "P" piece, one byte a pixel)
and which pixels the car sets (a "1" mask, shared by every mark), and a board hands them to
its scanlines (`Drawn.ready`) instead of noting the cars' boxes. Anything drawn on top later
(a station, a ring, a colour tag) notes its box and is quantized again over them.

A route's cars lie on the bare base unless something was drawn under them first: the last
move's glow, a closed track's patch, or another route's cars sharing a pixel with them
(`RouteLayer.conflicts`, worked out once per base); then the cars are drawn and noted as
before (`render.board.paste_route`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageChops

from render.dirty import Box, Ready

if TYPE_CHECKING:
    from render.base_cache import BoardBase
    from render.sprites import RouteSprite

_SET = [0] + [255] * 255  # an "L" mask's pixels that a paste changes, as a "1" mask
_LOCK = threading.Lock()


@dataclass
class RouteLayer:
    """One route's cars on one base: their union box, each car's box and "1" mask, the routes
    whose cars share a pixel with them, and each mark's palette indices (built on first use)."""

    box: Box
    boxes: tuple[Box, ...]
    wheres: tuple[Any, ...]  # per car: the "1" core of the pixels its paste changes
    union: Image.Image | None  # the pixels any car changes, over `box` ("1"); let go with `conflicts`
    conflicts: frozenset[str] | None = None
    indices: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # by mark: per car, a "P" core
    # by mark: per car, the RGB core of its box as the cars leave the bare base, and the
    # pieces handed to the scanlines (`ready_pieces`)
    pieces: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    ready: dict[str, tuple[Ready, ...]] = field(default_factory=dict)


def route_layer(base: BoardBase, route_id: str) -> RouteLayer | None:
    """The layer of a route on `base` (None for a route without cars); cached with the base."""
    key = ("layer", route_id)
    layer = base.extra.get(key)
    if layer is None:
        sprite = base.sprite(route_id)
        if not sprite.cars:
            return None
        layer = base.extra[key] = _layer(sprite)
    assert isinstance(layer, RouteLayer)
    return layer


def _layer(sprite: RouteSprite) -> RouteLayer:
    boxes = tuple((c.origin[0], c.origin[1], c.origin[0] + c.edge.width, c.origin[1] + c.edge.height)
                  for c in sprite.cars)
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    wheres = [c.edge.point(_SET, "1") for c in sprite.cars]
    union = Image.new("1", (box[2] - box[0], box[3] - box[1]), 0)
    for b, where in zip(boxes, wheres, strict=True):
        union.paste(255, (b[0] - box[0], b[1] - box[1]), where)
    return RouteLayer(box, boxes, tuple(w.im for w in wheres), union)


def conflicts(base: BoardBase, route_id: str, layer: RouteLayer) -> frozenset[str]:
    """The routes whose cars change a pixel that this route's cars change too. Worked out for
    every route of the base at once, the first time one is asked (their boxes first, then
    their pixels); the union masks are then let go (~1-2 MB a 1600 px board)."""
    with _LOCK:  # one pass at a time: a second would find the first's union masks let go
        if layer.conflicts is None:
            _all_conflicts(base)
    assert layer.conflicts is not None
    return layer.conflicts


def _all_conflicts(base: BoardBase) -> None:
    """Every route's conflicts on `base` (under `_LOCK`), their union masks then let go."""
    layers = {rid: got for rid in base.geom.routes if (got := route_layer(base, rid)) is not None}
    found: dict[str, set[str]] = {rid: set() for rid in layers}
    ids = list(layers)
    for i, a in enumerate(ids):
        la = layers[a]
        x0, y0, x1, y1 = la.box
        for b in ids[i + 1:]:
            lb = layers[b]
            ox0, oy0, ox1, oy1 = lb.box
            ix0, iy0, ix1, iy1 = max(x0, ox0), max(y0, oy0), min(x1, ox1), min(y1, oy1)
            if ix0 >= ix1 or iy0 >= iy1:
                continue
            assert la.union is not None and lb.union is not None  # one pass per base
            mine = la.union.crop((ix0 - x0, iy0 - y0, ix1 - x0, iy1 - y0))
            them = lb.union.crop((ix0 - ox0, iy0 - oy0, ix1 - ox0, iy1 - oy0))
            if ImageChops.logical_and(mine, them).getbbox() is not None:
                found[a].add(b)
                found[b].add(a)
    for rid, theirs in found.items():
        layers[rid].conflicts = frozenset(theirs)
        layers[rid].union = None


def ready_pieces(base: BoardBase, layer: RouteLayer, sprite: RouteSprite, mark: str,
                 painted: Callable[[], list[Image.Image]]) -> tuple[tuple[Any, ...], tuple[Ready, ...]]:
    """For the mark `mark`: each car's RGB piece (its box as the cars leave the bare base),
    and each car's box, palette indices and mask for the scanlines. Built once from the cars
    `painted` in that player's colours (called only then): the cars pasted on the bare base
    as a board pastes them, the union box quantized to the base's palette once, cut per car.

    Pasting each car's piece through its "1" mask sets the pixels the cars' blends set, to
    the values they leave (a pixel two cars touch holds the later's blend over the earlier's,
    in the piece of either): the same pixels as blending each car through its "L" mask, on
    the bare base, at a third of Pillow's time (a copy where the mask is set, not a blend)."""
    pieces = layer.pieces.get(mark)
    ready = layer.ready.get(mark)
    if pieces is None or ready is None:
        x0, y0 = layer.box[:2]
        patch = base.image.crop(layer.box)
        for b, car, colours in zip(layer.boxes, sprite.cars, painted(), strict=True):
            patch.paste(colours, (b[0] - x0, b[1] - y0), car.edge)
        q = patch.im.convert("P", 0, base.rows().palette.im)  # the palette the scanlines use
        cuts = [(b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0) for b in layer.boxes]
        indices = layer.indices[mark] = tuple(q.crop(c) for c in cuts)
        pieces = layer.pieces[mark] = tuple(patch.im.crop(c) for c in cuts)
        ready = layer.ready[mark] = tuple(zip(layer.boxes, indices, layer.wheres, strict=True))
    return pieces, ready
