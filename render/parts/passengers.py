"""Germany's passengers: figures in their colours waiting next to their city, and each
player's collected passengers by colour in the legend."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from engine.view import View
from render import palette as P
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
        slots = base.passenger_slots()
        w, h, gap = passenger_figure_size(base.layout.dims.k)
        key = ("figure", w, h)
        masks = base.extra.get(key)
        if masks is None:
            masks = base.extra[key] = passenger_masks(w, h)
        edge, fill = masks
        for city, colours in waiting.items():
            slot = slots.get(city)
            if slot is None:
                continue
            x0, y0 = round(slot.box[0]), round(slot.box[1])
            cols = max(1, slot.font_px)
            for i, colour in enumerate(colours[: slot.count]):
                x, y = x0 + (i % cols) * (w + gap), y0 + (i // cols) * (h + gap)
                paste(img, _painted(base, key, colour, edge, fill), (x, y), edge)


def _painted(base: BoardBase, key: tuple, colour: str, edge: Image.Image, fill: Image.Image) -> Image.Image:
    """A passenger figure painted in its colour (cached per base): one paste per figure."""
    painted = base.extra.get((key, colour))
    if painted is None:
        painted = Image.new("RGB", edge.size, P.INK)
        painted.paste(P.ROUTE_RGB.get(colour, P.ROUTE_RGB["gray"]), (0, 0), fill)
        base.extra[(key, colour)] = painted
    return painted
