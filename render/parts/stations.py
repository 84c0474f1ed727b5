"""Stations: little houses in the owner's colour on the map, and the stations each player has
left in the legend and the hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image

from engine.view import View
from render import palette as P
from render.parts.base import Badge, PicturePart, register
from render.paste import paste
from render.sprites import mark_mask, station_masks
from render.words import tr_n

if TYPE_CHECKING:
    from render.base_cache import BoardBase


@register("stations")
class Stations(PicturePart):
    """Europe's and USSR's stations."""

    def badges(self, view: View, seat: int) -> list[Badge]:
        n = view.players[seat].stations
        return [Badge("station", n, tr_n("picture.badge.stations", n, "{n} station left", "{n} stations left"),
                      P.player_style(seat).fill)]

    def overlay(self, img: Image.Image, base: BoardBase, view: View) -> None:
        if not view.stations:
            return
        size = base.layout.dims.city_r * 2.5
        masks = base.extra.get("station")
        if masks is None:
            masks = base.extra["station"] = station_masks(size)
        edge, fill = masks
        mark_px = max(5, round(size * 0.42))
        for city, seat in view.stations.items():
            cg = base.geom.cities.get(city)
            if cg is None:
                continue
            style = P.player_style(int(seat))
            ox, oy = round(cg.center[0] - edge.width / 2), round(cg.center[1] - edge.height / 2)
            paste(img, style.dark, (ox, oy), edge)
            paste(img, style.fill, (ox, oy), fill)
            key = ("mark", style.mark, mark_px)
            m = base.extra.get(key)
            if m is None:
                m = base.extra[key] = mark_mask(style.mark, mark_px)
            at = (round(cg.center[0] - m.width / 2), round(cg.center[1] - m.height / 2 + size * 0.08))
            paste(img, (255, 255, 255), at, m)
