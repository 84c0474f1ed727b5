"""Every ticket revealed: the final post's map of each player's tickets, completed and failed.

Read only from a finished game's public view: `view.result["sheets"][i]["tickets"]` (each with
its two cities, points and whether it was completed), which the game makes public when it ends.
Each ticket is a line between its cities in its owner's colour — **solid** when completed,
**dashed with a cross at its middle** when failed — over a faded board, so the lines stand out
at Discord's 550-pixel preview; a player's lines are set apart from the others' where tickets
share cities. The legend lists each player with their mark, completed and failed counts and
points, and the key of the two line styles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.view import View
from render import palette as P
from render.base_cache import get_base
from render.encode import png_bytes
from render.legend import key_entries
from render.parts import picture_parts
from render.sprites import mark_mask
from render.text import TextItem, Writer, fit_text, font, preview_px
from render.words import tr

FADE = 0.55  # how far the board is washed towards white under the ticket lines


@dataclass(frozen=True)
class TicketLine:
    """One ticket as drawn: whose, which, between which cities, completed or not."""

    seat: int
    ticket: str
    a: str
    b: str
    points: int
    completed: bool


@dataclass(frozen=True)
class TicketsPicture:
    """The picture (PNG bytes in `.png`, RGB in `.image`), the lines it drew and its text."""

    png: bytes
    image: Image.Image
    lines: tuple[TicketLine, ...]
    texts: tuple[TextItem, ...] = ()


def revealed_tickets(view: View) -> list[TicketLine]:
    """Each player's tickets from the final result (empty before the game ends)."""
    out: list[TicketLine] = []
    result: Mapping[str, Any] = view.result or {}
    for sheet in result.get("sheets", []):
        seat = sheet.get("seat")
        if not isinstance(seat, int):
            continue
        for t in sheet.get("tickets", []) or []:
            a, b = t.get("a"), t.get("b")
            if isinstance(a, str) and isinstance(b, str):
                out.append(TicketLine(seat, str(t.get("id", f"{a}-{b}")), a, b, int(t.get("points", 0)),
                                      bool(t.get("completed"))))
    return out


