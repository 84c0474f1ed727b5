"""The private hand picture: train cards with counts (or dice and tokens), the tickets with
completed / not-yet marks, and a small map showing, for every open ticket, the shortest way
still to build (fewest trains to place, over open routes and the player's own).

Read from the player's own view, ``engine.game.view(state, seat)``: it holds their hand and
tickets and nothing of anyone else's. The picture goes to that player only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.ai import shortest_open_path
from engine.maps import GameMap, load_map
from engine.view import View
from render import palette as P
from render.base_cache import BoardBase, get_base
from render.basemap import draw_label
from render.board import paste_route
from render.encode import png_bytes
from render.layout import Label, obstacle_grid, place_labels
from render.sprites import mark_mask, rounded_rect
from render.text import fit_text, font
from render.viewdata import dice_of

WIDTH = 1240
MARGIN = 20
LEFT_W = 540  # cards and tickets column


@dataclass(frozen=True)
class TicketStatus:
    """One ticket as the hand picture shows it."""

    ticket_id: str
    a: str
    b: str
    points: int
    completed: bool
    trains_left: int | None  # None: cannot be completed any more
    path: tuple[str, ...]  # route ids still to claim (and own routes on the way)


def ticket_statuses(view: View, game_map: GameMap, seat: int) -> list[TicketStatus]:
    """Completed / open for each of the seat's tickets (completion is the engine's own answer,
    `PlayerView.completed`), with the cheapest way to finish the open ones
    (``engine.ai.shortest_open_path``: fewest trains still to place)."""
    me = view.players[seat]
    if me.tickets is None:
        return []
    out = []
    for tid in me.tickets:
        t = game_map.tickets[tid]
        if tid in me.completed:
            out.append(TicketStatus(tid, t.a, t.b, t.points, True, 0, ()))
            continue
        found = shortest_open_path(view, game_map, seat, t.a, t.b)
        if found is None:
            out.append(TicketStatus(tid, t.a, t.b, t.points, False, None, ()))
        else:
            out.append(TicketStatus(tid, t.a, t.b, t.points, False, found[0], tuple(found[1])))
    return out


@dataclass(frozen=True)
class HandPicture:
    png: bytes
    image: Image.Image
    tickets: list[TicketStatus]


def render_hand(view: View, game_map: GameMap | None = None, seat: int | None = None) -> HandPicture:
    """The private hand picture of the view's player (``view.you``, or `seat`)."""
    game_map = game_map or load_map(view.map_id)
    seat = view.you if seat is None else seat
    if seat is None:
        raise ValueError("a hand picture needs a player's own view (engine.game.view(state, seat))")
    img, tickets = hand_image(view, game_map, int(seat))
    return HandPicture(png_bytes(img), img, tickets)


def _mini_base(game_map: GameMap) -> BoardBase:
    landscape = game_map.width >= game_map.height
    width = WIDTH - LEFT_W - 3 * MARGIN if landscape else 440
    return get_base(game_map, width, legend=False, labels=False)


def mini_labels(base: BoardBase, cities: frozenset[str]) -> list[Label]:
    """Labels for just these cities on the small map (cached per set: tickets change rarely)."""
    cache = base.extra.setdefault("mini_labels", {})
    labels = cache.get(cities)
    if labels is None:
        grid = base.extra.get("grid")
        if grid is None:
            grid = base.extra["grid"] = obstacle_grid(base.geom)
        labels = place_labels(base.game_map, base.geom, only=cities, grid=grid)
        if len(cache) > 256:
            cache.clear()
        cache[cities] = labels
    return labels


