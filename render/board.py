"""The public board picture: the cached base plus this game's trains, stations, passengers,
the last move and the legend.

Only a public view (``engine.game.view(state, None)``) is read, so nothing secret can reach
the picture. The last move is passed in explicitly (``highlight_routes``,
``highlight_cities``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.view import View
from render import palette as P
from render.base_cache import BoardBase, get_base
from render.basemap import legend_cells
from render.encode import png_bytes
from render.layout import passenger_figure_size
from render.sprites import car_marks, mark_mask, passenger_masks, sprite_glow, station_masks
from render.text import draw_text, fit_text, font
from render.viewdata import city_passengers, player_passengers, scores, uses_stations


@dataclass(frozen=True)
class BoardPicture:
    """A rendered board: the PNG and, for tests and previews, the RGB image."""

    png: bytes
    image: Image.Image
    base: BoardBase


def board_image(
    view: View,
    game_map: GameMap | None = None,
    *,
    width: int = 1600,
    colorblind: bool = False,
    highlight_routes: Iterable[str] = (),
    highlight_cities: Iterable[str] = (),
) -> tuple[Image.Image, BoardBase]:
    """The board as an RGB image (and the base it was drawn on)."""
    game_map = game_map or load_map(view.map_id)
    base = get_base(game_map, width, colorblind=colorblind)
    img = base.image.copy()
    draw_game(img, base, view, set(highlight_routes), set(highlight_cities))
    draw_legend(img, base, view)
    return img, base


def render_board(
    view: View,
    game_map: GameMap | None = None,
    *,
    width: int = 1600,
    colorblind: bool = False,
    highlight_routes: Iterable[str] = (),
    highlight_cities: Iterable[str] = (),
) -> BoardPicture:
    """The public board picture of a game (PNG bytes in ``.png``).

    `view` is ``engine.game.view(state, None)``; `game_map` defaults to the view's map;
    `highlight_routes` / `highlight_cities` mark the last move; `colorblind` adds a letter to
    every route colour (each player always has a shape mark)."""
    img, base = board_image(view, game_map, width=width, colorblind=colorblind,
                            highlight_routes=highlight_routes, highlight_cities=highlight_cities)
    return BoardPicture(png_bytes(img, base.palette), img, base)


# ---------------------------------------------------------------------------------------------
# The game on the map
# ---------------------------------------------------------------------------------------------


def paste_route(img: Image.Image, base: BoardBase, route_id: str, seat: int, glow: bool = False) -> None:
    """Draw a claimed route as a row of train cars in the seat's colour, with its mark."""
    style = P.player_style(seat)
    sprite = base.sprite(route_id)
    if glow:
        origin, mask = sprite_glow(sprite, base.layout.dims.k)
        img.paste(P.HIGHLIGHT_EDGE, origin, mask)
    for car in sprite.cars:
        img.paste(style.dark, car.origin, car.edge)
        img.paste(style.fill, car.origin, car.fill)
        img.paste((255, 255, 255), car.origin, car_marks(car, style.mark, sprite.car_w))


