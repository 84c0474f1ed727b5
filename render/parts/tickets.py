"""Destination tickets (and Alsace's tourist cards): a count in each legend cell; in the hand,
each ticket completed or open (with the trains still to place, and its way on the small map),
and each tourist card with its attraction, town, value and whether it is visited yet."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from engine.maps import GameMap
from engine.paths import shortest_open_path
from engine.rules.tourist_cards import ATTRACTION, VISITOR_PASS, TouristCards, TouristView
from engine.view import View
from render import palette as P
from render.icons import paste_icon
from render.parts.base import Badge, HandBlock, HandContext, PicturePart, register
from render.paste import paste_shape, shape_mask
from render.text import fit_text
from render.words import tr, tr_n

if TYPE_CHECKING:
    from render.base_cache import BoardBase


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
    (``engine.paths.shortest_open_path``: fewest trains still to place)."""
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


def _ticket_badge(view: View, seat: int) -> Badge:
    n = view.players[seat].ticket_count
    return Badge("tickets", n, tr_n("picture.badge.tickets", n, "{n} ticket", "{n} tickets"))


@register("tickets")
class Tickets(PicturePart):
    """Destination tickets."""

    def badges(self, view: View, seat: int) -> list[Badge]:
        return [_ticket_badge(view, seat)]

    def hand_blocks(self, ctx: HandContext) -> list[HandBlock]:
        return [TicketList(ctx)]

    def mini_overlay(self, ctx: HandContext, img: Image.Image, base: BoardBase) -> list[tuple[str, P.RGB]]:
        return draw_ticket_ways(ctx, img, base)


@register("tickets", TouristCards)
class TicketsAndTourist(Tickets):
    """Alsace: tickets and tourist cards, dealt and kept together."""

    def badges(self, view: View, seat: int) -> list[Badge]:
        part = view.part(TouristView)
        n = part.counts[seat] if part is not None and seat < len(part.counts) else 0
        return [_ticket_badge(view, seat), Badge("tourist", n, tr_n("picture.badge.tourist", n, "{n} tourist card",
                                                                      "{n} tourist cards"))]

    def hand_blocks(self, ctx: HandContext) -> list[HandBlock]:
        part = ctx.view.part(TouristView)
        blocks: list[HandBlock] = [TicketList(ctx)]
        if part is not None and part.mine is not None:
            blocks.append(TouristList(ctx, part))
        return blocks

    def mini_overlay(self, ctx: HandContext, img: Image.Image, base: BoardBase) -> list[tuple[str, P.RGB]]:
        rings = draw_ticket_ways(ctx, img, base)
        part = ctx.view.part(TouristView)
        if part is None or not part.mine:
            return rings
        info = tourist_info(ctx.game_map)
        size = max(10, round(base.layout.dims.city_r * 2.6))
        for card_id in part.mine:
            card = info.get(card_id)
            if card is None or card["kind"] != ATTRACTION:
                continue
            cg = base.geom.cities.get(card["city"])
            if cg is None:
                continue
            x, y = cg.center
            paste_icon(img, "tourist", (x + cg.radius + 1, y - size - 1), size)
            rings.append((card["city"], P.GOOD if card_id in part.completed else TOURIST_INK))
        return rings


TOURIST_INK: P.RGB = (20, 110, 170)


def tourist_info(game_map: GameMap) -> dict[str, Mapping[str, Any]]:
    """The map's tourist cards by id."""
    return {c["id"]: c for c in game_map.extras.get("tourist_cards", ())}


