"""The board's legend: whose turn it is (and the dice they rolled), one cell per player (colour
and mark, name, score, trains, and what each rule module adds: cards, tickets, tourist cards,
stations, route tokens, passengers), and the key of the map's symbols.

Everything here is read at Discord's preview size: the text is at least `preview_px(width)`
pixels (9 pixels when the picture is shown 550 wide). `legend_boxes` places the boxes; the
frame and the key are drawn once into the cached base, the rest on every render.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap
from engine.view import View
from render import palette as P
from render.dirty import Drawn, keep_drawn, mark, touched, tracked
from render.geometry import BoardLayout
from render.icons import die_kind, icon_width, paste_icon
from render.parts.base import Badge, DiceRoll, KeyEntry, PicturePart
from render.paste import paste, rounded_box
from render.space_marks import draw_glow_sample, draw_space_sample
from render.sprites import mark_mask
from render.text import Font, TextItem, Writer, fit_text, font, preview_px
from render.viewdata import scores
from render.words import tr, tr_n

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class LegendBoxes:
    """Where the legend's parts go: the status box, one cell per player, the key (drawn in
    the cached base), and the table's own key entries (`table`, drawn on every render)."""

    text_px: int
    info: Box
    cells: tuple[Box, ...]
    key: Box
    key_rows: int
    key_col_w: int
    table: Box | None = None


def key_entries(game_map: GameMap, parts: Sequence[PicturePart]) -> tuple[KeyEntry, ...]:
    """The key: the symbols the rule modules put on this map, the country border (a map
    feature) and the last-move mark."""
    out: list[KeyEntry] = []
    for part in parts:
        for entry in part.key(game_map):
            entry = KeyEntry(entry.kind, tr(f"picture.key.{entry.kind}", entry.text))
            if entry not in out:
                out.append(entry)
    if any(c.is_country for c in game_map.cities.values()):
        out.append(KeyEntry("country", tr("picture.key.country", "country")))
    out.append(KeyEntry("glow", tr("picture.key.glow", "last move")))
    # The words are part of the key, so of the base's cache key: one base per language.
    return tuple(out)


CLOSED_KEY = KeyEntry("closed", "closed track")


def table_entries(view: View, game_map: GameMap) -> tuple[KeyEntry, ...]:
    """What only some tables of a map show, so not in the map's cached key: a closed track,
    at a table too small for double routes on a map that has them."""
    if len(view.players) < view.doubles_from_players and any(r.parallel_group for r in game_map.routes.values()):
        return (KeyEntry(CLOSED_KEY.kind, tr("picture.key.closed", CLOSED_KEY.text)),)
    return ()


