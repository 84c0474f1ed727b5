"""The final score picture: one row per player with route points, tickets won and lost, each
bonus, stations and the total, a bar showing how the total was made, the winner marked and
the tie-break that decided, if any.

Read from ``view.result`` (the engine's final score sheets), which is public at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.maps import GameMap, load_map
from engine.view import View
from render import palette as P
from render.encode import png_bytes
from render.sprites import mark_mask
from render.text import fit_text, font

WIDTH = 1200
MARGIN = 24
ROW_H = 64


@dataclass(frozen=True)
class ScorePicture:
    png: bytes
    image: Image.Image


def _columns(sheets: list[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(key, heading) for every score column present in any sheet, in reading order."""
    cols = [("routes", "Routes"), ("tickets_won", "Tickets won"), ("tickets_lost", "Tickets lost")]
    bonuses: list[str] = []
    for s in sheets:
        for label in (s.get("bonuses") or {}):
            if label not in bonuses:
                bonuses.append(label)
    cols += [(f"bonus:{b}", b) for b in bonuses]
    if any("stations" in s for s in sheets):
        cols.append(("stations", "Stations"))
    return cols


def _value(sheet: Mapping[str, Any], key: str) -> int:
    if key.startswith("bonus:"):
        return int((sheet.get("bonuses") or {}).get(key[6:], 0))
    return int(sheet.get(key, 0) or 0)


def render_scores(view: View, game_map: GameMap | None = None) -> ScorePicture:
    """The final score picture of a finished game (``view.status == "over"``)."""
    img = scores_image(view, game_map)
    return ScorePicture(png_bytes(img), img)


