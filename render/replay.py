"""The replay: a finished game as an animated GIF, one frame per claim or station, the last
frame holding on the final board.

It is drawn from public views only (`engine.timeline.public_timeline`: one `view(state, None)`
per move shown), like every board picture. To stay small and quick:

- the trains are pasted **incrementally** on one running copy of the cached base (a route
  taken off the board, by the USSR Controller, redraws the trains from the base once);
- each frame is that copy plus the rule modules' overlays (stations, passengers), the move's
  halo and ring, and the legend (scores, whose turn) — the same parts as the board picture;
- only the rectangle that changed since the previous frame is quantized (to the base's own
  palette, one index of which is freed for transparency) and written, with the pixels that did
  not change inside it transparent, so a frame costs a few kilobytes.

`render_replay` keeps the GIF under `MAX_BYTES` (Discord takes 10 MB): when it would be bigger
it draws the replay again narrower.
"""

from __future__ import annotations

import io
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from engine.maps import GameMap, load_map
from engine.timeline import TimelineStep
from render import legend
from render import palette as P
from render.base_cache import BoardBase, get_base
from render.board import _city_ring, _route_ring, closed_tracks, paste_closed, paste_rings, paste_route
from render.legend import key_entries
from render.parts import picture_parts
from render.sprites import sprite_glow

MAX_BYTES = 8 * 1024 * 1024  # Discord's attachment limit is 10 MB: keep a margin
WIDTH = 1600  # the board picture's width: its base is cached (the final board was just drawn on it)
NARROWER = (1200, 900, 700)  # the widths tried when a replay would be too big
FIRST_MS = 1200  # the board as the game began
FINAL_MS = 5000  # the final board holds
TOTAL_MS = 18000  # the moves in between take about this long together
STEP_MS = (150, 600)  # but each at least / at most this long


@dataclass(frozen=True)
class ReplayPicture:
    """A replay: the GIF bytes, its frame count, its size, how long it took (ms), and the first
    and last frames as RGB images (for tests and previews)."""

    gif: bytes
    frames: int
    size: tuple[int, int]
    build_ms: float
    first: Image.Image
    last: Image.Image