def legend_boxes(layout: BoardLayout, n_players: int, entries: Sequence[KeyEntry],
                 table: Sequence[KeyEntry] = ()) -> LegendBoxes:
    """Place the status box, the players' cells and the key inside the legend; the table's
    own entries go beside the key (a column to its left, or rows above it), where the key's
    own entries stay put: the key is drawn once into the base."""
    t = preview_px(layout.width)
    lx0, ly0, lx1, ly1 = layout.legend_box
    pad = max(4, round(t * 0.25))
    n = max(1, n_players)
    key_f = font(t, "regular")
    sample_w = _key_sample_w(layout)
    row_h = round(t * 1.3)
    col_w = sample_w + round(t * 0.4) + max((round(key_f.getlength(e.text)) for e in entries), default=0)
    table_w = sample_w + round(t * 0.4) + max((round(key_f.getlength(e.text)) for e in table), default=0)
    if layout.legend_side == "bottom":
        inner_h = (ly1 - pad) - (ly0 + pad)
        rows = max(1, inner_h // row_h)
        cols = max(1, math.ceil(len(entries) / rows))
        key_w = cols * col_w + (cols - 1) * pad
        info_w = max(round(t * 8.6), status_width(t))
        info = (lx0 + pad * 2, ly0 + pad, lx0 + pad * 2 + info_w, ly1 - pad)
        keyb = (lx1 - pad * 2 - key_w, ly0 + pad, lx1 - pad * 2, ly1 - pad)
        tableb = (keyb[0] - pad - table_w, keyb[1], keyb[0] - pad, keyb[3]) if table else None
        avail = (tableb or keyb)[0] - info[2] - 2 * pad
        cell = min(avail / n, t * 12.0)
        cells = []
        for i in range(n):
            x0 = info[2] + pad * 2 + round(i * cell)
            cells.append((x0, ly0 + pad, x0 + round(cell) - pad, ly1 - pad))
        return LegendBoxes(t, info, tuple(cells), keyb, rows, col_w, tableb)
    info_h = round(t * 4.3)
    key_h = len(entries) * row_h
    info = (lx0 + pad * 2, ly0 + pad * 2, lx1 - pad * 2, ly0 + pad * 2 + info_h)
    keyb = (lx0 + pad * 2, ly1 - pad * 2 - key_h, lx1 - pad * 2, ly1 - pad * 2)
    tableb = (keyb[0], keyb[1] - len(table) * row_h, keyb[2], keyb[1]) if table else None
    avail = (tableb or keyb)[1] - info[3] - 3 * pad
    cell = min(avail / n, t * 6.5)
    cells = []
    for i in range(n):
        y0 = info[3] + pad * 2 + round(i * cell)
        cells.append((lx0 + pad * 2, y0, lx1 - pad * 2, y0 + round(cell) - pad))
    return LegendBoxes(t, info, tuple(cells), keyb, max(1, len(entries)), col_w, tableb)


def _key_sample_w(layout: BoardLayout) -> int:
    return round(layout.dims.space_w * 3.2 + 8 * layout.dims.k)


# ---------------------------------------------------------------------------------------------
# The key (static: drawn into the base)
# ---------------------------------------------------------------------------------------------


def draw_key(img: Image.Image, layout: BoardLayout, entries: Sequence[KeyEntry]) -> list[TextItem]:
    """The symbol key; returns the text it drew."""
    boxes = legend_boxes(layout, 1, entries)
    w = Writer(ImageDraw.Draw(img), "key", img)
    _key_rows(img, w, layout, entries, boxes.key[:2], boxes.key_rows, boxes.key_col_w)
    return w.items


def _key_rows(img: Image.Image, w: Writer, layout: BoardLayout, entries: Sequence[KeyEntry], at: tuple[int, int],
              rows: int, col_w: int) -> None:
    """Key entries from `at`, a sample and its words each, in columns of `rows`."""
    t = preview_px(layout.width)
    fnt = font(t, "regular")
    row = round(t * 1.3)
    x0, y0 = at
    sample_w = _key_sample_w(layout)
    for i, entry in enumerate(entries):
        col, r = divmod(i, rows)
        x = x0 + col * (col_w + max(4, round(t * 0.25)))
        cy = y0 + r * row + row / 2
        c = (x + sample_w / 2, cy)
        if entry.kind == "glow":
            draw_glow_sample(img, layout, c, sample_w)
        else:
            draw_space_sample(img, layout, entry.kind, c, sample_w)
        w.text((x + sample_w + round(t * 0.4), cy), entry.text, fnt, P.INK, anchor="lm")


# ---------------------------------------------------------------------------------------------
# The game's status and the players (drawn on every render)
# ---------------------------------------------------------------------------------------------


# The status box's fixed words: it is made wide enough for them (player names are cut to fit).
SETUP_STATUS = ("Choosing tickets", "everyone at once")
GAME_OVER = "Game over"
MOST_LAST_TURNS = 5  # a last round has at most one turn per player


def setup_status() -> tuple[str, str]:
    """The status box while everyone chooses tickets, in the picture's language."""
    return (tr("picture.status.choosing", SETUP_STATUS[0]), tr("picture.status.everyone", SETUP_STATUS[1]))


def game_over() -> str:
    return tr("picture.status.game_over", GAME_OVER)


def last_round(left: int) -> tuple[str, ...]:
    """The detail line of the last round, longest first: the longest that fits is drawn."""
    return (tr_n("picture.status.last_round", left, f"Last round: {left} turn left", f"Last round: {left} turns left"),
            tr("picture.status.last_round_short", "Last round: {n} to go", n=left))


def status_width(t: int) -> int:
    """The width the status box needs for its fixed words at text size `t`, each whole
    (a last round in its shortest form)."""
    head_f, body_f = font(t, "bold"), font(t, "regular")
    setup = setup_status()
    return math.ceil(max(head_f.getlength(setup[0]), head_f.getlength(game_over()),
                         body_f.getlength(setup[1]), body_f.getlength(last_round(MOST_LAST_TURNS)[-1])))


def status_lines(view: View) -> tuple[str, tuple[str, ...]]:
    """(headline, detail) for the status box; the detail in one or more wordings, longest
    first (the longest that fits is drawn)."""
    if view.status == "over":
        result = view.result or {}
        winners = [view.name(s) for s in result.get("winners", [])]
        names = " & ".join(winners)
        detail = (tr("picture.status.winner", "Winner: {names}", names=names) if len(winners) == 1
                  else tr("picture.status.winners", "Winners: {names}", names=names)) if winners else ""
        return game_over(), (detail,)
    if view.status == "setup":
        setup = setup_status()
        return setup[0], (setup[1],)
    left = view.final_turns_left
    head = tr("picture.status.to_play", "{name} to play", name=view.name(view.current))
    if left is not None:
        return head, last_round(left)
    return head, (tr("picture.status.turn", "Turn {n}", n=view.turn + 1),)


def draw_legend(img: Image.Image, layout: BoardLayout, game_map: GameMap, view: View,
                parts: Sequence[PicturePart], entries: Sequence[KeyEntry], kept: dict[Any, KeptCell] | None = None,
                palette: Image.Image | None = None) -> list[TextItem]:
    """The status box and the players' cells; returns the text drawn.

    `kept` (a dict kept with the base) and `palette` (the base's): each player's cell as
    drawn is kept by what it shows, and a cell that shows the same again (most cells of the
    next picture of a game: only the mover's and the next player's change) is pasted whole,
    its palette indices handed to the scanlines, where nothing else was drawn under it."""
    if layout.legend_side == "none":
        return []
    table = table_entries(view, game_map)
    boxes = legend_boxes(layout, len(view.players), entries, table)
    # Text, icons and boxes are pasted, and each paste notes its box (render.dirty); what is
    # drawn with ImageDraw notes its own: the table's key samples here, a pointer below.
    if boxes.table is not None:
        pad = max(4, round(boxes.text_px * 0.25)) + 2
        tx0, ty0, tx1, ty1 = boxes.table
        mark(img, (tx0 - pad, ty0 - pad, tx1 + pad, ty1 + pad))
    t = boxes.text_px
    d = ImageDraw.Draw(img)
    w = Writer(d, "legend", img)
    if boxes.table is not None:
        _key_rows(img, w, layout, table, boxes.table[:2], len(table), boxes.table[2] - boxes.table[0])
    _draw_status(img, w, boxes, game_map, view, parts)
    pts = scores(view)
    over = view.status == "over"
    winners = set((view.result or {}).get("winners", [])) if over else set()
    name_f = font(t, "bold")
    score_f = font(round(t * 1.4), "bold")
    body_f = font(t, "regular")
    count_f = font(t, "bold")
    pts_word = tr("picture.legend.pts", "pts")
    # what was noted before the legend and reaches its panel: a cell is looked at against
    # these and what the legend noted since, not every box of the map
    drawn = tracked(img)
    before: list[Box] = []
    n_before = r_before = 0
    if drawn is not None:
        n_before, r_before = len(drawn), len(drawn.ready)
        lx0, ly0, lx1, ly1 = layout.legend_box
        before = [b for b in drawn if b[0] < lx1 and lx0 < b[2] and b[1] < ly1 and ly0 < b[3]]
        before += [r[0] for r in drawn.ready if r[0][0] < lx1 and lx0 < r[0][2] and r[0][1] < ly1 and ly0 < r[0][3]]
    for p, cell in zip(view.players, boxes.cells, strict=True):
        seat = p.seat
        current = view.status == "playing" and seat == view.current
        badges = [b for part in parts for b in part.badges(view, seat)]
        content = (cell, t, seat, current, seat in winners, view.name(seat), pts.get(seat, 0), pts_word, p.trains,
                   tuple((b.icon, b.count, b.colour) for b in badges))
        got = kept.get(content) if kept is not None else None
        if got is not None and _pasted(img, got, before, n_before, r_before):
            w.items += got.texts
            continue
        n_marks, n_texts = (len(drawn) if drawn is not None else 0), len(w.items)
        _draw_cell(img, d, w, cell, t, seat, current, seat in winners, view.name(seat), str(pts.get(seat, 0)),
                   pts_word, str(p.trains), badges, (name_f, score_f, body_f, count_f))
        if kept is not None and drawn is not None and palette is not None:
            _keep(kept, content, img, drawn, n_marks, w.items[n_texts:], palette, layout.legend_box, before,
                  n_before, r_before)
    return w.items


@dataclass(frozen=True)
class KeptCell:
    """A player's cell as drawn on the bare panel: its box (all it changed), its pixels, their
    palette indices, and its text."""

    box: Box
    pixels: Any  # RGB core
    indices: Any  # "P" core
    texts: tuple[TextItem, ...]


CELLS_KEPT = 48  # per base: ~50-150 KB each at 1600 px
_KEPT_LOCK = threading.Lock()


def _keep(kept: dict[Any, KeptCell], content: tuple[Any, ...], img: Image.Image, drawn: Drawn, n_marks: int,
          texts: list[TextItem], palette: Image.Image, legend_box: Box, before: Sequence[Box] = (),
          n_before: int = 0, r_before: int = 0) -> None:
    """Keep the cell just drawn (its marks after the first `n_marks`), if it was drawn on the
    bare panel: nothing drawn before it in the picture reaches its box. Its marks then go to
    the scanlines as one ready piece (its indices, just looked up) instead of being quantized
    again. `before`, `n_before`, `r_before`: see `_pasted`."""
    mine = drawn[n_marks:]
    if not mine:
        return
    box = (min(b[0] for b in mine), min(b[1] for b in mine), max(b[2] for b in mine), max(b[3] for b in mine))
    if not _inside(box, legend_box) or _touched_since(box, drawn, before, n_before, r_before, n_marks):
        return
    pixels = img.im.crop(box)
    cell = KeptCell(box, pixels, pixels.convert("P", 0, palette.im), tuple(texts))
    keep_drawn(drawn, n_marks, box, cell.indices)
    with _KEPT_LOCK:  # render threads share a base
        while len(kept) >= CELLS_KEPT:
            kept.pop(next(iter(kept)))  # the oldest
        kept[content] = cell


def _pasted(img: Image.Image, got: KeptCell, before: Sequence[Box] | None = None, n_before: int = 0,
            r_before: int = 0) -> bool:
    """Paste a kept cell where nothing drawn yet in the picture reaches its box (its pixels
    are then the bare panel it was kept from); its indices go to the scanlines ready-made.

    `before`: of what was noted before the legend (the first `n_before` boxes and `r_before`
    ready pieces), the boxes and ready pieces' boxes that reach the legend's panel (a kept
    cell lies inside it): only those and what the legend noted since are looked at."""
    drawn = tracked(img)
    if drawn is None:
        return False
    if before is None:
        if touched(got.box, drawn, drawn.ready):
            return False
    elif _touched_since(got.box, drawn, before, n_before, r_before, len(drawn)):
        return False
    img.im.paste(got.pixels, got.box)
    drawn.ready.append((got.box, got.indices, None))  # its whole box
    return True


def _touched_since(box: Box, drawn: Drawn, before: Sequence[Box], n_before: int, r_before: int, n_marks: int) -> bool:
    """`touched(box, drawn[:n_marks], drawn.ready)` for a box inside the legend's panel, when
    `before` holds what reaches the panel of the first `n_before` boxes and `r_before` ready
    pieces."""
    return (touched(box, before, ()) or touched(box, drawn[n_before:n_marks], ())
            or touched(box, (), drawn.ready[r_before:]))


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _draw_cell(img: Image.Image, d: ImageDraw.ImageDraw, w: Writer, cell: Box, t: int, seat: int, current: bool,
               winner: bool, player: str, score: str, pts_word: str, trains: str, badges: Sequence[Badge],
               fonts: tuple[Font, Font, Font, Font]) -> None:
    """One player's cell: colour and mark, name, score, trains, and the rule modules' badges."""
    name_f, score_f, body_f, count_f = fonts
    style = P.player_style(seat)
    x0, y0, x1, y1 = cell
    if current or winner:
        rounded_box(img, cell, round(t * 0.3), style.light, style.fill, max(2, round(t * 0.12)))
    pad = max(3, round(t * 0.2))
    cx, cy = x0 + pad + 1, y0 + pad
    right = x1 - pad - 1
    # row 1: the player's colour and mark on a train car, and the name
    row1 = round(t * 1.2)
    sw_h = round(t * 0.85)
    sw_w = round(t * 1.4)
    sy = cy + (row1 - sw_h) // 2
    rounded_box(img, (cx, sy, cx + sw_w, sy + sw_h), max(2, sw_h // 5), style.fill, style.dark,
                max(1, round(t * 0.07)))
    m = mark_mask(style.mark, max(7, round(sw_h * 0.72)))
    paste(img, (255, 255, 255), (cx + (sw_w - m.width) // 2, sy + (sw_h - m.height) // 2), m)
    if current:  # a pointer at the cell's left edge
        tip = round(t * 0.3)
        ty = sy + sw_h / 2
        d.polygon([(x0 - 2, ty - tip), (x0 + tip - 1, ty), (x0 - 2, ty + tip)], fill=style.dark)
        mark(img, (x0 - 3, math.floor(ty - tip) - 1, x0 + tip + 1, math.ceil(ty + tip) + 2))
    nx = cx + sw_w + round(t * 0.3)
    tag = " ★" if winner else ""
    name = fit_text(player, name_f, right - nx - name_f.getlength(tag)) + tag
    w.text((nx, cy + row1 / 2), name, name_f, P.INK, anchor="lm")
    # row 2: the score, and the trains left
    base_y = cy + row1 + round(t * 1.12)
    sb = w.text((cx, base_y), score, score_f, P.INK, anchor="ls")
    w.text((sb[2] + round(t * 0.2), base_y), pts_word, body_f, P.INK_SOFT, anchor="ls")
    tb = w.text((right, base_y), trains, count_f, P.INK, anchor="rs")
    ic = round(t * 0.9)
    paste_icon(img, "trains", (tb[0] - 4 - icon_width("trains", ic), base_y - ic), ic)
    # row 3 (and more in a tall cell): what the rule modules add
    draw_badges(img, w, badges, (cx, base_y + round(t * 0.3)), right, y1 - pad, t, count_f)


def draw_badges(img: Image.Image, w: Writer, badges: Sequence[Badge], at: tuple[int, int], right: int,
                bottom: int, t: int, count_f: Font) -> int:
    """Badges (icon + count) in rows from `at`: spread out when they fit, closer together when
    they do not, on a second row when the cell is tall enough, smaller icons as a last resort
    (the counts keep their size). Returns the bottom."""
    x0, y = at
    line = round(t * 1.2)
    size = round(t * 0.9)
    counts = [round(count_f.getlength(str(b.count))) for b in badges]

    def widths(sz: int) -> list[int]:
        return [icon_width(b.icon, sz) + 2 + c for b, c in zip(badges, counts, strict=True)]

    rows: list[list[int]] = [list(range(len(badges)))]
    room = right - x0
    gap = round(t * 0.45)
    natural = sum(widths(size)) + gap * (len(badges) - 1)
    if natural > room:
        gap = max(2, round(t * 0.12))
        if sum(widths(size)) + gap * (len(badges) - 1) > room:
            if y + 2 * line <= bottom:  # a tall cell: a second row
                rows, acc = [[]], 0
                for i, bw in enumerate(widths(size)):
                    if rows[-1] and acc + gap + bw > room:
                        rows.append([])
                        acc = 0
                    acc += (gap if rows[-1] else 0) + bw
                    rows[-1].append(i)
            else:
                while size > round(t * 0.6) and sum(widths(size)) + gap * (len(badges) - 1) > room:
                    size -= 1
    for row in rows:
        x = x0
        for i in row:
            b = badges[i]
            paste_icon(img, b.icon, (x, y + (line - size) / 2), size, b.colour or P.INK)
            x += icon_width(b.icon, size) + 2
            box = w.text((x, y + line / 2), str(b.count), count_f, P.INK, anchor="lm")
            x = box[2] + gap
        y += line
    return y


def _draw_status(img: Image.Image, w: Writer, boxes: LegendBoxes, game_map: GameMap, view: View,
                 parts: Sequence[PicturePart]) -> None:
    t = boxes.text_px
    x0, y0, x1, y1 = boxes.info
    iw = x1 - x0
    head, details = status_lines(view)
    head_f = font(t, "bold")
    body_f = font(t, "regular")
    y = y0
    w.text((x0, y), fit_text(head, head_f, iw), head_f, P.INK)
    y += round(t * 1.35)
    detail = next((d for d in details if body_f.getlength(d) <= iw), details[-1])
    w.text((x0, y), fit_text(detail, body_f, iw), body_f, P.INK)
    y += round(t * 1.25)
    rolls: list[DiceRoll] = [r for part in parts for r in part.status(view)]
    if rolls:
        roll = rolls[0]
        size = round(t * 1.15)
        x = x0
        for face in roll.faces:
            paste_icon(img, die_kind(face), (x, y + 1), size)
            x += size + max(2, round(t * 0.15))
    else:
        w.text((x0, y), fit_text(map_title(game_map), body_f, iw), body_f, P.INK_SOFT)


def map_title(game_map: GameMap) -> str:
    """The board's title as the picture's language prints it ("Deutschland", "URSS"); the map's
    own short name where the language has none (and in English)."""
    return tr(f"picture.map.{game_map.id}", short_map_name(game_map.name))


def short_map_name(name: str) -> str:
    """"Ticket to Ride USSR (fan expansion, …)" -> "USSR"; "Ticket to Ride (USA)" -> "USA"."""
    short = re.sub(r"^Ticket to Ride\s*", "", name).strip()
    if short.startswith("(") and short.endswith(")"):
        return short[1:-1]
    return re.sub(r"\s*\(.*\)$", "", short) or name