def draw_game(
    img: Image.Image,
    base: BoardBase,
    view: View,
    highlight_routes: set[str],
    highlight_cities: set[str],
) -> None:
    """Trains, stations, passengers and the last move, on a copy of the base."""
    geom = base.geom
    k = base.layout.dims.k
    owners = view.route_owner
    for rid in highlight_routes:  # a highlighted open route (e.g. a tunnel given up) still glows
        if rid not in owners and rid in geom.routes:
            origin, mask = sprite_glow(base.sprite(rid), k)
            img.paste(P.HIGHLIGHT_EDGE, origin, mask)
    for rid, seat in owners.items():
        if rid in geom.routes:
            paste_route(img, base, rid, int(seat), glow=rid in highlight_routes)

    d = ImageDraw.Draw(img)
    for city in highlight_cities:
        cg = geom.cities.get(city)
        if cg is None:
            continue
        x, y = cg.center
        r = cg.radius * 2.1
        d.ellipse((x - r, y - r, x + r, y + r), outline=P.HIGHLIGHT_EDGE, width=max(2, round(3 * k)))

    stations = view.stations
    if stations:
        size = base.layout.dims.city_r * 2.5
        masks = base.extra.get("station")
        if masks is None:
            masks = station_masks(size)
            base.extra["station"] = masks
        edge, fill = masks
        for city, seat in stations.items():
            cg = geom.cities.get(city)
            if cg is None:
                continue
            style = P.player_style(int(seat))
            ox, oy = round(cg.center[0] - edge.width / 2), round(cg.center[1] - edge.height / 2)
            img.paste(style.dark, (ox, oy), edge)
            img.paste(style.fill, (ox, oy), fill)
            m = _mark(base, style.mark, max(5, round(size * 0.42)))
            at = (round(cg.center[0] - m.width / 2), round(cg.center[1] - m.height / 2 + size * 0.08))
            img.paste((255, 255, 255), at, m)

    waiting = city_passengers(view)
    if waiting:
        slots = base.passenger_slots()
        w, h, gap = passenger_figure_size(k)
        edge, fill = _figures(base, w, h)
        for city, colours in waiting.items():
            slot = slots.get(city)
            if slot is None:
                continue
            x0, y0 = round(slot.box[0]), round(slot.box[1])
            cols = max(1, slot.font_px)
            for i, colour in enumerate(colours[: slot.count]):
                x, y = x0 + (i % cols) * (w + gap), y0 + (i // cols) * (h + gap)
                img.paste(P.INK, (x, y), edge)
                img.paste(P.ROUTE_RGB.get(colour, P.ROUTE_RGB["gray"]), (x, y), fill)


def _mark(base: BoardBase, shape: str, size: int) -> Image.Image:
    key = ("mark", shape, size)
    m = base.extra.get(key)
    if m is None:
        m = mark_mask(shape, size)
        base.extra[key] = m
    return m


def _figures(base: BoardBase, w: int, h: int) -> tuple[Image.Image, Image.Image]:
    key = ("figure", w, h)
    m = base.extra.get(key)
    if m is None:
        m = passenger_masks(w, h)
        base.extra[key] = m
    return m


# ---------------------------------------------------------------------------------------------
# The legend: whose turn, and per player colour + mark, score, trains, cards, tickets
# ---------------------------------------------------------------------------------------------


def status_line(view: View) -> tuple[str, str]:
    """(headline, detail) for the legend's info box."""
    status = view.status
    current = view.current
    turn = view.turn + 1
    if status == "over":
        result = view.result or {}
        winners = [view.name(s) for s in result.get("winners", [])]
        head = "Game over"
        detail = ("Winner: " if len(winners) == 1 else "Winners: ") + " & ".join(winners) if winners else ""
        return head, detail
    if status == "setup":
        return "Choosing tickets", "everyone picks at once"
    left = view.final_turns_left
    detail = f"Turn {turn}"
    if left is not None:
        detail += f" · final round, {left} turn{'s' if left != 1 else ''} left"
    return f"{view.name(current)} to play", detail


def draw_legend(img: Image.Image, base: BoardBase, view: View) -> None:
    """The players' panel (the key is part of the base)."""
    layout = base.layout
    if layout.legend_side == "none":
        return
    k = layout.dims.k
    players = view.players
    info, cells, _ = legend_cells(layout, len(players))
    d = ImageDraw.Draw(img)
    head, detail = status_line(view)
    title_f = font(max(13, round(22 * k)), "bold")
    body_f = font(max(12, round(17 * k)), "regular")
    small_f = font(max(11, round(15 * k)), "regular")
    iw = info[2] - info[0]
    y = info[1]
    d.text((info[0], y), fit_text(base.game_map.name, small_f, iw), font=small_f, fill=P.INK_SOFT)
    y += round(20 * k) + 2
    d.text((info[0], y), fit_text(head, title_f, iw), font=title_f, fill=P.INK)
    y += round(26 * k) + 2
    d.text((info[0], y), fit_text(detail, body_f, iw), font=body_f, fill=P.INK)

    pts = scores(view)
    over = view.status == "over"
    winners = set((view.result or {}).get("winners", [])) if over else set()
    stations_on = uses_stations(view)
    name_f = font(max(12, round(19 * k)), "bold")
    score_f = font(max(14, round(26 * k)), "bold")
    for p, cell in zip(players, cells, strict=True):
        seat = p.seat
        style = P.player_style(seat)
        x0, y0, x1, y1 = cell
        current = not over and seat == view.current and view.status == "playing"
        if current or seat in winners:
            d.rounded_rectangle(cell, radius=round(8 * k), fill=style.light, outline=style.fill,
                                width=max(2, round(3 * k)))
        pad = round(7 * k)
        cx, cy = x0 + pad, y0 + pad
        # swatch: a train car in the player's colour with the player's mark
        sw_w, sw_h = round(34 * k), round(20 * k)
        d.rounded_rectangle((cx, cy, cx + sw_w, cy + sw_h), radius=round(4 * k), fill=style.fill, outline=style.dark,
                            width=max(1, round(1.5 * k)))
        m = _mark(base, style.mark, max(7, round(15 * k)))
        img.paste((255, 255, 255), (cx + (sw_w - m.width) // 2, cy + (sw_h - m.height) // 2), m)
        nx = cx + sw_w + round(8 * k)
        name = view.name(seat)
        tag = " ★" if seat in winners else ""
        d.text((nx, cy + sw_h / 2), fit_text(name, name_f, x1 - nx - pad - name_f.getlength(tag)) + tag, font=name_f,
               fill=P.INK, anchor="lm")
        if current:
            # a pointer at the left edge of the current player's cell
            ty = cy + sw_h / 2
            tr = round(6 * k)
            d.polygon([(x0 - 2, ty - tr), (x0 + tr - 1, ty), (x0 - 2, ty + tr)], fill=style.dark)
        # rows are spaced by the fonts' own heights, so small pictures (minimum font sizes) never overlap
        row = cy + max(sw_h, sum(name_f.getmetrics())) + round(4 * k)
        score = f"{pts.get(seat, 0)}"
        d.text((cx, row), score, font=score_f, fill=P.INK)
        base_line = row + score_f.getmetrics()[0]
        sx = cx + score_f.getlength(score) + round(5 * k)
        d.text((sx, base_line), "pts", font=small_f, fill=P.INK_SOFT, anchor="ls")
        trains = f"{p.trains} trains"
        d.text((x1 - pad, base_line), trains, font=body_f, fill=P.INK, anchor="rs")
        row = base_line + score_f.getmetrics()[1] + round(3 * k)
        right = x1 - pad
        if stations_on:
            # stations left: one small house each, at the right of the line
            n = p.stations
            hw = max(6, round(11 * k))
            for i in range(n):
                hx = right - (i + 1) * (hw + 3) + 3
                hy = row + round(2 * k)
                house = [(hx, hy + hw), (hx, hy + hw * 0.4), (hx + hw / 2, hy), (hx + hw, hy + hw * 0.4),
                         (hx + hw, hy + hw)]
                d.polygon(house, fill=style.fill, outline=style.dark)
            right -= n * (hw + 3) + round(4 * k)
        bits = f"{p.hand_size} cards · {p.ticket_count} tickets"
        d.text((cx, row), fit_text(bits, small_f, right - cx), font=small_f, fill=P.INK_SOFT)
        collected = player_passengers(view, seat)
        if collected:
            row += sum(small_f.getmetrics()) + round(3 * k)
            _draw_passenger_counts(img, d, base, (cx, row), collected, small_f, x1 - pad)


def _draw_passenger_counts(img: Image.Image, d: ImageDraw.ImageDraw, base: BoardBase, at: tuple[int, int],
                           collected: Mapping[str, int], fnt: Any, right: int) -> None:
    k = base.layout.dims.k
    w, h, _ = passenger_figure_size(k)
    edge, fill = _figures(base, w, h)
    x, y = at
    for colour in ("red", "black", "yellow", "blue", "green", "white"):
        n = collected.get(colour, 0)
        if not n:
            continue
        if x + w + fnt.getlength(str(n)) > right:
            break
        img.paste(P.INK, (round(x), round(y)), edge)
        img.paste(P.ROUTE_RGB[colour], (round(x), round(y)), fill)
        x += w + 2
        draw_text(d, (x, y + h / 2), str(n), fnt, P.INK, anchor="lm")
        x += fnt.getlength(str(n)) + round(6 * k)
