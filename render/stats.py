"""The `/ttr results stats` picture: one player's record on a server — games, wins, average and best
score, ticket completion, a rating when there is one, favourite routes and cities, and games
per variant. It reads a `StatsCard` (plain text and numbers the bot prepared from finished
games' results: nothing secret), and is legible at Discord's 550-pixel preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import palette as P
from render.encode import png_bytes
from render.text import TextItem, Writer, fit_text, font, preview_px
from render.words import tr, tr_n

WIDTH = 1100


@dataclass(frozen=True)
class StatsCard:
    """What the stats picture shows. `rating` is (value, label, detail) when the ratings part
    of the bot gives one; `routes` and `cities` are (name, games) most frequent first;
    `variants` (title, games, wins)."""

    name: str
    games: int
    wins: int
    average: float
    best: int | None
    tickets_done: int
    tickets_failed: int
    routes: Sequence[tuple[str, int]] = ()
    cities: Sequence[tuple[str, int]] = ()
    variants: Sequence[tuple[str, int, int]] = ()
    rating: tuple[str, str, str] | None = None
    where: str = "on this server"  # whose games these are: one server's, or (a DM) all of the player's


@dataclass(frozen=True)
class StatsPicture:
    png: bytes
    image: Image.Image
    texts: tuple[TextItem, ...]


def render_stats(card: StatsCard, *, width: int = WIDTH) -> StatsPicture:
    """The stats picture of one player (see the module's docstring)."""
    t = preview_px(width)
    pad = round(t * 1.0)
    row = round(t * 1.55)
    lists = max(len(card.routes), len(card.cities), 1)
    detail = card.rating[2] if card.rating is not None else ""
    height = (pad * 2 + round(t * 2.2) + round(t * 4.6) + row * (lists + 1) + round(t * 1.2) + row * 2
              + (row if detail else 0))
    img = Image.new("RGB", (width, height), P.PANEL)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width - 1, height - 1), outline=P.PANEL_EDGE, width=3)
    w = Writer(d, "stats", img)
    big, bold, body = font(round(t * 1.8), "bold"), font(t, "bold"), font(t, "regular")
    x, y = pad, pad
    head = tr_n("picture.stats.finished", card.games, "{n} finished game {where}", "{n} finished games {where}",
                where=card.where)
    nb = w.text((x, y), fit_text(card.name, big, width * 0.55), big, P.INK)
    w.text((nb[2] + t, y + round(t * 0.6)), fit_text(head, body, width - nb[2] - t - pad), body, P.INK_SOFT)
    y += round(t * 2.6)
    # the tiles: one number each, its name under it
    done, failed = card.tickets_done, card.tickets_failed
    share = f"{round(100 * done / (done + failed))}%" if done + failed else "—"
    wins = tr("picture.stats.wins", "wins")
    tiles = [(str(card.games), tr("picture.stats.games", "games")),
             (str(card.wins), f"{wins} ({round(100 * card.wins / card.games)}%)" if card.games else wins),
             (f"{card.average:.1f}", tr("picture.stats.average", "average score")),
             ("—" if card.best is None else str(card.best), tr("picture.stats.best", "best score")),
             (share, tr("picture.stats.tickets", "tickets ({done} of {n})", done=done, n=done + failed))]
    if card.rating is not None:
        tiles.append((card.rating[0], card.rating[1]))
    tile_w = (width - 2 * pad) // len(tiles)
    tile_h = round(t * 3.8)
    num_f = font(round(t * 1.9), "bold")
    for i, (number, label) in enumerate(tiles):
        tx = x + i * tile_w
        d.rounded_rectangle((tx + 4, y, tx + tile_w - 4, y + tile_h), radius=round(t * 0.4), fill=(255, 255, 255),
                            outline=P.PANEL_EDGE, width=2)
        cx = tx + tile_w // 2
        w.text((cx, y + round(t * 0.35)), fit_text(number, num_f, tile_w - t), num_f, P.INK, anchor="ma")
        w.text((cx, y + tile_h - round(t * 0.35)), fit_text(label, body, tile_w - t), body, P.INK_SOFT, anchor="md")
    y += tile_h + round(t * 0.5)
    if detail:
        w.text((x, y), fit_text(f"{card.rating[1] if card.rating else ''}: {detail}", body, width - 2 * pad), body,
               P.INK_SOFT)
        y += row
    y += round(t * 0.3)
    # favourite routes and cities, with bars
    col_w = (width - 2 * pad - t) // 2
    favourites = ((tr("picture.stats.routes", "Favourite routes"), card.routes),
                  (tr("picture.stats.cities", "Favourite cities"), card.cities))
    for c, (title, items) in enumerate(favourites):
        cx = x + c * (col_w + t)
        w.text((cx, y), fit_text(title, bold, col_w), bold, P.INK)
        most = max((n for _, n in items), default=1)
        if not items:
            w.text((cx, y + row), tr("picture.stats.none_yet", "none yet"), body, P.INK_SOFT)
        for j, (label, n) in enumerate(items):
            ry = y + row * (j + 1)
            count = f"×{n}"
            cw = round(body.getlength(count))
            bar_max = col_w * 0.35
            bar = max(4, round(bar_max * n / most))
            bx = cx + col_w - cw - round(t * 0.4) - bar
            d.rounded_rectangle((bx, ry + round(t * 0.2), bx + bar, ry + round(t * 1.05)), radius=3,
                                fill=P.player_style(c).fill)
            w.text((cx + col_w, ry), count, bold, P.INK, anchor="ra")
            w.text((cx, ry), fit_text(label, body, bx - cx - round(t * 0.5)), body, P.INK)
    y += row * (lists + 1) + round(t * 0.6)
    # games per variant
    parts = [f"{title}: " + tr_n("picture.stats.variant_games", g, "{n} game", "{n} games") + ", "
             + tr_n("picture.stats.variant_wins", won, "{n} win", "{n} wins")
             for title, g, won in card.variants]
    line = " · ".join(parts) if parts else tr("picture.stats.no_games", "no finished games yet")
    w.text((x, y), tr("picture.stats.by_variant", "By variant"), bold, P.INK)
    w.text((x, y + row), fit_text(line, body, width - 2 * pad), body, P.INK_SOFT)
    return StatsPicture(png_bytes(img), img, tuple(w.items))
