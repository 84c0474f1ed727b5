"""Germany's passengers: figures in their colours waiting next to their city, and each
player's collected passengers by colour in the legend."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image

from engine.view import View
from render import palette as P
from render.dirty import Box, Drawn, keep_drawn, touched, tracked
from render.layout import passenger_figure_size
from render.parts.base import Badge, PicturePart, register
from render.paste import paste
from render.sprites import passenger_masks
from render.viewdata import city_passengers, player_passengers
from render.words import tr_n

if TYPE_CHECKING:
    from render.base_cache import BoardBase

# The order in which collected colours are listed.
COLOURS = ("red", "black", "yellow", "blue", "green", "white")


@register("passengers")
class Passengers(PicturePart):
    """Passengers waiting on the map (in the spot the label layout kept for them) and
    collected (a figure and a count per colour)."""

    def badges(self, view: View, seat: int) -> list[Badge]:
        held = player_passengers(view, seat) or {}
        colours = [c for c in COLOURS if held.get(c)] + sorted(c for c in held if c not in COLOURS and held[c])
        return [Badge("passenger", held[c], tr_n(f"picture.badge.passengers.{c}", held[c], f"{{n}} {c} passenger",
                                                 f"{{n}} {c} passengers"),
                      P.ROUTE_RGB.get(c, P.ROUTE_RGB["gray"])) for c in colours]

    def overlay(self, img: Image.Image, base: BoardBase, view: View) -> None:
        waiting = city_passengers(view)
        if not waiting:
            return
        slots = base.extra.get("passenger-slots")
        if slots is None:
            slots = base.extra["passenger-slots"] = base.passenger_slots()
        w, h, gap = passenger_figure_size(base.layout.dims.k)
        key = ("figure", w, h)
        masks = base.extra.get(key)
        if masks is None:
            masks = base.extra[key] = passenger_masks(w, h)
        edge, fill = masks
        drawn = tracked(img)
        kept: dict[tuple[str, tuple[str, ...]], KeptGroup] = base.extra.setdefault("passenger-groups", {})
        size = img.size
        for city, colours in waiting.items():
            slot = slots.get(city)
            if slot is None:
                continue
            shown = tuple(colours[: slot.count])
            if not shown:
                continue
            group = kept.get((city, shown)) if drawn is not None else None
            if group is not None and drawn is not None and not touched(group.box, drawn, drawn.ready):
                # the same figures on the bare base as in an earlier picture: their pixels
                # pasted whole, their palette indices to the scanlines ready-made
                img.im.paste(group.pixels, group.box)
                drawn.ready.append((group.box, group.indices, None))  # its whole box
                continue
            n_marks = len(drawn) if drawn is not None else 0
            x0, y0 = round(slot.box[0]), round(slot.box[1])
            cols = max(1, slot.font_px)
            for i, colour in enumerate(shown):
                x, y = x0 + (i % cols) * (w + gap), y0 + (i // cols) * (h + gap)
                paste(img, _painted(base, key, colour, edge, fill), (x, y), edge)
            if drawn is not None:
                _keep(kept, (city, shown), img, drawn, n_marks, size, base.rows().palette)


@dataclass(frozen=True)
class KeptGroup:
    """A city's waiting figures as drawn on the bare base: their box, its pixels (RGB core)
    and their palette indices ("P" core)."""

    box: Box
    pixels: Any
    indices: Any


GROUPS_KEPT = 256  # per base: a few KB each (a handful of figures at 1600 px)
_KEPT_LOCK = threading.Lock()


def _keep(kept: dict[tuple[str, tuple[str, ...]], KeptGroup], key: tuple[str, tuple[str, ...]], img: Image.Image,
          drawn: Drawn, n_marks: int, size: tuple[int, int], palette: Image.Image) -> None:
    """Keep the figures just drawn (the boxes noted after the first `n_marks`) if they went on
    the bare base: nothing drawn before them in the picture reaches their box. Their boxes
    then go to the scanlines as one ready piece instead of being quantized again."""
    mine = drawn[n_marks:]
    if not mine:
        return
    box = (min(b[0] for b in mine), min(b[1] for b in mine), max(b[2] for b in mine), max(b[3] for b in mine))
    if (box[0] < 0 or box[1] < 0 or box[2] > size[0] or box[3] > size[1]
            or touched(box, drawn[:n_marks], drawn.ready)):
        return
    pixels = img.im.crop(box)
    group = KeptGroup(box, pixels, pixels.convert("P", 0, palette.im))
    keep_drawn(drawn, n_marks, box, group.indices)
    if key not in kept:
        with _KEPT_LOCK:  # render threads share a base
            while len(kept) >= GROUPS_KEPT:
                kept.pop(next(iter(kept)))  # the oldest
            kept[key] = group


def _painted(base: BoardBase, key: tuple, colour: str, edge: Image.Image, fill: Image.Image) -> Image.Image:
    """A passenger figure painted in its colour (cached per base): one paste per figure."""
    painted = base.extra.get((key, colour))
    if painted is None:
        painted = Image.new("RGB", edge.size, P.INK)
        painted.paste(P.ROUTE_RGB.get(colour, P.ROUTE_RGB["gray"]), (0, 0), fill)
        base.extra[(key, colour)] = painted
    return painted
