"""The private hand picture: what the player holds, block by block as the game's rule modules
give it (train cards or dice and tokens, tickets, tourist cards), and a small map showing the
player's routes and, for every open ticket, the shortest way still to build.

Read from the player's own view, ``engine.game.view(state, seat)``: it holds their hand and
tickets and nothing of anyone else's. The picture goes to that player only. Its text is at
least `preview_px(WIDTH)` high, legible when Discord shows the picture 550 pixels wide.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.view import View
from render import palette as P
from render.base_cache import BoardBase, get_base
from render.basemap import draw_label, paste_colour_tags, tag_spots
from render.board import paste_route
from render.encode import png_bytes
from render.geometry import Dims
from render.icons import icon_width, paste_icon
from render.layout import Label, obstacle_grid, place_labels
from render.legend import map_title
from render.parts import HandBlock, HandContext, picture_parts
from render.parts.tickets import TicketStatus, ticket_statuses
from render.paste import paste_shape, rounded_box, shape_mask
from render.sprites import mark_mask, rounded_rect
from render.text import TextItem, Writer, fit_text, font, preview_px
from render.words import tr, tr_n

WIDTH = 1100
MARGIN = 20
LEFT_W = 560  # the blocks' column

__all__ = ["HandPicture", "TicketStatus", "hand_image", "prepare_mini", "render_hand", "ticket_statuses"]


@dataclass(frozen=True)
class HandPicture:
    png: bytes
    image: Image.Image
    tickets: list[TicketStatus]
    texts: tuple[TextItem, ...] = ()


def render_hand(view: View, game_map: GameMap | None = None, seat: int | None = None, *,
                colorblind: bool = False) -> HandPicture:
    """The private hand picture of the view's player (``view.you``, or `seat`); `colorblind`
    adds the route colours' letters to the small map (cards always carry theirs)."""
    game_map = game_map or load_map(view.map_id)
    seat = view.you if seat is None else seat
    if seat is None:
        raise ValueError("a hand picture needs a player's own view (engine.game.view(state, seat))")
    img, tickets, texts = hand_image(view, game_map, int(seat), colorblind=colorblind)
    return HandPicture(png_bytes(img), img, tickets, tuple(texts))


def _mini_base(game_map: GameMap) -> BoardBase:
    landscape = game_map.width >= game_map.height
    width = WIDTH - LEFT_W - 3 * MARGIN if landscape else 400
    # The few city names on the small map are as legible as the rest of the picture.
    scale = preview_px(WIDTH) / (19 * Dims.for_width(width).k ** 0.75)
    return get_base(game_map, width, legend=False, labels=False, label_scale=scale)


MINI_LABEL_SETS = 512  # ticket-city sets whose labels a small map keeps (least recently used go first)
_MINI_LOCK = threading.Lock()


def prepare_mini(game_map: GameMap) -> None:
    """Build the small map's base and work out every city's label spots on it, once: a hand
    picture then places its few labels against each other only (render workers call this when
    they start)."""
    base = _mini_base(game_map)
    for city in game_map.cities:
        mini_labels(base, frozenset((city,)))


def mini_labels(base: BoardBase, cities: frozenset[str]) -> list[Label]:
    """Labels for just these cities on the small map. What each city needs alone (its spots
    free of obstacles, a crowded city's wider search) is worked out once per map and width
    (`place_labels`' memo); a set already placed is kept in a bounded LRU (tickets change
    rarely, and a player's hand is drawn again every turn)."""
    # One placement at a time: a render worker prepares its bases in a thread beside its jobs,
    # and the memo's lazy searches must not be advanced by two threads at once.
    with _MINI_LOCK:
        cache: OrderedDict[frozenset[str], list[Label]] = base.extra.setdefault("mini_labels", OrderedDict())
        labels = cache.get(cities)
        if labels is not None:
            cache.move_to_end(cities)
            return labels
        grid = base.extra.get("grid")
        if grid is None:
            grid = base.extra["grid"] = obstacle_grid(base.geom, routes=False)
        memo = base.extra.setdefault("label_memo", {})
        labels = place_labels(base.game_map, base.geom, only=cities, grid=grid, memo=memo)
        cache[cities] = labels
        while len(cache) > MINI_LABEL_SETS:
            cache.popitem(last=False)
        return labels


