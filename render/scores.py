"""The final score picture: one row per player with a column for every line of the score
sheet (routes, tickets completed and failed, tourist cards, stations, passengers, bonuses),
the total, and a bar showing how the total was made; the winner marked and the tie-break that
decided, if any; and, when a game has many bonuses, the list of them with who won each.

The columns are the score sheet's named lines (`sheet["lines"]`, every point of the total on
exactly one), named by the rule set's modules (`engine.scoring.score_line_names`) in scoring
order, so they always add up to the total. A rule module whose picture part says its lines
are bonuses (`PicturePart.bonus`) has them gathered into one "Bonuses" column when there are
more than two, each then listed by its full name below the table. Results saved before sheets
had lines are read from their old fields, with any difference on an "Other" line.

Read from ``view.result`` (the engine's final score sheets), which is public at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.scoring import score_line_names
from engine.view import View
from render import palette as P
from render.encode import png_bytes
from render.legend import map_title
from render.parts import modules_of, part_for
from render.sprites import mark_mask
from render.text import Font, TextItem, Writer, fit_text, font, preview_px
from render.words import slug, tr, tr_n

WIDTH = 1200
MARGIN = 24
BONUSES = "Bonuses"
# Bonus lines get their own columns up to this many; more are gathered into one.
MAX_BONUS_COLUMNS = 2
# One colour per column, for its swatch and its part of the bar (none repeats up to eight):
# reds for the columns that only take points away (tickets failed), others for the rest.
COLUMN_COLOURS: tuple[P.RGB, ...] = (
    (78, 110, 190), (60, 150, 80), (30, 150, 160), (150, 90, 180), (220, 170, 30), (140, 100, 60),
    (210, 90, 150), (110, 110, 120),
)
LOSS_COLOURS: tuple[P.RGB, ...] = ((200, 60, 50), (230, 120, 40), (160, 40, 70))


@dataclass(frozen=True)
class Column:
    """One column of the table: its heading, the score lines it sums, and each seat's value."""

    heading: str
    lines: tuple[str, ...]
    values: Mapping[int, int]
    colour: P.RGB


@dataclass(frozen=True)
class BonusRow:
    """One bonus of the list below the table: its name and what each seat won by it."""

    name: str
    won: Mapping[int, int]


@dataclass(frozen=True)
class ScorePicture:
    """The PNG and, for tests, the image and what it shows: the columns (which add up to each
    seat's total), the totals drawn, the bonus list, and the text with its sizes."""

    png: bytes
    image: Image.Image
    columns: tuple[Column, ...] = ()
    totals: Mapping[int, int] | None = None
    bonuses: tuple[BonusRow, ...] = ()
    texts: tuple[TextItem, ...] = ()
    # the numbers as drawn: each seat's row, one text per column and then the total
    rows: Mapping[int, tuple[TextItem, ...]] | None = None


# ---------------------------------------------------------------------------------------------
# What the sheet holds
# ---------------------------------------------------------------------------------------------

LEGACY_NAMES = {"routes": "Routes", "tickets_won": "Tickets completed", "tickets_lost": "Tickets failed",
                "tourist_won": "Tourist cards completed", "tourist_lost": "Tourist cards failed",
                "stations": "Stations kept"}


# The characters of a player's name the score sheet makes room for (a longer one is cut with …).
NAME_CHARS = 16

def line_name(line: str, english: str) -> str:
    """A score line's name in the picture's language (a bonus's id is its printed name)."""
    return tr(f"picture.line.{slug(line)}", english)


def sheet_lines(sheet: Mapping[str, Any]) -> dict[str, int]:
    """The sheet's named lines; for a result saved before sheets had lines, rebuilt from its
    old fields, with whatever they miss of the total on an "Other" line."""
    lines = sheet.get("lines")
    if isinstance(lines, Mapping):
        return {str(k): int(v) for k, v in lines.items()}
    out: dict[str, int] = {}
    for key in LEGACY_NAMES:
        if key in sheet:
            out[key] = int(sheet.get(key) or 0)
    for label, points in (sheet.get("bonuses") or {}).items():
        out[str(label)] = out.get(str(label), 0) + int(points)
    rest = int(sheet.get("total", 0)) - sum(out.values())
    if rest:
        out["Other"] = rest
    return out


