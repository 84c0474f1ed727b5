"""The static base of each board, drawn once per process and reused for every picture.

A base holds the layout, the route geometry, the placed labels, the RGB picture of the empty
board, the palette every picture of that board is quantized to (and the empty board already
quantized to it), and masks for train cars (built on first use). Bases are keyed by map,
width and options, kept in a small LRU, and built under a lock so that two render threads
never build the same base twice.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from engine.maps import GameMap
from render import palette as P
from render.basemap import draw_base
from render.encode import BaseRows
from render.geometry import BoardGeometry, BoardLayout, board_geometry, board_layout
from render.layout import Label, place_labels
from render.memory import give_back
from render.parts.base import KeyEntry
from render.sprites import RouteSprite, route_sprite
from render.text import TextItem

MAX_BASES = 16  # a base of a 1600-pixel board is ~5 MB of RGB; this bounds the cache to ~80 MB


@dataclass
class BoardBase:
    """Everything about one board picture that does not depend on a game."""

    game_map: GameMap
    layout: BoardLayout
    geom: BoardGeometry
    labels: list[Label]
    image: Image.Image
    palette: Image.Image
    build_ms: float = 0.0
    key_texts: tuple[TextItem, ...] = ()  # the key's text (drawn in the base)
    sprites: dict[str, RouteSprite] = field(default_factory=dict)
    extra: dict[Any, Any] = field(default_factory=dict)  # other cached masks (stations, figures)
    _rows: BaseRows | None = field(default=None, repr=False)

    def rows(self) -> BaseRows:
        """The base quantized to its palette, as PNG scanlines (built on first use, ~2 MB for
        a 1600-pixel board; a race only builds it twice): a picture drawn on it quantizes only
        where it was drawn on."""
        rows = self._rows
        if rows is None:
            rows = self._rows = BaseRows.of(self.image, self.palette)
        return rows

    def sprite(self, route_id: str) -> RouteSprite:
        """Train-car masks for a route (built on first use; a race only builds it twice)."""
        sp = self.sprites.get(route_id)
        if sp is None:
            sp = route_sprite(self.geom.routes[route_id], self.layout.dims.k)
            self.sprites[route_id] = sp
        return sp

    def passenger_slots(self) -> dict[str, Label]:
        """Where each city's passenger figures go (Germany), by city id."""
        return {lab.owner: lab for lab in self.labels if lab.kind == "passengers"}


_CACHE: OrderedDict[tuple, BoardBase] = OrderedDict()
_LOCK = threading.Lock()


def get_base(
    game_map: GameMap,
    width: int,
    labels: bool = True,
    legend: bool = True,
    label_scale: float = 1.0,
    draw_labels: bool = True,
    key: tuple[KeyEntry, ...] = (),
) -> BoardBase:
    """The cached base for a board picture `width` pixels wide (built on first request).

    `labels` places the city labels; `draw_labels=False` places them without drawing them
    (the hand picture's small map names only the cities of the player's tickets); `key` is
    the legend's key (the rule modules' symbols)."""
    cache_key = (game_map.id, id(game_map), int(width), bool(labels), bool(legend), float(label_scale),
                 bool(draw_labels), tuple(key))
    with _LOCK:
        base = _CACHE.get(cache_key)
        if base is not None:
            _CACHE.move_to_end(cache_key)
            return base
        base = build_base(game_map, width, labels, legend, label_scale, draw_labels, key)
        _CACHE[cache_key] = base
        while len(_CACHE) > MAX_BASES:
            _CACHE.popitem(last=False)
    # Drawing a base makes and drops far more than it keeps (labels tried, masks at twice the
    # size): hand those pages back rather than let the allocator hold them.
    give_back()
    return base


def clear_cache() -> None:
    """Forget every base (tests, or after a map file changed)."""
    with _LOCK:
        _CACHE.clear()


def build_base(
    game_map: GameMap,
    width: int,
    labels: bool = True,
    legend: bool = True,
    label_scale: float = 1.0,
    draw_labels: bool = True,
    key: tuple[KeyEntry, ...] = (),
) -> BoardBase:
    """Draw a base from scratch (uncached)."""
    started = time.perf_counter()
    layout = board_layout(game_map, width, legend=legend, label_scale=label_scale)
    geom = board_geometry(game_map, layout)
    placed = place_labels(game_map, geom, with_labels=labels)
    image, key_texts = draw_base(game_map, geom, placed if draw_labels else [], key=tuple(key) if legend else None)
    pal = build_palette(image)
    return BoardBase(game_map, layout, geom, placed, image, pal,
                     build_ms=(time.perf_counter() - started) * 1000, key_texts=tuple(key_texts))


def overlay_colours() -> list[P.RGB]:
    """Colours drawn on top of a base, which the palette must hold exactly: player colours,
    highlight, ink and a few blends for anti-aliased edges and text."""
    out: list[P.RGB] = []

    def mix(a: P.RGB, b: P.RGB, t: float) -> P.RGB:
        return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))

    for st in P.PLAYER_STYLES:
        out += [st.fill, st.dark, st.light, mix(st.fill, st.dark, 0.5), mix(st.fill, (255, 255, 255), 0.5)]
    out += [P.HIGHLIGHT, P.HIGHLIGHT_EDGE, mix(P.HIGHLIGHT, P.LAND, 0.5), mix(P.HIGHLIGHT, P.SEA, 0.5)]
    out += [P.GOOD, P.BAD, (255, 255, 255), P.INK, P.INK_SOFT, P.PANEL, P.PANEL_EDGE, P.CLOSED_FILL, P.CLOSED_HATCH]
    for t in (0.15, 0.3, 0.45, 0.6, 0.75, 0.9):  # text on the legend panel
        out.append(mix(P.INK, P.PANEL, t))
    for c in ("red", "black", "yellow", "blue", "green", "white"):  # passengers
        out.append(P.ROUTE_RGB[c])
    return out


def build_palette(image: Image.Image) -> Image.Image:
    """A "P" image whose 256-colour palette is the base's own colours (median cut) plus the
    overlay colours, so a finished picture is quantized by a cheap nearest-colour lookup."""
    extra = overlay_colours()
    n_base = 256 - len(extra)
    q = image.quantize(colors=n_base, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    base_pal = (q.getpalette() or [])[: n_base * 3]
    flat: list[int] = list(base_pal) + [0] * (n_base * 3 - len(base_pal))
    for c in extra:
        flat += list(c)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat[:768])
    return pal