class TicketList(HandBlock):
    """Each ticket: a ✓, a coloured ring (its way on the small map) or a ✗; the two cities; the
    points; and "completed", "N trains to go" or "cannot be completed"."""

    title = "Tickets"

    def __init__(self, ctx: HandContext) -> None:
        statuses = ctx.shared.get("statuses")
        if statuses is None:
            statuses = ctx.shared["statuses"] = ticket_statuses(ctx.view, ctx.game_map, ctx.seat)
        self.statuses: list[TicketStatus] = statuses
        colours: dict[str, P.RGB] = ctx.shared.setdefault("ticket_colours", {})
        i = 0
        for t in statuses:
            if not t.completed and t.trains_left is not None:
                colours[t.ticket_id] = P.PATH_COLOURS[i % len(P.PATH_COLOURS)]
                i += 1
        self.colours = colours
        done = sum(1 for t in statuses if t.completed)
        self.title = tr("picture.hand.tickets", "Tickets")
        self.note = tr("picture.hand.completed_of", "{done} of {n} completed", done=done, n=len(statuses))

    def row_h(self, ctx: HandContext) -> int:
        return round(ctx.text_px * 1.75)

    def height(self, ctx: HandContext, width: int) -> int:
        return max(1, len(self.statuses)) * self.row_h(ctx)

    def draw(self, ctx: HandContext, x: int, y: int, width: int) -> None:
        d = ImageDraw.Draw(ctx.img)
        w = ctx.writer
        if not self.statuses:
            w.text((x, y), tr("picture.hand.no_tickets", "No tickets yet."), ctx.body, P.INK_SOFT)
            return
        r = round(ctx.text_px * 0.55)
        note_w = round(max(ctx.body.getlength(self._note(t)[0]) for t in self.statuses))
        pts_right = x + width - note_w - round(ctx.text_px * 0.8)
        for t in self.statuses:
            cy = y + self.row_h(ctx) / 2
            status_mark(d, (x + r, cy), r, t.completed, t.trains_left is None, self.colours.get(t.ticket_id))
            name = f"{ctx.game_map.city_label(t.a)} – {ctx.game_map.city_label(t.b)}"
            pts = f"{t.points}"
            pts_w = ctx.bold.getlength("00")
            w.text((x + 2 * r + 10, cy), fit_text(name, ctx.body, pts_right - pts_w - (x + 2 * r + 22)), ctx.body,
                   P.INK, anchor="lm")
            w.text((pts_right, cy), pts, ctx.bold, P.INK, anchor="rm")
            note, ink = self._note(t)
            w.text((x + width, cy), note, ctx.body, ink, anchor="rm")
            y += self.row_h(ctx)

    def _note(self, t: TicketStatus) -> tuple[str, P.RGB]:
        if t.completed:
            return tr("picture.ticket.completed", "completed"), P.GOOD
        if t.trains_left is None:
            return tr("picture.ticket.impossible", "cannot be completed"), P.BAD
        return (tr_n("picture.ticket.trains_to_go", t.trains_left, "{n} train to go", "{n} trains to go"),
                self.colours[t.ticket_id])


class TouristList(HandBlock):
    """Each tourist card held: the attraction (or Visitor Pass), its town, its value, and
    whether it is visited (an end of one of the player's routes) or not yet."""

    title = "Tourist cards"

    def __init__(self, ctx: HandContext, part: TouristView) -> None:
        info = tourist_info(ctx.game_map)
        self.cards = [info[c] for c in (part.mine or ()) if c in info]
        self.completed = part.completed
        done = sum(1 for c in self.cards if c["id"] in self.completed)
        self.title = tr("picture.hand.tourist", "Tourist cards")
        self.note = tr("picture.hand.visited_of", "{done} of {n} visited", done=done, n=len(self.cards))

    def row_h(self, ctx: HandContext) -> int:
        return round(ctx.text_px * 2.9)

    def height(self, ctx: HandContext, width: int) -> int:
        return max(1, len(self.cards)) * self.row_h(ctx)

    def draw(self, ctx: HandContext, x: int, y: int, width: int) -> None:
        d = ImageDraw.Draw(ctx.img)
        w = ctx.writer
        if not self.cards:
            w.text((x, y), tr("picture.hand.no_tourist", "No tourist cards yet."), ctx.body, P.INK_SOFT)
            return
        r = round(ctx.text_px * 0.55)
        visited, not_yet = tr("picture.tourist.visited", "visited"), tr("picture.tourist.not_yet", "not visited yet")
        note_w = round(max(ctx.body.getlength(visited), ctx.body.getlength(not_yet)))
        pts_right = x + width - note_w - round(ctx.text_px * 0.8)
        line = round(ctx.text_px * 1.3)
        for card in self.cards:
            done = card["id"] in self.completed
            top = y + round(ctx.text_px * 0.2)
            cy = top + line / 2
            status_mark(d, (x + r, cy), r, done, False, TOURIST_INK)
            tx = x + 2 * r + 10
            if card["kind"] == VISITOR_PASS:
                name = tr("picture.tourist.pass", "Visitor Pass")
                where = tr("picture.tourist.pass_where", "any attraction town")
            else:
                name, where = str(card["name"]), ctx.game_map.city_label(str(card["city"]))
            room = pts_right - ctx.bold.getlength("00") - tx - 12
            w.text((tx, cy), fit_text(name, ctx.bold, room), ctx.bold, P.INK, anchor="lm")
            w.text((tx, cy + line), fit_text(where, ctx.body, room), ctx.body, P.INK_SOFT, anchor="lm")
            w.text((pts_right, cy), f"{card['points']}", ctx.bold, P.INK, anchor="rm")
            note, ink = (visited, P.GOOD) if done else (not_yet, TOURIST_INK)
            w.text((x + width, cy), note, ctx.body, ink, anchor="rm")
            y += self.row_h(ctx)


