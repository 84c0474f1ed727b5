"""The private ticket-offer picture: the tickets (and Alsace's tourist cards) a player is offered,
drawn on the map with the letter the choice menu gives each and its points, beside the tickets
they already hold and their own routes.

Read from the player's own view, ``engine.game.view(state, seat)``: its offer
(``view.pending.offer_of(seat)``, lettered by ``view.pending.offer_marks(seat)``, the same
letters as the menu), its tickets and its routes; everyone else's routes only as taken track.
It goes to that player only (a worker job: `render.jobs.offer_png`).

The map is the board picture's own cached base (the one every turn post is drawn on), cropped
to the map and washed towards white once per base, so the offered lines stand out: a thick line
in the ticket's colour between its cities, ringed ends, the city names drawn again on top, and
a tag with its letter and points. A panel (below a landscape map, right of a portrait one)
lists the offer and what the player holds, in text legible at Discord's 550-pixel preview.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.rules.tourist_cards import ATTRACTION, VISITOR_PASS, TouristView
from engine.view import View
from render import palette as P
from render.base_cache import BoardBase, get_base, overlay_colours
from render.board import paste_route
from render.encode import png_bytes
from render.layout import Label
from render.legend import map_title
from render.parts.tickets import status_mark
from render.sprites import mark_mask, rounded_rect
from render.text import PREVIEW_TEXT_PX, PREVIEW_WIDTH, Font, TextItem, Writer, fit_text, font, preview_px
from render.words import tr

# The map's width: a landscape map over the panel, a portrait one beside it. Smaller than the
# board (1600): the offer is read at Discord's preview size, and a picture of half the pixels
# encodes in half the time.
LANDSCAPE_W = 1200
PORTRAIT_W = 880
FADE = 0.5  # how far the map is washed towards white under the offer
OFFER_COLOURS: tuple[P.RGB, ...] = P.PATH_COLOURS
HELD_INK: P.RGB = (70, 70, 78)
TAKEN: P.RGB = (150, 150, 154)  # everyone else's routes: taken track, in a quiet grey
SIDE_PANEL = 23.0  # a portrait map's panel width, in text sizes
ROW = 1.6  # a panel row, in text sizes


@dataclass(frozen=True)
class OfferedCard:
    """One offered card as the picture draws it (and the menu names it)."""

    card: str
    mark: str  # the letter, as in the menu
    words: str  # "Berlin – Paris", "Haut-Kœnigsbourg (Orschwiller)"
    points: int
    cities: tuple[str, ...]  # where it is on the map: a ticket's two cities, an attraction's town
    deck: str  # a ticket's pile ("long", "short", "main") or "tourist"
    colour: P.RGB


@dataclass(frozen=True)
class OfferPicture:
    """The picture (PNG bytes, the RGB image), the cards it drew and its text."""

    png: bytes
    image: Image.Image
    offered: tuple[OfferedCard, ...]
    texts: tuple[TextItem, ...] = ()


def tourist_info(game_map: GameMap) -> dict[str, Mapping[str, Any]]:
    """The map's tourist cards by id (Alsace; empty elsewhere)."""
    return {c["id"]: c for c in game_map.extras.get("tourist_cards", ())}


def _card(game_map: GameMap, info: Mapping[str, Mapping[str, Any]], card: str, mark: str, colour: P.RGB
          ) -> OfferedCard | None:
    t = game_map.tickets.get(card)
    if t is not None:
        return OfferedCard(card, mark, f"{game_map.city_label(t.a)} – {game_map.city_label(t.b)}", t.points,
                           (t.a, t.b), t.deck, colour)
    c = info.get(card)
    if c is None:  # not a ticket nor a tourist card (a Lucky Devil): nothing to place
        return None
    if c["kind"] == VISITOR_PASS:
        where = tr("picture.tourist.pass_where", "any attraction town")
        words = f'{tr("picture.tourist.pass", "Visitor Pass")} ({where})'
        return OfferedCard(card, mark, words, int(c["points"]), (), "tourist", colour)
    if c["kind"] == ATTRACTION:
        city = str(c["city"])
        return OfferedCard(card, mark, f"{c['name']} ({game_map.city_label(city)})", int(c["points"]),
                           (city,) if city in game_map.cities else (), "tourist", colour)
    return None


def offered_cards(view: View, game_map: GameMap) -> list[OfferedCard]:
    """The cards offered to the view's player, lettered as the menu letters them."""
    marks = view.pending.offer_marks(view.you)
    info = tourist_info(game_map)
    out: list[OfferedCard] = []
    for card, mark in marks.items():
        got = _card(game_map, info, card, mark, OFFER_COLOURS[len(out) % len(OFFER_COLOURS)])
        if got is not None:
            out.append(got)
    return out