def hand_image(view: View, game_map: GameMap, seat: int, *,
               colorblind: bool = False) -> tuple[Image.Image, list[TicketStatus], list[TextItem]]:
    """The hand picture as an RGB image, the ticket statuses it shows, and its text."""
    style = P.player_style(seat)
    parts = picture_parts(view)
    mini = _mini_base(game_map)
    mw, mh = mini.image.size
    t = preview_px(WIDTH)

    scratch = Image.new("RGB", (1, 1))
    ctx = HandContext(scratch, Writer(ImageDraw.Draw(scratch), "hand"), view, seat, game_map, t,
                      head=font(round(t * 1.15), "bold"), body=font(t, "regular"), bold=font(t, "bold"),
                      big=font(round(t * 1.45), "bold"))
    blocks: list[HandBlock] = [b for part in parts for b in part.hand_blocks(ctx)]
    head_h = round(t * 1.9)
    gap = round(t * 1.1)
    width = MARGIN * 3 + LEFT_W + mw
    holding = holding_rows(ctx, holdings(ctx, parts), width - 2 * MARGIN)
    top = MARGIN + round(t * 1.9) + len(holding) * round(t * HOLDING_ROW)
    left_h = top + sum(head_h + b.height(ctx, LEFT_W) + gap for b in blocks)
    caption_h = round(t * 1.6)
    height = max(left_h, top + mh + caption_h + MARGIN) + MARGIN
    img = Image.new("RGB", (width, height), P.PAPER)
    d = ImageDraw.Draw(img)
    w = Writer(d, "hand", img)
    ctx.img, ctx.writer = img, w

    # header: the player's colour and mark, whose hand, the board; then what they hold
    title_f = font(round(t * 1.45), "bold")
    sw_h, sw_w = round(t * 1.3), round(t * 2.1)
    y = MARGIN
    rounded_box(img, (MARGIN, y, MARGIN + sw_w, y + sw_h), 5, style.fill, style.dark, 2)
    m = mark_mask(style.mark, round(sw_h * 0.7))
    img.paste((255, 255, 255), (MARGIN + (sw_w - m.width) // 2, y + (sw_h - m.height) // 2), m)
    board = map_title(game_map)
    board_w = ctx.body.getlength(board)
    w.text((MARGIN + sw_w + 12, y + sw_h / 2),
           fit_text(tr("picture.hand.title", "{name} — your hand", name=view.name(seat)), title_f,
                    width - 2 * MARGIN - sw_w - 40 - board_w), title_f,
           P.INK, anchor="lm")
    w.text((width - MARGIN, y + sw_h / 2), board, ctx.body, P.INK_SOFT, anchor="rm")
    y += round(t * 1.9)
    for row in holding:
        _draw_holding_row(ctx, row, (MARGIN, y))
        y += round(t * HOLDING_ROW)
    y = top

    # the blocks, one under the other
    for block in blocks:
        title = w.text((MARGIN, y), fit_text(block.title, ctx.head, LEFT_W), ctx.head, P.INK)
        if block.note:
            # what the title leaves (a longer translation), at most a little more than half
            room = min(LEFT_W * 0.55, MARGIN + LEFT_W - title[2] - t * 0.6)
            w.text((MARGIN + LEFT_W, y + 2), fit_text(block.note, ctx.body, room), ctx.body, P.INK_SOFT, anchor="ra")
        y += head_h
        block.draw(ctx, MARGIN, y, LEFT_W)
        y += block.height(ctx, LEFT_W) + gap

    # the small map: own routes, and what the modules mark on it
    mx, my = MARGIN * 2 + LEFT_W, top
    m_img = mini.image.copy()
    _draw_mini(ctx, m_img, mini, parts, colorblind)
    img.paste(m_img, (mx, my))
    d.rectangle((mx - 1, my - 1, mx + mw, my + mh), outline=P.PANEL_EDGE)
    caption = tr("picture.hand.caption", "Coloured: your way to each open ticket")
    w.text((mx, my + mh + 8), fit_text(caption, ctx.body, mw), ctx.body, P.INK_SOFT)
    return img, list(ctx.shared.get("statuses", [])), w.items


@dataclass(frozen=True)
class Holding:
    """One thing the player holds, as the line under the title shows it: an icon and words."""

    icon: str
    what: str
    colour: P.RGB | None = None


HOLDING_ROW = 1.6  # the height of a line of holdings, in text sizes


def holdings(ctx: HandContext, parts: tuple) -> list[Holding]:
    """Trains left, then each module's badges (cards, stations, tickets, tokens, passengers)."""
    me = ctx.view.players[ctx.seat]
    out = [Holding("trains", tr_n("picture.hand.trains", me.trains, "{n} trains", "{n} trains"))]
    for part in parts:
        out += [Holding(b.icon, b.what, b.colour) for b in part.badges(ctx.view, ctx.seat)]
    return out


def _holding_width(ctx: HandContext, item: Holding) -> int:
    return icon_width(item.icon, round(ctx.text_px * 1.05)) + 6 + round(ctx.body.getlength(item.what))


def holding_rows(ctx: HandContext, items: list[Holding], width: int) -> list[list[Holding]]:
    """The holdings in lines of at most `width` pixels, in order: as many lines as they need,
    so that nothing the player holds is left out of their own picture (Germany's passengers
    come in up to six colours)."""
    space = round(ctx.text_px * 1.0)
    rows: list[list[Holding]] = [[]]
    used = 0
    for item in items:
        w = _holding_width(ctx, item)
        if rows[-1] and used + space + w > width:
            rows.append([])
            used = 0
        used += (space if rows[-1] else 0) + w
        rows[-1].append(item)
    return rows


def _draw_holding_row(ctx: HandContext, row: list[Holding], at: tuple[int, int]) -> None:
    """One line of holdings, each an icon and its words."""
    x, y = at
    t = ctx.text_px
    size = round(t * 1.05)
    for item in row:
        paste_icon(ctx.img, item.icon, (x, y + (t * 1.3 - size) / 2), size, item.colour or P.INK)
        x += icon_width(item.icon, size) + 6
        box = ctx.writer.text((x, y + t * 0.65), item.what, ctx.body, P.INK, anchor="lm")
        x = box[2] + round(t * 1.0)


def _taken_spaces(base: BoardBase, route_id: str) -> list[list[tuple[float, float]]]:
    """The outline of each space of a route on the small map (kept with the base: every hand
    draws everyone else's routes)."""
    key = ("taken", route_id)
    spaces = base.extra.get(key)
    if spaces is None:
        spaces = base.extra[key] = [rounded_rect(sp.center, sp.u, sp.length / 2, sp.width / 2 + 0.5, 1)
                                    for sp in base.geom.routes[route_id].spaces]
    return spaces


def _spaces(base: BoardBase, route_id: str) -> Callable[[ImageDraw.ImageDraw], None]:
    def draw(d: ImageDraw.ImageDraw) -> None:
        for points in _taken_spaces(base, route_id):
            d.polygon(points, fill=255)
    return draw


def _draw_mini(ctx: HandContext, img: Image.Image, base: BoardBase, parts: tuple, colorblind: bool) -> None:
    """The small map: everyone's routes (others greyed), then the modules' marks, then the
    cities they name, ringed and labelled; with `colorblind`, the colour tag of every open
    route on the way to a ticket (the colours the player needs)."""
    geom = base.geom
    k = base.layout.dims.k
    taken = base.extra.setdefault("taken_masks", {})
    for rid, who in ctx.view.route_owner.items():
        if rid not in geom.routes:
            continue
        if int(who) == ctx.seat:
            paste_route(img, base, rid, ctx.seat)
        else:  # others' routes: taken, in a quiet grey (each route's spaces rasterized once)
            paste_shape(img, (128, 128, 132), shape_mask(taken, (rid, img.size), img.size, _spaces(base, rid)))
    rings: dict[str, P.RGB] = {}
    for part in parts:
        for city, colour in part.mini_overlay(ctx, img, base):
            rings.setdefault(city, colour)
    d = ImageDraw.Draw(img)
    for city, colour in rings.items():
        cg = geom.cities.get(city)
        if cg is None:
            continue
        x, y = cg.center
        r = max(6.0, cg.radius * 1.9)
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(2, round(3 * k + 1)))
    if colorblind:
        ways = {rid for t in ctx.shared.get("statuses", []) for rid in t.path if rid not in ctx.view.route_owner}
        spots = base.extra.get("tag_spots")
        if spots is None:
            spots = base.extra["tag_spots"] = tag_spots(base.game_map, geom)
        paste_colour_tags(img, base.game_map, spots, round(ctx.text_px * 0.8), sorted(ways))
    for lab in mini_labels(base, frozenset(rings)):
        draw_label(d, lab, k)