def status_mark(d: ImageDraw.ImageDraw, c: tuple[float, float], r: int, done: bool, lost: bool,
                colour: P.RGB | None) -> None:
    """A green ✓ disc, a red ✗ disc, or an open ring in the item's colour."""
    x, y = c
    lw = max(2, round(r * 0.3))
    if done:
        d.ellipse((x - r, y - r, x + r, y + r), fill=P.GOOD)
        d.line([(x - r * 0.5, y), (x - r * 0.1, y + r * 0.45), (x + r * 0.5, y - r * 0.45)], fill=(255, 255, 255),
               width=lw, joint="curve")
    elif lost:
        d.ellipse((x - r, y - r, x + r, y + r), fill=P.BAD)
        d.line([(x - r * 0.4, y - r * 0.4), (x + r * 0.4, y + r * 0.4)], fill=(255, 255, 255), width=lw)
        d.line([(x - r * 0.4, y + r * 0.4), (x + r * 0.4, y - r * 0.4)], fill=(255, 255, 255), width=lw)
    else:
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour or P.INK_SOFT, width=lw + 1)


def _way(track: list[tuple[float, float]], width: int) -> Callable[[ImageDraw.ImageDraw], None]:
    def draw(d: ImageDraw.ImageDraw) -> None:
        d.line(track, fill=255, width=width, joint="curve")
    return draw


def draw_ticket_ways(ctx: HandContext, img: Image.Image, base: BoardBase) -> list[tuple[str, P.RGB]]:
    """The way to finish each open ticket on the small map; returns the tickets' cities with
    the colour to ring them in."""
    statuses: list[TicketStatus] = ctx.shared.get("statuses") or []
    colours: dict[str, P.RGB] = ctx.shared.get("ticket_colours") or {}
    geom = base.geom
    k = base.layout.dims.k
    owners = ctx.view.route_owner
    width = max(4, round(12 * k))
    cache = base.extra.setdefault("way_masks", {})
    for t in reversed(statuses):
        colour = colours.get(t.ticket_id)
        if colour is None:
            continue
        for rid in t.path:
            if rid in geom.routes and owners.get(rid) is None:
                # a white edge, then the way's colour: each route's two lines rasterized once
                # per small map (ImageDraw's curved joints cost more than the pastes)
                track = list(geom.routes[rid].track)
                for w, ink in ((width + 4, (255, 255, 255)), (width, colour)):
                    paste_shape(img, ink, shape_mask(cache, (rid, w, img.size), img.size, _way(track, w)))
    rings: list[tuple[str, P.RGB]] = []
    for t in statuses:
        colour = colours.get(t.ticket_id, P.GOOD if t.completed else P.BAD)
        for c in (t.a, t.b):
            rings.append((c, colour))
    return rings