def scores_image(view: View, game_map: GameMap | None = None) -> Image.Image:
    """The final score picture as an RGB image."""
    result = view.result
    if not result or not result.get("sheets"):
        raise ValueError("the game has no final result yet")
    game_map = game_map or load_map(view.map_id)
    sheets = list(result["sheets"])
    by_seat = {int(s["seat"]): s for s in sheets}
    ranking = result.get("ranking")
    order = [sheets[i]["seat"] for i in ranking] if ranking else [
        s["seat"] for s in sorted(sheets, key=lambda s: (-int(s["total"]), int(s["seat"])))]
    winners = set(result.get("winners", []))
    tie_break = list(result.get("tie_break") or [])
    cols = _columns(sheets)

    title_f = font(30, "bold")
    head_f = font(15, "bold")
    name_f = font(20, "bold")
    num_f = font(20, "regular")
    total_f = font(28, "bold")
    small_f = font(14, "regular")

    name_w = 340
    total_w = 110
    col_w = max(96, min(150, (WIDTH - 2 * MARGIN - name_w - total_w) // max(1, len(cols))))
    table_w = name_w + col_w * len(cols) + total_w
    width = max(WIDTH, table_w + 2 * MARGIN)
    bar_h = 16
    top = 120
    height = top + 44 + len(order) * (ROW_H + bar_h + 14) + (40 if tie_break else 0) + 56
    img = Image.new("RGB", (width, height), P.PAPER)
    d = ImageDraw.Draw(img)

    names = [view.name(s) if not by_seat[s].get("name") else str(by_seat[s]["name"]) for s in order]
    win_names = [n for s, n in zip(order, names, strict=True) if s in winners]
    d.text((MARGIN, 24), "Final scores", font=title_f, fill=P.INK)
    d.text((width - MARGIN, 34), game_map.name, font=num_f, fill=P.INK_SOFT, anchor="ra")
    verdict = ("Winner: " if len(win_names) == 1 else "Shared win: ") + " & ".join(win_names) if win_names else ""
    d.text((MARGIN, 70), verdict, font=name_f, fill=P.INK)

    # column headings
    x: float = MARGIN + name_w
    y = top
    for _, heading in cols:
        lines = _wrap(heading, head_f, col_w - 12)
        for i, line in enumerate(lines):
            d.text((x + col_w - 10, y + 18 * (i - len(lines) + 1)), line, font=head_f, fill=P.INK_SOFT, anchor="ra")
        x += col_w
    d.text((x + total_w - 10, y), "Total", font=head_f, fill=P.INK, anchor="ra")
    y += 30
    d.line((MARGIN, y, MARGIN + table_w, y), fill=P.PANEL_EDGE, width=2)
    y += 8

    scale_max = max(1, max(sum(max(0, _value(by_seat[s], k)) for k, _ in cols) for s in order))
    scale_min = max(1, max(-sum(min(0, _value(by_seat[s], k)) for k, _ in cols) for s in order))
    bar_w = table_w - 60
    zero_x = MARGIN + 60 * 0 + round(bar_w * scale_min / (scale_min + scale_max))
    px_per = bar_w / (scale_min + scale_max)
    part_colours = [(92, 120, 190), (70, 160, 90), (200, 70, 60), (236, 170, 40), (160, 90, 180), (40, 160, 170),
                    (120, 120, 120)]

    for rank, (seat, name) in enumerate(zip(order, names, strict=True)):
        sheet = by_seat[seat]
        style = P.player_style(seat)
        row_top = y
        if seat in winners:
            d.rounded_rectangle((MARGIN - 8, row_top - 4, MARGIN + table_w + 8, row_top + ROW_H + bar_h + 6), radius=10,
                                fill=style.light, outline=style.fill, width=3)
        cy = row_top + ROW_H // 2 - 6
        d.text((MARGIN, cy), f"{rank + 1}.", font=name_f, fill=P.INK_SOFT, anchor="lm")
        sx = MARGIN + 34
        d.rounded_rectangle((sx, cy - 12, sx + 40, cy + 12), radius=5, fill=style.fill, outline=style.dark, width=2)
        img.paste((255, 255, 255), (sx + 12, cy - 8), mark_mask(style.mark, 16))
        label = name + ("  ★ winner" if seat in winners else "")
        d.text((sx + 52, cy), fit_text(label, name_f, name_w - 90), font=name_f, fill=P.INK, anchor="lm")
        detail = _detail(sheet)
        if detail:
            # the line under the name is free across the whole row
            d.text((sx + 52, cy + 24), fit_text(detail, small_f, table_w - (sx + 52 - MARGIN)), font=small_f,
                   fill=P.INK_SOFT, anchor="lm")
        x = MARGIN + name_w
        for key, _ in cols:
            v = _value(sheet, key)
            text = str(v)
            ink = P.BAD if v < 0 else (P.INK if v else P.INK_SOFT)
            d.text((x + col_w - 10, cy), text, font=num_f, fill=ink, anchor="rm")
            x += col_w
        d.text((x + total_w - 10, cy), str(sheet.get("total", 0)), font=total_f, fill=P.INK, anchor="rm")
        # the bar: positive parts to the right of zero, lost tickets to the left
        by = row_top + ROW_H
        right: float = zero_x
        left: float = zero_x
        for i, (key, _) in enumerate(cols):
            v = _value(sheet, key)
            if v == 0:
                continue
            colour = part_colours[i % len(part_colours)]
            if v > 0:
                d.rectangle((right, by, right + v * px_per, by + bar_h), fill=colour)
                right += v * px_per
            else:
                d.rectangle((left + v * px_per, by, left, by + bar_h), fill=P.BAD)
                left += v * px_per
        d.line((zero_x, by - 2, zero_x, by + bar_h + 2), fill=P.INK, width=2)
        y = row_top + ROW_H + bar_h + 14

    # key for the bar colours and the tie-break
    y += 6
    x = MARGIN
    for i, (key, heading) in enumerate(cols):
        colour = P.BAD if key == "tickets_lost" else part_colours[i % len(part_colours)]
        d.rectangle((x, y + 3, x + 14, y + 17), fill=colour)
        d.text((x + 20, y + 10), heading, font=small_f, fill=P.INK_SOFT, anchor="lm")
        x += 40 + small_f.getlength(heading)
    if tie_break:
        y += 34
        d.text((MARGIN, y), "Tie broken by: " + " → ".join(tie_break), font=name_f, fill=P.INK)
    return img


def _wrap(text: str, fnt: Any, width: float) -> list[str]:
    """A heading on one line, or two when it is too wide (then shortened if still too wide)."""
    if fnt.getlength(text) <= width or " " not in text:
        return [fit_text(text, fnt, width)]
    words = text.split()
    best = min(range(1, len(words)), key=lambda i: max(fnt.getlength(" ".join(words[:i])),
                                                       fnt.getlength(" ".join(words[i:]))))
    return [fit_text(" ".join(words[:best]), fnt, width), fit_text(" ".join(words[best:]), fnt, width)]


def _detail(sheet: Mapping[str, Any]) -> str:
    """A short line under the name: tickets done, stations used, longest path."""
    bits = []
    tickets = sheet.get("tickets") or []
    if tickets:
        done = sum(1 for t in tickets if t.get("completed"))
        bits.append(f"{done}/{len(tickets)} tickets")
    if "stations_used" in sheet:
        n = int(sheet["stations_used"])
        bits.append(f"{n} station{'s' if n != 1 else ''} used")
    if sheet.get("longest_path"):
        bits.append(f"longest {sheet['longest_path']}")
    return " · ".join(bits)