@dataclass(frozen=True)
class _Held:
    words: str
    points: int
    cities: tuple[str, ...]
    done: bool


def _held(view: View, game_map: GameMap, seat: int) -> list[_Held]:
    me = view.players[seat]
    out = []
    for tid in me.tickets or ():
        t = game_map.tickets.get(tid)
        if t is not None:
            out.append(_Held(f"{game_map.city_label(t.a)} – {game_map.city_label(t.b)}", t.points, (t.a, t.b),
                             tid in me.completed))
    part = view.part(TouristView)
    if part is not None and part.mine:
        info = tourist_info(game_map)
        for cid in part.mine:
            got = _card(game_map, info, cid, "", HELD_INK)
            if got is not None:
                out.append(_Held(got.words, got.points, got.cities, cid in part.completed))
    return out


def offer_base(game_map: GameMap) -> BoardBase:
    """The map the offer is drawn on: every city named, no legend (render workers build it
    when they prepare a map)."""
    return get_base(game_map, LANDSCAPE_W if game_map.width >= game_map.height else PORTRAIT_W, legend=False)


def prepare_offer(game_map: GameMap) -> None:
    """Build the offer's base and its washed map now rather than at the map's first offer."""
    _washed(offer_base(game_map))


# --- the washed map, once per base ----------------------------------------------------------------

_LOCK = threading.Lock()


def _washed(base: BoardBase) -> tuple[Image.Image, Image.Image]:
    """The base's map, cropped and washed towards white, and a palette holding it and every
    colour drawn over it (kept with the base)."""
    with _LOCK:
        got = base.extra.get("offer_map")
        if got is None:
            x0, y0, x1, y1 = base.layout.map_box
            crop = base.image.crop((x0, y0, x1, y1))
            washed = Image.blend(crop, Image.new("RGB", crop.size, (255, 255, 255)), FADE)
            got = base.extra["offer_map"] = (washed, _palette(washed))
        return got


def _palette(image: Image.Image) -> Image.Image:
    def mix(a: P.RGB, b: P.RGB, t: float) -> P.RGB:
        return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))

    extra = overlay_colours() + [TAKEN, HELD_INK]
    for c in OFFER_COLOURS:
        extra += [c, mix(c, (255, 255, 255), 0.5), mix(c, P.PANEL, 0.5)]
    n_base = 256 - len(extra)
    q = image.quantize(colors=n_base, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    flat: list[int] = list((q.getpalette() or [])[: n_base * 3])
    flat += [0] * (n_base * 3 - len(flat))
    for c in extra:
        flat += list(c)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat[:768])
    return pal


def _taken(base: BoardBase, route_id: str) -> list[list[tuple[float, float]]]:
    key = ("offer_taken", route_id)
    spaces = base.extra.get(key)
    if spaces is None:
        spaces = base.extra[key] = [rounded_rect(sp.center, sp.u, sp.length / 2, sp.width / 2, 2)
                                    for sp in base.geom.routes[route_id].spaces]
    return spaces


# --- the picture ----------------------------------------------------------------------------------


def render_offer(view: View, game_map: GameMap | None = None, seat: int | None = None) -> OfferPicture:
    """The private picture of the tickets offered to the view's player (``view.you``, or
    `seat`); see the module's docstring."""
    game_map = game_map or load_map(view.map_id)
    seat = view.you if seat is None else seat
    if seat is None:
        raise ValueError("an offer picture needs a player's own view (engine.game.view(state, seat))")
    base = offer_base(game_map)
    washed, palette = _washed(base)
    offered = offered_cards(view, game_map)
    held = _held(view, game_map, int(seat))
    mw, mh = washed.size
    side = game_map.width < game_map.height
    # text legible at the preview of the whole picture (a side panel's width is counted in text)
    t = preview_px(mw / (1 - SIDE_PANEL * PREVIEW_TEXT_PX / PREVIEW_WIDTH) if side else mw)
    panel = _Panel(view, game_map, int(seat), offered, held, t)
    # A crop larger than the map copies it and adds the panel's room (filled below) in one step,
    # cheaper than a new picture the whole size and a paste (and keeps no second picture).
    if side:
        pw = round(t * SIDE_PANEL)
        img = washed.crop((0, 0, mw + pw, max(mh, panel.height(pw, True))))
        box = (mw, 0, mw + pw, img.height)
        if img.height > mh:
            img.paste(P.PANEL, (0, mh, mw, img.height))
    else:
        img = washed.crop((0, 0, mw, mh + panel.height(mw, False)))
        box = (0, mh, mw, img.height)
    _draw_map(img, base, view, int(seat), offered, held, t)
    texts = panel.draw(img, box, side)
    return OfferPicture(png_bytes(img, palette), img, tuple(offered), tuple(texts))