def score_columns(view: View, sheets: Sequence[Mapping[str, Any]]) -> tuple[list[Column], list[BonusRow]]:
    """The table's columns, in scoring order, and the bonus list (when bonuses are gathered)."""
    modules = modules_of(view)
    names = score_line_names(modules) if modules else dict(LEGACY_NAMES)
    bonus_lines: set[str] = set()
    for module in modules:
        part = part_for(module)
        if part is not None and part.bonus:
            bonus_lines.update(module.score_line_names())
    by_seat = {int(s["seat"]): sheet_lines(s) for s in sheets}
    present: list[str] = []
    for line in names:
        if any(line in lines for lines in by_seat.values()):
            present.append(line)
    for lines in by_seat.values():  # lines no module names (an old result): kept, never dropped
        for line in lines:
            if line not in present:
                present.append(line)
                if line not in LEGACY_NAMES and line != "Other" and not modules:
                    bonus_lines.add(line)
    bonuses = [line for line in present if line in bonus_lines]
    gather = len(bonuses) > MAX_BONUS_COLUMNS
    columns: list[Column] = []
    rows: list[BonusRow] = []
    for line in present:
        if gather and line in bonus_lines:
            if line == bonuses[0]:
                columns.append(Column(tr("picture.scores.bonuses", BONUSES), tuple(bonuses),
                                      {seat: sum(lines.get(b, 0) for b in bonuses) for seat, lines in by_seat.items()},
                                      (0, 0, 0)))
            rows.append(BonusRow(line_name(line, names.get(line, line)),
                                 {seat: lines.get(line, 0) for seat, lines in by_seat.items()}))
            continue
        values = {seat: lines.get(line, 0) for seat, lines in by_seat.items()}
        columns.append(Column(line_name(line, names.get(line, line)), (line,), values, (0, 0, 0)))
    coloured: list[Column] = []
    gains = losses = 0
    for c in columns:
        if any(v < 0 for v in c.values.values()) and not any(v > 0 for v in c.values.values()):
            colour = LOSS_COLOURS[losses % len(LOSS_COLOURS)]
            losses += 1
        else:
            colour = COLUMN_COLOURS[gains % len(COLUMN_COLOURS)]
            gains += 1
        coloured.append(Column(c.heading, c.lines, c.values, colour))
    return coloured, rows


# ---------------------------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------------------------


def render_scores(view: View, game_map: GameMap | None = None) -> ScorePicture:
    """The final score picture of a finished game (``view.status == "over"``)."""
    img, columns, totals, rows, texts, cells = _draw(view, game_map)
    return ScorePicture(png_bytes(img), img, tuple(columns), totals, tuple(rows), tuple(texts), cells)


def scores_image(view: View, game_map: GameMap | None = None) -> Image.Image:
    """The final score picture as an RGB image."""
    return _draw(view, game_map)[0]