def render_tickets(view: View, game_map: GameMap | None = None, *, width: int = 1600) -> TicketsPicture:
    """The map of every player's tickets at the end of a game (see the module's docstring).
    Drawn on the same cached base as the board picture of that width."""
    game_map = game_map or load_map(view.map_id)
    base = get_base(game_map, width, key=key_entries(game_map, picture_parts(view)))
    img = Image.blend(base.image, Image.new("RGB", base.image.size, (255, 255, 255)), FADE)
    lines = revealed_tickets(view)
    k = base.layout.dims.k
    d = ImageDraw.Draw(img)
    line_w = max(4, round(9 * k))
    n = max(1, len(view.players))
    spread = line_w * 1.6  # players' lines between the same cities sit side by side
    ends: dict[tuple[str, int], None] = {}
    for ln in sorted(lines, key=lambda t: (t.completed, t.seat)):  # completed lines drawn last, on top
        ca, cb = base.geom.cities.get(ln.a), base.geom.cities.get(ln.b)
        if ca is None or cb is None:
            continue
        (ax, ay), (bx, by) = ca.center, cb.center
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length
        off = (ln.seat - (n - 1) / 2) * spread
        a = (ax + nx * off, ay + ny * off)
        b = (bx + nx * off, by + ny * off)
        style = P.player_style(ln.seat)
        if ln.completed:
            d.line([a, b], fill=style.dark, width=line_w + max(2, round(3 * k)))
            d.line([a, b], fill=style.fill, width=line_w)
        else:
            _dashed(d, a, b, style.fill, style.dark, line_w, k)
            _cross(d, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), line_w * 2.4, style.dark, max(3, round(line_w * 0.6)))
        ends[(ln.a, ln.seat)] = None
        ends[(ln.b, ln.seat)] = None
    r = line_w * 0.9
    for city, seat in ends:
        cg = base.geom.cities.get(city)
        if cg is not None:
            x, y = cg.center
            style = P.player_style(seat)
            d.ellipse((x - r, y - r, x + r, y + r), fill=style.fill, outline=style.dark, width=max(2, round(2 * k)))
    texts = _legend(img, base.layout.legend_box, base.layout.width, view, lines)
    return TicketsPicture(png_bytes(img), img, tuple(lines), tuple(texts))


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: P.RGB, edge: P.RGB,
            width: int, k: float) -> None:
    """A dashed line from a to b: dashes three widths long with gaps of two."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    dash, gap = width * 3.0, width * 2.0
    s = 0.0
    while s < length:
        e = min(length, s + dash)
        p, q = (a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)
        d.line([p, q], fill=edge, width=width + max(2, round(3 * k)))
        d.line([p, q], fill=fill, width=width)
        s = e + gap


def _cross(d: ImageDraw.ImageDraw, c: tuple[float, float], size: float, colour: P.RGB, width: int) -> None:
    x, y = c
    h = size / 2
    d.line([(x - h, y - h), (x + h, y + h)], fill=(255, 255, 255), width=width + 4)
    d.line([(x - h, y + h), (x + h, y - h)], fill=(255, 255, 255), width=width + 4)
    d.line([(x - h, y - h), (x + h, y + h)], fill=colour, width=width)
    d.line([(x - h, y + h), (x + h, y - h)], fill=colour, width=width)


def _legend(img: Image.Image, box: tuple[int, int, int, int], width: int, view: View,
            lines: Sequence[TicketLine]) -> list[TextItem]:
    """The title, one row per player (mark, name, ✓ completed and points, ✗ failed and points)
    and the key of the two line styles, in the legend's box (over the board's legend)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 10 or y1 - y0 < 10:
        return []
    d = ImageDraw.Draw(img)
    d.rectangle(box, fill=P.PANEL, outline=P.PANEL_EDGE, width=2)
    t = preview_px(width)
    w = Writer(d, "tickets", img)
    bold, body = font(t, "bold"), font(t, "regular")
    pad = max(4, round(t * 0.5))
    row_h = round(t * 1.5)
    side = x1 - x0 < y1 - y0  # a column on the right (portrait maps), else a strip below
    entries: list[tuple[int, str]] = []
    for p in view.players:
        mine = [ln for ln in lines if ln.seat == p.seat]
        done = [ln for ln in mine if ln.completed]
        failed = [ln for ln in mine if not ln.completed]
        counts = f"✓{len(done)} +{sum(ln.points for ln in done)}"
        if failed:  # "✗0 −0" would only be noise
            counts += f"  ✗{len(failed)} −{sum(ln.points for ln in failed)}"
        entries.append((p.seat, counts))
    x, y = x0 + pad, y0 + pad
    if side:  # title, then a player per two rows, then the key
        w.text((x, y), fit_text(tr("picture.tickets.title", "Tickets"), bold, x1 - x0 - 2 * pad), bold, P.INK)
        y += row_h
        spots = [(x, y + i * row_h * 2) for i in range(len(entries))]
        key_at = (x, y + len(entries) * row_h * 2 + round(t * 0.3))
        col_w = x1 - x0 - 2 * pad
    else:  # a column per player, the key last
        col_w = (x1 - x0 - 2 * pad) // (len(entries) + 1)
        spots = [(x + i * col_w, y) for i in range(len(entries))]
        key_at = (x + len(entries) * col_w, y)
    for (seat, counts), (cx, cy) in zip(entries, spots, strict=True):
        style = P.player_style(seat)
        sw = round(t * 1.3)
        d.rounded_rectangle((cx, cy, cx + sw, cy + round(t * 0.9)), radius=3, fill=style.fill, outline=style.dark)
        m = mark_mask(style.mark, max(7, round(t * 0.7)))
        img.paste((255, 255, 255), (cx + (sw - m.width) // 2, cy + (round(t * 0.9) - m.height) // 2), m)
        w.text((cx + sw + round(t * 0.4), cy), fit_text(view.name(seat), bold, col_w - sw - t), bold, P.INK)
        w.text((cx, cy + row_h), fit_text(counts, body, col_w - pad), body, P.INK_SOFT)
    kx, ky0 = key_at
    sample = round(t * 2.5)
    lw = max(3, round(t * 0.35))
    if ky0 + row_h * 2 <= y1:
        ky = ky0 + t // 2
        d.line([(kx, ky), (kx + sample, ky)], fill=P.INK, width=lw)
        key_w = x1 - (kx + sample + round(t * 0.4)) - pad
        w.text((kx + sample + round(t * 0.4), ky0), fit_text(tr("picture.ticket.completed", "completed"), body, key_w),
               body, P.INK)
        ky += row_h
        _dashed(d, (kx, ky), (kx + sample, ky), P.INK_SOFT, P.INK, lw, 0.3)
        _cross(d, (kx + sample / 2, ky), lw * 1.6, P.INK, max(2, lw // 2))
        failed_words = fit_text(tr("picture.ticket.failed", "failed"), body, key_w)
        w.text((kx + sample + round(t * 0.4), ky0 + row_h), failed_words, body, P.INK)
    return w.items