def _draw_map(img: Image.Image, base: BoardBase, view: View, seat: int, offered: list[OfferedCard],
              held: list[_Held], t: int) -> None:
    """Routes (own as trains, others' as grey track), held tickets as thin lines, the offer as
    thick coloured lines with ringed ends, the names of their cities again, and the tags."""
    geom = base.geom
    k = base.layout.dims.k
    d = ImageDraw.Draw(img)
    for rid, who in view.route_owner.items():
        if rid in geom.routes and int(who) != seat:
            for points in _taken(base, rid):
                d.polygon(points, fill=TAKEN)
    for rid, who in view.route_owner.items():
        if rid in geom.routes and int(who) == seat:
            paste_route(img, base, rid, seat)

    def centre(city: str) -> tuple[float, float] | None:
        cg = geom.cities.get(city)
        return cg.center if cg is not None else None

    thin = max(3, round(4 * k))
    for h in held:
        ends = [c for c in (centre(x) for x in h.cities) if c is not None]
        ink = P.GOOD if h.done else HELD_INK
        if len(ends) == 2:
            d.line(ends, fill=(255, 255, 255), width=thin + 4)
            d.line(ends, fill=ink, width=thin)
        for x, y in ends:
            r = max(6.0, 9 * k)
            d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=thin)
    thick = max(5, round(9 * k))
    for card in reversed(offered):  # the first offered on top
        ends = [c for c in (centre(x) for x in card.cities) if c is not None]
        if len(ends) == 2:
            d.line(ends, fill=(255, 255, 255), width=thick + 6)
            d.line(ends, fill=card.colour, width=thick)
    for card in offered:
        for x, y in (c for c in (centre(x) for x in card.cities) if c is not None):
            r = max(8.0, 14 * k)
            d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=(255, 255, 255), width=thick // 2 + 4)
            d.ellipse((x - r, y - r, x + r, y + r), outline=card.colour, width=thick // 2 + 1)
    named = {c for card in offered for c in card.cities} | {c for h in held for c in h.cities}
    for lab in base.labels:
        if lab.kind in ("city", "country") and lab.owner in named:
            _paste_label(img, base, lab)
    _draw_tags(img, base, offered, t, [lab.box for lab in base.labels if lab.owner in named])


def _paste_label(img: Image.Image, base: BoardBase, lab: Label) -> None:
    """A ticket city's name as the unwashed board has it (its halo and ink at full strength),
    over the lines: a crop of the base, kept with it (labels stand clear of every route)."""
    key = ("offer_label", lab.owner)
    got = base.extra.get(key)
    if got is None:
        x0, y0, x1, y1 = (math.floor(lab.box[0]), math.floor(lab.box[1]), math.ceil(lab.box[2]),
                          math.ceil(lab.box[3]))
        got = base.extra[key] = ((x0, y0), base.image.crop((x0, y0, x1, y1)))
    img.paste(got[1], got[0])


def _draw_tags(img: Image.Image, base: BoardBase, offered: list[OfferedCard], t: int,
               names: list[tuple[float, float, float, float]]) -> None:
    """A tag on each offered line (an attraction: beside its town) with the card's letter and
    points, placed where it covers no other tag, no end of an offered line and none of the
    `names` (the ticket cities' labels)."""
    d = ImageDraw.Draw(img)
    geom = base.geom
    bold = font(t, "bold")
    pad = round(t * 0.3)
    placed: list[tuple[float, float, float, float]] = []
    ends = [geom.cities[c].center for card in offered for c in card.cities if c in geom.cities]
    r_end = t * 0.9
    w_img, h_img = base.layout.map_box[2], base.layout.map_box[3]
    for card in offered:
        spots = [geom.cities[c].center for c in card.cities if c in geom.cities]
        if not spots:
            continue
        label = f"{card.mark} {card.points}"
        tw = bold.getlength(label)
        bw, bh = tw + 2 * pad + 4, t * 1.25
        if len(spots) == 2:
            (ax, ay), (bx, by) = spots
            tries = [(ax + (bx - ax) * f, ay + (by - ay) * f) for f in (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78)]
        else:
            (x, y) = spots[0]
            step = t * 1.4
            tries = [(x + dx * step, y + dy * step) for dx, dy in ((1.6, -1), (-1.6, -1), (1.6, 1), (-1.6, 1),
                                                                   (0, -1.4), (0, 1.4))]

        boxes = []
        for cx, cy in tries:  # each spot's box, kept inside the map
            bx0 = min(max(2.0, cx - bw / 2), w_img - bw - 2)
            by0 = min(max(2.0, cy - bh / 2), h_img - bh - 2)
            boxes.append((bx0, by0, bx0 + bw, by0 + bh))
        # the first spot that covers least: other tags most, then the names, then the ends
        best = min(boxes, key=lambda b: 4 * sum(_overlap(b, p) for p in placed)
                   + 2 * sum(_overlap(b, n) for n in names)
                   + sum(_overlap(b, (ex - r_end, ey - r_end, ex + r_end, ey + r_end)) for ex, ey in ends))
        placed.append(best)
        x0, y0, x1, y1 = best
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=round(t * 0.35), fill=(255, 255, 255))
        d.rounded_rectangle(best, radius=round(t * 0.3), fill=card.colour)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=bold, fill=(255, 255, 255), anchor="mm")


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class _Panel:
    """The panel's text: a title, the offer (letter, cities, pile, points), what the player
    holds (✓ completed or open), and a line saying what the map shows."""

    def __init__(self, view: View, game_map: GameMap, seat: int, offered: list[OfferedCard], held: list[_Held],
                 t: int) -> None:
        self.view, self.game_map, self.seat = view, game_map, seat
        self.offered, self.held, self.t = offered, held, t
        self.title_f, self.head_f = font(round(t * 1.3), "bold"), font(round(t * 1.1), "bold")
        self.bold, self.body = font(t, "bold"), font(t, "regular")
        self.row = round(t * ROW)
        self.piles = len({c.deck for c in offered if c.deck != "tourist"}) > 1 or any(
            t.deck != "main" for t in game_map.tickets.values())

    def _held_cols(self, width: int, side: bool) -> int:
        if side:
            return 1
        rows = max(len(self.offered), 4)
        return 1 if len(self.held) <= rows else 2

    def height(self, width: int, side: bool) -> int:
        t, row = self.t, self.row
        top = round(t * 0.8) + round(t * 2.0)
        held_rows = max(1, len(self.held))
        if side:
            body = round(t * 1.8) + len(self.offered) * row + round(t * 0.8) + round(t * 1.8) + held_rows * row
        else:
            cols = self._held_cols(width, side)
            body = round(t * 1.8) + max(len(self.offered), -(-held_rows // cols)) * row
        notes = self.notes(side, width - 2 * round(t * 0.8))
        return top + body + round(t * 0.6) + len(notes) * round(t * 1.4) + round(t * 0.6)

    def notes(self, side: bool, room: float) -> list[str]:
        """What the map shows: one line under a landscape map (one a kind when a translation
        is too long for one line), one a kind beside a portrait one."""
        parts = [tr("picture.offer.note_offered", "Coloured: offered, lettered as in the menu"),
                 tr("picture.offer.note_yours", "dark: your tickets (green: completed)"),
                 tr("picture.offer.note_trains", "trains: your routes; grey: taken")]
        line = " · ".join(parts)
        if not side and self.body.getlength(line) <= room:
            return [line]
        return [out for part in parts for out in _wrap_words(part, self.body, room)]

    def draw(self, img: Image.Image, box: tuple[int, int, int, int], side: bool) -> list[TextItem]:
        d = ImageDraw.Draw(img)
        w = Writer(d, "offer", img)
        x0, y0, x1, y1 = box
        d.rectangle(box, fill=P.PANEL)
        d.line([(x0, y0), (x1, y0)] if not side else [(x0, y0), (x0, y1)], fill=P.PANEL_EDGE, width=2)
        t = self.t
        pad = round(t * 0.8)
        x, y = x0 + pad, y0 + pad
        inner = x1 - x0 - 2 * pad
        style = P.player_style(self.seat)
        sw, sh = round(t * 1.9), round(t * 1.2)
        d.rounded_rectangle((x, y, x + sw, y + sh), radius=5, fill=style.fill, outline=style.dark, width=2)
        m = mark_mask(style.mark, round(sh * 0.7))
        img.paste((255, 255, 255), (x + (sw - m.width) // 2, y + (sh - m.height) // 2), m)
        board = map_title(self.game_map)
        bw = self.body.getlength(board)
        w.text((x + sw + round(t * 0.5), y + sh / 2),
               fit_text(self.view.name(self.seat) if side else
                        tr("picture.offer.title", "{name} — tickets offered", name=self.view.name(self.seat)),
                        self.title_f, inner - sw - bw - 2 * t),
               self.title_f, P.INK, anchor="lm")
        w.text((x1 - pad, y + sh / 2), board, self.body, P.INK_SOFT, anchor="rm")
        y += round(t * 2.0)
        if side:
            y = self._offer(w, d, x, y, inner)
            y += round(t * 0.8)
            y = self._holding(w, d, x, y, inner, 1)
        else:
            gap = round(t * 1.5)
            left = round(inner * 0.52)
            yo = self._offer(w, d, x, y, left - gap)
            yh = self._holding(w, d, x + left, y, inner - left, self._held_cols(inner, side))
            y = max(yo, yh)
        y += round(t * 0.6)
        for note in self.notes(side, inner):
            w.text((x, y), fit_text(note, self.body, inner), self.body, P.INK_SOFT)
            y += round(t * 1.4)
        return w.items

    def _offer(self, w: Writer, d: ImageDraw.ImageDraw, x: int, y: int, width: int) -> int:
        t = self.t
        w.text((x, y), fit_text(tr("picture.offer.offered", "Tickets offered now"), self.head_f, width), self.head_f,
               P.INK)
        y += round(t * 1.8)
        pts_w = self.bold.getlength("00")
        pile_w = max((self.body.getlength(_pile(c.deck)) for c in self.offered), default=0) if self.piles else 0
        for card in self.offered:
            cy = y + self.row / 2
            r = round(t * 0.62)
            d.ellipse((x, cy - r, x + 2 * r, cy + r), fill=card.colour)
            d.text((x + r, cy), card.mark, font=self.bold, fill=(255, 255, 255), anchor="mm")
            tx = x + 2 * r + round(t * 0.45)
            right = x + width
            w.text((right, cy), str(card.points), self.bold, P.INK, anchor="rm")
            room_end = right - pts_w - round(t * 0.5)
            if self.piles:
                w.text((room_end, cy), _pile(card.deck), self.body, P.INK_SOFT, anchor="rm")
                room_end -= round(pile_w + t * 0.5)
            w.text((tx, cy), fit_text(card.words, self.body, room_end - tx), self.body, P.INK, anchor="lm")
            y += self.row
        return y

    def _holding(self, w: Writer, d: ImageDraw.ImageDraw, x: int, y: int, width: int, cols: int) -> int:
        t = self.t
        done = sum(1 for h in self.held if h.done)
        head = tr("picture.offer.yours", "Already yours")
        w.text((x, y), head, self.head_f, P.INK)
        if self.held:
            note = tr("picture.hand.completed_of", "{done} of {n} completed", done=done, n=len(self.held))
            room = width - self.head_f.getlength(head) - t
            w.text((x + width, y + 2), fit_text(note, self.body, room), self.body, P.INK_SOFT, anchor="ra")
        y += round(t * 1.8)
        if not self.held:
            w.text((x, y + (self.row - t) / 2), tr("picture.hand.no_tickets", "No tickets yet."), self.body, P.INK_SOFT)
            return y + self.row
        per_col = -(-len(self.held) // cols)
        col_w = (width - round(t * 0.8) * (cols - 1)) // cols
        r = round(t * 0.45)
        for i, h in enumerate(self.held):
            cx = x + (i // per_col) * (col_w + round(t * 0.8))
            cy = y + (i % per_col) * self.row + self.row / 2
            status_mark(d, (cx + r, cy), r, h.done, False, HELD_INK)
            right = cx + col_w
            w.text((right, cy), str(h.points), self.bold, P.INK, anchor="rm")
            tx = cx + 2 * r + round(t * 0.45)
            room = right - self.bold.getlength("00") - round(t * 0.4) - tx
            w.text((tx, cy), fit_text(h.words, self.body, room), self.body, P.INK, anchor="lm")
        return y + per_col * self.row


def _pile(deck: str) -> str:
    """A ticket's pile as the offer names it ("long", "short"), in the picture's language."""
    return tr(f"picture.pile.{deck}", deck)


def _wrap_words(text: str, fnt: Font, room: float) -> list[str]:
    """A note on as many lines as it needs in `room` (a longer translation), words never cut."""
    lines: list[str] = []
    for word in text.split():
        if lines and fnt.getlength(lines[-1] + " " + word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