def step_ms(moves: int) -> int:
    """How long each move's frame shows: the moves take about TOTAL_MS together."""
    ms = TOTAL_MS // max(1, moves)
    return int(min(max(ms, STEP_MS[0]), STEP_MS[1]) // 10 * 10)


def render_replay(steps: Sequence[TimelineStep], game_map: GameMap | None = None, *, width: int = WIDTH,
                  max_bytes: int = MAX_BYTES) -> ReplayPicture:
    """The replay GIF of a game from its public timeline (`engine.timeline.public_timeline`),
    at most `max_bytes` (drawn narrower when it would be bigger)."""
    if not steps:
        raise ValueError("a replay needs at least one picture")
    started = time.perf_counter()
    widths = [width] + [w for w in NARROWER if w < width]
    for w in widths:
        pic = _render(steps, game_map or load_map(steps[0].view.map_id), w)
        if len(pic.gif) <= max_bytes or w == widths[-1]:
            return ReplayPicture(pic.gif, pic.frames, pic.size, (time.perf_counter() - started) * 1000,
                                 pic.first, pic.last)
    raise AssertionError("unreachable")


def _render(steps: Sequence[TimelineStep], game_map: GameMap, width: int) -> ReplayPicture:
    first_view = steps[0].view
    parts = picture_parts(first_view)
    entries = key_entries(game_map, parts)
    base = get_base(game_map, width, key=entries)
    palette, free = _replay_palette(base)
    remap = [i if i != free else _twin(palette, free) for i in range(256)]
    trains = _Trains(base)
    out = io.BytesIO()
    prev: Image.Image | None = None
    first = last = base.image
    moves = max(0, len(steps) - 2)
    each = step_ms(moves)
    for i, step in enumerate(steps):
        frame = trains.frame(step)
        for part in parts:
            part.overlay(frame, base, step.view)
        _marks(frame, base, step)
        legend.draw_legend(frame, base.layout, game_map, step.view, parts, entries)
        ms = FIRST_MS if i == 0 else FINAL_MS if i == len(steps) - 1 else each
        if prev is None:
            out.write(_header(frame.size, palette))
            _write(out, frame.quantize(palette=palette, dither=Image.Dither.NONE).point(remap), (0, 0), ms, None)
            first = frame
        else:
            diff = ImageChops.difference(frame, prev)
            boxes = _changed(diff, (0, 0, *frame.size), SPLITS) or [(0, 0, 1, 1)]  # none: keep the frame's time
            for n, box in enumerate(boxes):
                crop = frame.crop(box).quantize(palette=palette, dither=Image.Dither.NONE).point(remap)
                r, g, b = diff.crop(box).split()
                crop.paste(free, (0, 0), ImageChops.lighter(ImageChops.lighter(r, g), b).point(_UNCHANGED))
                # the parts of one move show together: all but the last for the shortest time
                # browsers honour (20 ms), the last for the rest of the move's time
                part_ms = ms - PART_MS * (len(boxes) - 1) if n == len(boxes) - 1 else PART_MS
                _write(out, crop, box[:2], max(PART_MS, part_ms), free)
        prev = frame
        last = frame
    out.write(b";")
    return ReplayPicture(out.getvalue(), len(steps), base.image.size, 0.0, first, last)


_UNCHANGED = [255] + [0] * 255  # a pixel whose difference is 0 in every band did not change
SPLITS = 3  # a frame's change is cut into at most 2**SPLITS rectangles
PART_MS = 20  # GIF viewers show a frame of 0 or 10 ms for 100 ms; 20 ms they honour
SMALL = 40_000  # a changed rectangle this small (pixels) is written as it is


def _changed(diff: Image.Image, box: tuple[int, int, int, int], depth: int) -> list[tuple[int, int, int, int]]:
    """The rectangles of `box` where `diff` is not zero: the bounding box, cut in two along
    its longer side while that leaves much less to write (the last move's ring and the new
    one, the map and the legend are far apart)."""
    found = diff.crop(box).getbbox()
    if found is None:
        return []
    x0, y0 = box[0] + found[0], box[1] + found[1]
    bb = (x0, y0, box[0] + found[2], box[1] + found[3])
    area = (bb[2] - bb[0]) * (bb[3] - bb[1])
    if depth == 0 or area <= SMALL:
        return [bb]
    if bb[2] - bb[0] >= bb[3] - bb[1]:
        mid = (bb[0] + bb[2]) // 2
        halves = [(bb[0], bb[1], mid, bb[3]), (mid, bb[1], bb[2], bb[3])]
    else:
        mid = (bb[1] + bb[3]) // 2
        halves = [(bb[0], bb[1], bb[2], mid), (bb[0], mid, bb[2], bb[3])]
    parts = [r for h in halves for r in _changed(diff, h, depth - 1)]
    if sum((r[2] - r[0]) * (r[3] - r[1]) for r in parts) > 0.7 * area:
        return [bb]
    return parts


class _Trains:
    """The base with the trains of the moves so far, pasted one route at a time."""

    def __init__(self, base: BoardBase) -> None:
        self.base = base
        self.image = base.image.copy()
        self.drawn: dict[str, int] = {}
        self.closed: set[str] = set()

    def frame(self, step: TimelineStep) -> Image.Image:
        """A copy of the trains (and the tracks they closed) as they stand after `step`, ready
        for its marks."""
        owners = {rid: int(seat) for rid, seat in step.view.route_owner.items() if rid in self.base.geom.routes}
        closed = {rid for rid in closed_tracks(step.view, self.base.game_map) if rid in self.base.geom.routes}
        if any(owners.get(rid) != seat for rid, seat in self.drawn.items()) or not self.closed <= closed:
            self.image = self.base.image.copy()  # a route left the board: start again from the base
            self.drawn, self.closed = {}, set()
        for rid in sorted(closed - self.closed):
            paste_closed(self.image, self.base, rid)
            self.closed.add(rid)
        for rid, seat in owners.items():
            if rid not in self.drawn:
                paste_route(self.image, self.base, rid, seat)
                self.drawn[rid] = seat
        return self.image.copy()


def _marks(img: Image.Image, base: BoardBase, step: TimelineStep) -> None:
    """The move's halo (under its cars, which are pasted again on top) and red ring, as on
    the board picture."""
    routes = [rid for rid in step.routes if rid in base.geom.routes]
    k = base.layout.dims.k
    owners = step.view.route_owner
    for rid in routes:
        origin, mask = sprite_glow(base.sprite(rid), k)
        img.paste(P.HIGHLIGHT_EDGE, origin, mask)
    rings = []
    for rid in routes:
        if base.geom.routes[rid].spaces:
            rings.append(_route_ring(base, rid))
        if rid in owners:
            paste_route(img, base, rid, int(owners[rid]))
    for city in step.cities:
        if city in base.geom.cities:
            rings.append(_city_ring(base, city))
    paste_rings(img, ImageDraw.Draw(img), base, rings, k)


def _replay_palette(base: BoardBase) -> tuple[Image.Image, int]:
    """The base's palette with one index freed for transparency: the later of the two closest
    colours becomes a copy of the earlier (so nothing is lost that the eye could tell), and
    every pixel quantized to it is moved to its twin. Cached with the base."""
    cached = base.extra.get("replay_palette")
    if cached is not None:
        return cached
    flat = (base.palette.getpalette() or [])[:768]
    flat += [0] * (768 - len(flat))
    colours = [tuple(flat[i * 3:i * 3 + 3]) for i in range(256)]
    best = (10 ** 9, 0, 1)
    for i in range(256):
        ci = colours[i]
        for j in range(i + 1, 256):
            cj = colours[j]
            dist = (ci[0] - cj[0]) ** 2 + (ci[1] - cj[1]) ** 2 + (ci[2] - cj[2]) ** 2
            if dist < best[0]:
                best = (dist, i, j)
    _, keep, free = best
    flat[free * 3:free * 3 + 3] = flat[keep * 3:keep * 3 + 3]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    base.extra["replay_palette"] = (pal, free)
    return pal, free


def _twin(palette: Image.Image, free: int) -> int:
    flat = palette.getpalette() or []
    colour = flat[free * 3:free * 3 + 3]
    return next(i for i in range(256) if i != free and flat[i * 3:i * 3 + 3] == colour)


def _header(size: tuple[int, int], palette: Image.Image) -> bytes:
    """GIF89a header: the canvas, the one global palette (256 colours), loop forever."""
    flat = bytes((palette.getpalette() or [])[:768]).ljust(768, b"\0")
    screen = b"GIF89a" + struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\0"
    return screen + flat + loop


def _write(out: io.BytesIO, frame: Image.Image, offset: tuple[int, int], ms: int, transparent: int | None) -> None:
    """One frame (a palette image, placed at `offset`) shown for `ms`, left in place after it
    (disposal 1) so the next frame only draws what changed."""
    params: dict[str, object] = {"duration": ms, "disposal": 1}
    if transparent is not None:
        params["transparency"] = transparent
    for chunk in GifImagePlugin.getdata(frame, offset, **params):
        out.write(chunk)