def hand_image(view: View, game_map: GameMap, seat: int) -> tuple[Image.Image, list[TicketStatus]]:
    """The hand picture as an RGB image, and the ticket statuses it shows."""
    me = view.players[seat]
    held = _Held(dict(me.hand or {}), *(dice_of(view, seat) or ([], {})))
    style = P.player_style(seat)
    statuses = ticket_statuses(view, game_map, seat)
    mini = _mini_base(game_map)
    mw, mh = mini.image.size

    title_f = font(24, "bold")
    head_f = font(17, "bold")
    body_f = font(16, "regular")
    small_f = font(14, "regular")
    row_h = 30
    cards_h = _cards_height(held)
    left_h = 56 + cards_h + 34 + max(1, len(statuses)) * row_h + 40
    height = max(left_h, 56 + mh + 30 + MARGIN)
    width = MARGIN * 3 + LEFT_W + mw
    img = Image.new("RGB", (width, height), P.PAPER)
    d = ImageDraw.Draw(img)

    # header: whose hand, on which map, with the player's colour and mark
    d.rounded_rectangle((MARGIN, 16, MARGIN + 40, 40), radius=5, fill=style.fill, outline=style.dark, width=2)
    m = mark_mask(style.mark, 16)
    img.paste((255, 255, 255), (MARGIN + 12, 20), m)
    d.text((MARGIN + 52, 28), fit_text(f"{view.name(seat)} — your hand", title_f, LEFT_W - 60), font=title_f,
           fill=P.INK, anchor="lm")
    trains = f"{me.trains} trains left"
    if me.stations or view.stations:
        trains += f" · {me.stations} stations"
    d.text((width - MARGIN, 28), f"{game_map.name} · {trains}", font=body_f, fill=P.INK_SOFT, anchor="rm")

    y = 56
    y = _draw_cards(img, d, held, (MARGIN, y), head_f, small_f)
    y += 14
    d.text((MARGIN, y), "Tickets", font=head_f, fill=P.INK)
    done = sum(1 for t in statuses if t.completed)
    d.text((MARGIN + LEFT_W, y + 2), f"{done} of {len(statuses)} completed", font=small_f, fill=P.INK_SOFT, anchor="ra")
    y += 30
    open_index = 0
    colours: dict[str, P.RGB] = {}
    for t in statuses:
        _draw_ticket_row(d, game_map, t, (MARGIN, y), body_f, small_f, colours, open_index)
        if not t.completed and t.trains_left is not None:
            open_index += 1
        y += row_h
    if not statuses:
        d.text((MARGIN, y), "No tickets yet.", font=body_f, fill=P.INK_SOFT)

    # the small map: own routes, and the way to finish each open ticket
    mx, my = MARGIN * 2 + LEFT_W, 56
    m_img = mini.image.copy()
    _draw_mini(m_img, mini, view, seat, statuses, colours)
    img.paste(m_img, (mx, my))
    d.rectangle((mx - 1, my - 1, mx + mw, my + mh), outline=P.PANEL_EDGE)
    d.text((mx, my + mh + 8), fit_text("Coloured: the shortest way to finish each open ticket", small_f, mw),
           font=small_f, fill=P.INK_SOFT)
    return img, statuses


@dataclass(frozen=True)
class _Held:
    """What the hand picture shows of a player's holding: train cards, or dice and tokens."""

    cards: dict[str, int]
    dice: list[str]
    tokens: dict[str, int]

    @property
    def uses_cards(self) -> bool:
        """Under the Dice Expansion there are no train cards: the grid is left out."""
        return bool(self.cards) or not (self.dice or self.tokens)


def _cards_height(held: _Held) -> int:
    h = 30 + 2 * 72 if held.uses_cards else 0
    if held.dice or held.tokens:
        h += 30 + 56
    return h


CARD_W, CARD_H, CARD_GAP = 98, 64, 10


def _draw_cards(img: Image.Image, d: ImageDraw.ImageDraw, held: _Held, at: tuple[int, int],
                head_f: Any, small_f: Any) -> int:
    """The train cards as coloured cards with counts, five to a row; zero counts faded."""
    x0, y = at
    counts = held.cards
    count_f = font(24, "bold")
    if held.uses_cards:
        total = sum(counts.values())
        d.text((x0, y), "Train cards", font=head_f, fill=P.INK)
        d.text((x0 + LEFT_W, y + 2), f"{total} in hand", font=small_f, fill=P.INK_SOFT, anchor="ra")
        y += 30
        letter_f = font(13, "bold")
        for i, card in enumerate(P.CARD_ORDER):
            cx = x0 + (i % 5) * (CARD_W + CARD_GAP)
            cy = y + (i // 5) * (CARD_H + 8)
            _draw_card(img, d, card, (cx, cy), counts.get(card, 0), count_f, letter_f)
        y += 2 * (CARD_H + 8) + 8
    dice, tokens = held.dice, held.tokens
    if dice or tokens:
        d.text((x0, y), "Dice and tokens", font=head_f, fill=P.INK)
        y += 30
        x = x0
        face_f = font(12, "bold")
        for face in dice:
            d.rounded_rectangle((x, y, x + 60, y + 48), radius=8, fill=(255, 255, 255), outline=P.INK, width=2)
            d.text((x + 30, y + 24), fit_text(face.replace("_", " "), face_f, 54), font=face_f, fill=P.INK,
                   anchor="mm")
            x += 66
        x += 16
        for name, n in sorted(tokens.items()):
            d.ellipse((x, y + 4, x + 40, y + 44), fill=P.PANEL, outline=P.INK, width=2)
            d.text((x + 20, y + 24), str(n), font=count_f, fill=P.INK, anchor="mm")
            d.text((x + 46, y + 24), name.replace("_", " "), font=small_f, fill=P.INK, anchor="lm")
            x += 52 + small_f.getlength(name) + 12
        y += 56
    return y


def _draw_card(img: Image.Image, d: ImageDraw.ImageDraw, card: str, at: tuple[int, int], n: int, count_f: Any,
               letter_f: Any) -> None:
    x, y = at
    box = (x, y, x + CARD_W, y + CARD_H)
    faded = n == 0
    if card == "loco":
        # the locomotive card: rainbow stripes
        stripe = CARD_W / len(P.LOCO_STRIPES)
        for i, col in enumerate(P.LOCO_STRIPES):
            c = _fade(col) if faded else col
            d.rectangle((x + i * stripe, y, x + (i + 1) * stripe, y + CARD_H), fill=c)
        mask = Image.new("L", (CARD_W + 1, CARD_H + 1), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, CARD_W, CARD_H), radius=8, fill=255)
        corner = Image.new("L", mask.size, 255)
        corner.paste(0, (0, 0), mask)
        img.paste(P.PAPER, (x, y), corner)
    else:
        col = P.ROUTE_RGB[card]
        d.rounded_rectangle(box, radius=8, fill=_fade(col) if faded else col)
    d.rounded_rectangle(box, radius=8, outline=P.PANEL_EDGE if faded else P.SPACE_EDGE, width=2)
    # the count in a white disc, and the colour-blind letter in the corner
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    r = 19
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255) if not faded else P.PAPER,
              outline=P.INK if not faded else P.PANEL_EDGE, width=2)
    d.text((cx, cy), str(n), font=count_f, fill=P.INK if not faded else P.INK_SOFT, anchor="mm")
    ink = P.ROUTE_INK[card] if not faded else P.INK_SOFT
    d.text((x + 7, y + 5), P.ROUTE_LETTER[card], font=letter_f, fill=ink)