def _draw(view: View, game_map: GameMap | None) -> tuple[Image.Image, list[Column], dict[int, int], list[BonusRow],
                                                          list[TextItem], dict[int, tuple[TextItem, ...]]]:
    result = view.result
    if not result or not result.get("sheets"):
        raise ValueError("the game has no final result yet")
    game_map = game_map or load_map(view.map_id)
    sheets = list(result["sheets"])
    by_seat = {int(s["seat"]): s for s in sheets}
    ranking = result.get("ranking")
    order = [int(sheets[i]["seat"]) for i in ranking] if ranking else [
        int(s["seat"]) for s in sorted(sheets, key=lambda s: (-int(s["total"]), int(s["seat"])))]
    winners = {int(s) for s in result.get("winners", [])}
    tie_break = [str(x) for x in result.get("tie_break") or []]
    columns, rows = score_columns(view, sheets)
    totals = {seat: int(by_seat[seat].get("total", 0)) for seat in order}
    names = {seat: str(by_seat[seat].get("name") or view.name(seat)) for seat in order}

    # The text is legible in the preview of the picture's own width, which grows with the
    # columns; a few rounds find a size that holds for the width it makes.
    def layout(t: int) -> tuple[Font, int, int, int, int, int]:
        head_f = font(t, "bold")
        longest_word = max((head_f.getlength(word) for c in columns for word in c.heading.split()), default=0)
        col_w = max(round(t * 4.6), round(longest_word) + round(t * 0.6))
        name_w = round(t * 9.5)
        # wide enough for its heading ("Total", "Summe") and a three-digit total
        total_w = max(round(t * 4), round(head_f.getlength(tr("picture.scores.total", "Total")) + t * 0.9))
        # the names take what the columns leave of the picture, and at least what the longest name
        # needs up to NAME_CHARS (long translated headings must not squeeze "Bot 1" to "Bo…"):
        # rank, mark, name and the winner's star
        name_w = max(name_w, min(round(t * 16), WIDTH - 2 * MARGIN - col_w * len(columns) - total_w))
        need_f = font(round(t * 1.15), "bold")
        longest_name = max((need_f.getlength(n[:NAME_CHARS]) for n in names.values()), default=0)
        name_w = max(name_w, round(t * 4.1 + longest_name + need_f.getlength(" ★") + 8))
        table_w = name_w + col_w * len(columns) + total_w
        width = max(WIDTH, table_w + 2 * MARGIN)
        return head_f, col_w, name_w, total_w, table_w, width

    t = preview_px(WIDTH)
    for _ in range(6):
        head_f, col_w, name_w, total_w, table_w, width = layout(t)
        if preview_px(width) <= t:
            break
        t = preview_px(width)
    else:  # not settled in six rounds: lay it out for the size its text will have
        head_f, col_w, name_w, total_w, table_w, width = layout(t)
    title_f = font(round(t * 1.6), "bold")
    name_f = font(round(t * 1.15), "bold")
    num_f = font(round(t * 1.1), "regular")
    total_f = font(round(t * 1.5), "bold")
    body_f = font(t, "regular")
    heading_lines = max((len(_wrap(c.heading, head_f, col_w - t * 0.6)) for c in columns), default=1)
    line_h = round(t * 1.25)
    row_h = round(t * 1.7) + line_h + round(t * 0.9) + round(t * 0.8)  # name, detail, bar, gap
    bonus_h = _bonus_height(rows, names, width, t, head_f, body_f)
    top = MARGIN + round(t * 4.4)
    height = (top + heading_lines * line_h + round(t * 1.2) + len(order) * row_h + (round(t * 2) if tie_break else 0)
              + bonus_h + MARGIN)
    img = Image.new("RGB", (width, height), P.PAPER)
    d = ImageDraw.Draw(img)
    w = Writer(d, "sheet", img)

    win_names = [names[s] for s in order if s in winners]
    w.text((MARGIN, MARGIN), tr("picture.scores.title", "Final scores"), title_f, P.INK)
    w.text((width - MARGIN, MARGIN + round(t * 0.4)), map_title(game_map), body_f, P.INK_SOFT, anchor="ra")
    together = " & ".join(win_names)
    verdict = (tr("picture.scores.winner", "Winner: {names}", names=together) if len(win_names) == 1
               else tr("picture.scores.shared_win", "Shared win: {names}", names=together)) if win_names else ""
    w.text((MARGIN, MARGIN + round(t * 2.3)), fit_text(verdict, name_f, width - 2 * MARGIN), name_f, P.INK)

    # column headings, each with its colour (the same colour as its part of the bars)
    y = top
    x = MARGIN + name_w
    bottom = y + heading_lines * line_h
    for col in columns:
        lines = _wrap(col.heading, head_f, col_w - t * 0.6)
        for i, line in enumerate(lines):
            w.text((x + col_w - t * 0.4, bottom - (len(lines) - i) * line_h), line, head_f, P.INK_SOFT, anchor="ra")
        sw = round(t * 0.6)
        d.rectangle((x + col_w - t * 0.4 - sw, bottom + 3, x + col_w - t * 0.4, bottom + 3 + sw // 2), fill=col.colour)
        x += col_w
    total = fit_text(tr("picture.scores.total", "Total"), head_f, total_w - t * 0.6)
    w.text((x + total_w - t * 0.4, bottom - line_h), total, head_f, P.INK, anchor="ra")
    y = bottom + round(t * 0.7)
    d.line((MARGIN, y, MARGIN + table_w, y), fill=P.PANEL_EDGE, width=2)
    y += round(t * 0.5)

    pos = max(1, max(sum(max(0, c.values.get(s, 0)) for c in columns) for s in order))
    neg = max(1, max(-sum(min(0, c.values.get(s, 0)) for c in columns) for s in order))
    bar_w = table_w - round(t * 2)
    px_per = bar_w / (pos + neg)
    zero_x = MARGIN + round(t) + neg * px_per

    cells: dict[int, tuple[TextItem, ...]] = {}
    for rank, seat in enumerate(order):
        sheet = by_seat[seat]
        style = P.player_style(seat)
        row_top = y
        if seat in winners:
            d.rounded_rectangle((MARGIN - 8, row_top - 4, MARGIN + table_w + 8, row_top + row_h - round(t * 0.5)),
                                radius=10, fill=style.light, outline=style.fill, width=3)
        cy = row_top + round(t * 0.85)
        w.text((MARGIN, cy), f"{rank + 1}.", name_f, P.INK_SOFT, anchor="lm")
        sx = MARGIN + round(t * 1.7)
        sh, swd = round(t * 1.15), round(t * 1.9)
        d.rounded_rectangle((sx, cy - sh / 2, sx + swd, cy + sh / 2), radius=5, fill=style.fill, outline=style.dark,
                            width=2)
        m = mark_mask(style.mark, round(sh * 0.7))
        img.paste((255, 255, 255), (round(sx + (swd - m.width) / 2), round(cy - m.height / 2)), m)
        nx = sx + swd + round(t * 0.5)
        tag = " ★" if seat in winners else ""
        w.text((nx, cy), fit_text(names[seat], name_f, name_w - (nx - MARGIN) - name_f.getlength(tag) - 8) + tag,
               name_f, P.INK, anchor="lm")
        detail = _detail(sheet, stations=any("stations" in c.lines for c in columns))
        if detail:
            w.text((nx, cy + round(t * 1.35)), fit_text(detail, body_f, table_w - (nx - MARGIN)), body_f,
                   P.INK_SOFT, anchor="lm")
        x = MARGIN + name_w
        drawn: list[TextItem] = []
        for col in columns:
            v = col.values.get(seat, 0)
            ink = P.BAD if v < 0 else (P.INK if v else P.INK_SOFT)
            w.text((x + col_w - t * 0.4, cy), str(v), num_f, ink, anchor="rm")
            drawn.append(w.items[-1])
            x += col_w
        w.text((x + total_w - t * 0.4, cy), str(totals[seat]), total_f, P.INK, anchor="rm")
        drawn.append(w.items[-1])
        cells[seat] = tuple(drawn)
        # the bar: positive parts right of zero, negative ones left, each in its column's colour
        by = row_top + round(t * 1.7) + line_h + round(t * 0.1)
        bh = round(t * 0.75)
        right: float = zero_x
        left: float = zero_x
        for col in columns:
            v = col.values.get(seat, 0)
            if v > 0:
                d.rectangle((right, by, right + v * px_per, by + bh), fill=col.colour)
                right += v * px_per
            elif v < 0:
                d.rectangle((left + v * px_per, by, left, by + bh), fill=col.colour)
                left += v * px_per
        d.line((zero_x, by - 3, zero_x, by + bh + 3), fill=P.INK, width=2)
        y = row_top + row_h

    if tie_break:
        decided = " → ".join(tr(f"picture.tie.{slug(x)}", x) for x in tie_break)
        w.text((MARGIN, y), fit_text(tr("picture.scores.tie_broken", "Tie broken by: {how}", how=decided), name_f,
                                     width - 2 * MARGIN), name_f, P.INK)
        y += round(t * 2)
    if rows:
        _draw_bonus_list(w, rows, names, (MARGIN, y + round(t * 0.4)), width, t, head_f, body_f)
    return img, columns, totals, rows, w.items, cells


def _bonus_cols(rows: Sequence[BonusRow], width: int, t: int, head_f: Any) -> int:
    longest = max((head_f.getlength(r.name) for r in rows), default=0)
    return 2 if longest <= (width - 2 * MARGIN) / 2 - t * 2 else 1


def _bonus_layout(rows: Sequence[BonusRow], names: Mapping[int, str], width: int, t: int, head_f: Any,
                  body_f: Any) -> tuple[list[tuple[float, int, list[str]]], int]:
    """Where each bonus goes: (x, y offset, lines of winners), and the list's height. Winners
    wrap onto more lines rather than being cut."""
    cols = _bonus_cols(rows, width, t, head_f)
    per = -(-len(rows) // cols) if rows else 0
    col_w = (width - 2 * MARGIN) / cols
    line = round(t * 1.3)
    out: list[tuple[float, int, list[str]]] = []
    heights = [0] * cols
    for i, row in enumerate(rows):
        c = i // per
        got = [f"{names.get(seat, '?')} {'+' if v > 0 else ''}{v}" for seat, v in row.won.items() if v]
        lines = _wrap_list(got, body_f, col_w - t * 1.8) if got else [tr("picture.scores.nobody", "nobody")]
        out.append((c * col_w, heights[c], lines))
        heights[c] += line * (1 + len(lines)) + round(t * 0.3)
    return out, round(t * 2.0) + max(heights, default=0)


def _bonus_height(rows: Sequence[BonusRow], names: Mapping[int, str], width: int, t: int, head_f: Any,
                  body_f: Any) -> int:
    return _bonus_layout(rows, names, width, t, head_f, body_f)[1] + round(t * 0.4) if rows else 0


def _draw_bonus_list(w: Writer, rows: Sequence[BonusRow], names: Mapping[int, str], at: tuple[int, int], width: int,
                     t: int, head_f: Any, body_f: Any) -> None:
    """Each bonus by its full name, with what it gave and to whom."""
    x0, y0 = at
    w.text((x0, y0), tr("picture.scores.bonuses", BONUSES), font(round(t * 1.15), "bold"), P.INK)
    y0 += round(t * 2.0)
    cols = _bonus_cols(rows, width, t, head_f)
    col_w = (width - 2 * MARGIN) / cols
    line = round(t * 1.3)
    places, _ = _bonus_layout(rows, names, width, t, head_f, body_f)
    for row, (dx, dy, lines) in zip(rows, places, strict=True):
        x, y = x0 + dx, y0 + dy
        w.text((x, y), fit_text(row.name, head_f, col_w - t), head_f, P.INK)
        for i, text in enumerate(lines):
            w.text((x + round(t * 0.8), y + line * (i + 1)), text, body_f, P.INK_SOFT)


def _wrap_list(items: Sequence[str], fnt: Any, width: float) -> list[str]:
    """Items joined by commas, on as many lines as they need."""
    lines: list[str] = []
    for item in items:
        if lines and fnt.getlength(lines[-1] + ", " + item) <= width:
            lines[-1] += ", " + item
        else:
            if lines:
                lines[-1] += ","
            lines.append(fit_text(item, fnt, width))
    return lines


def _wrap(text: str, fnt: Any, width: float) -> list[str]:
    """A heading on as many lines as it needs (up to three), words never cut."""
    words = text.split()
    lines: list[str] = []
    for word in words:
        if lines and fnt.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 3:
        lines = lines[:2] + [" ".join(lines[2:])]
    return lines or [""]


def _detail(sheet: Mapping[str, Any], stations: bool = True) -> str:
    """A short line under the name: tickets done, tourist cards visited, stations used (in a
    game with stations), longest path."""
    bits = []
    tickets = sheet.get("tickets") or []
    if tickets:
        done = sum(1 for t in tickets if t.get("completed"))
        bits.append(tr("picture.scores.tickets_done", "{done}/{n} tickets", done=done, n=len(tickets)))
    tourist = sheet.get("tourist") or []
    if tourist:
        done = sum(1 for t in tourist if t.get("completed"))
        bits.append(tr("picture.scores.tourist_done", "{done}/{n} tourist cards", done=done, n=len(tourist)))
    if stations and "stations_used" in sheet:
        n = int(sheet["stations_used"])
        bits.append(tr_n("picture.scores.stations_used", n, "{n} station used", "{n} stations used"))
    if sheet.get("longest_path"):
        bits.append(tr("picture.scores.longest", "longest {n}", n=sheet["longest_path"]))
    return " · ".join(bits)