def _fade(c: P.RGB) -> P.RGB:
    paper = P.PAPER
    return (round(c[0] + (paper[0] - c[0]) * 0.72), round(c[1] + (paper[1] - c[1]) * 0.72),
            round(c[2] + (paper[2] - c[2]) * 0.72))


def _draw_ticket_row(d: ImageDraw.ImageDraw, game_map: GameMap, t: TicketStatus, at: tuple[int, int], body_f: Any,
                     small_f: Any, colours: dict[str, P.RGB], open_index: int) -> None:
    x, y = at
    cy = y + 12
    if t.completed:
        d.ellipse((x, cy - 10, x + 20, cy + 10), fill=P.GOOD)
        d.line([(x + 5, cy), (x + 9, cy + 5), (x + 15, cy - 5)], fill=(255, 255, 255), width=3, joint="curve")
    elif t.trains_left is None:
        d.ellipse((x, cy - 10, x + 20, cy + 10), fill=P.BAD)
        d.line([(x + 6, cy - 4), (x + 14, cy + 4)], fill=(255, 255, 255), width=3)
        d.line([(x + 6, cy + 4), (x + 14, cy - 4)], fill=(255, 255, 255), width=3)
    else:
        colour = P.PATH_COLOURS[open_index % len(P.PATH_COLOURS)]
        colours[t.ticket_id] = colour
        d.ellipse((x, cy - 10, x + 20, cy + 10), outline=colour, width=4)
    name = f"{game_map.city_label(t.a)} – {game_map.city_label(t.b)}"
    d.text((x + 30, cy), fit_text(name, body_f, 300), font=body_f, fill=P.INK, anchor="lm")
    d.text((x + 370, cy), f"{t.points} pts", font=body_f, fill=P.INK, anchor="rm")
    if t.completed:
        note, ink = "completed", P.GOOD
    elif t.trains_left is None:
        note, ink = "cannot be completed", P.BAD
    else:
        note, ink = f"{t.trains_left} train{'s' if t.trains_left != 1 else ''} to go", colours[t.ticket_id]
    d.text((x + LEFT_W, cy), note, font=small_f, fill=ink, anchor="rm")


def _draw_mini(img: Image.Image, base: BoardBase, view: View, seat: int, statuses: list[TicketStatus],
               colours: dict[str, P.RGB]) -> None:
    """The small map: everyone's routes (others greyed), then each open ticket's way."""
    geom = base.geom
    k = base.layout.dims.k
    d = ImageDraw.Draw(img)
    owners = view.route_owner
    for rid, who in owners.items():
        if rid not in geom.routes:
            continue
        if int(who) == seat:
            paste_route(img, base, rid, seat)
        else:
            for sp in geom.routes[rid].spaces:  # others' routes: taken, in a quiet grey
                d.polygon(rounded_rect(sp.center, sp.u, sp.length / 2, sp.width / 2 + 0.5, 1), fill=(128, 128, 132))
    width = max(4, round(12 * k))
    for t in reversed(statuses):
        colour = colours.get(t.ticket_id)
        if colour is None:
            continue
        for rid in t.path:
            if rid in geom.routes and owners.get(rid) is None:
                track = list(geom.routes[rid].track)
                d.line(track, fill=(255, 255, 255), width=width + 4, joint="curve")
                d.line(track, fill=colour, width=width, joint="curve")
    cities: dict[str, P.RGB] = {}
    for t in statuses:
        colour = colours.get(t.ticket_id, P.GOOD if t.completed else P.BAD)
        for c in (t.a, t.b):
            cities.setdefault(c, colour)
    for c, colour in cities.items():
        cg = geom.cities.get(c)
        if cg is None:
            continue
        x, y = cg.center
        r = max(6.0, cg.radius * 1.9)
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(2, round(3 * k + 1)))
    for lab in mini_labels(base, frozenset(cities)):
        draw_label(d, lab, k)
