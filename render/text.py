"""Fonts and text drawing.

The fonts ship with the renderer (render/fonts: DejaVu Sans, subset to Latin + a few
symbols, Bitstream Vera licence), so labels look the same on every machine, CI included, and
accented names (Köln, Tromsø, Åre) draw correctly: Pillow's built-in scalable font
(``ImageFont.load_default(size=…)``) has ASCII glyphs only. It is still the fallback if a font
file is missing.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render.palette import RGB
from render.paste import paste

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}

Font = ImageFont.FreeTypeFont

# Text widths a font keeps (per font; more are measured but not kept).
LENGTHS_KEPT = 4096


class MeasuredFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the widths it measured: the legend and the hand lay out
    the same words, names and numbers on every picture (`fit_text`, the badges, the
    holdings), and each `getlength` lays the text out again in FreeType (~15 µs)."""

    def __init__(self, font: str, size: float) -> None:
        super().__init__(font, size)
        self._lengths: dict[str, float] = {}

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        """`FreeTypeFont.getlength`, from memory for a text measured before with the defaults."""
        if mode or direction is not None or features is not None or language is not None or not isinstance(text, str):
            return super().getlength(text, mode, direction, features, language)
        length = self._lengths.get(text)
        if length is None:
            length = super().getlength(text)
            if len(self._lengths) < LENGTHS_KEPT:
                self._lengths[text] = length
        return length


@functools.lru_cache(maxsize=128)
def font(size: int, weight: str = "regular") -> Font:
    """A font of `size` pixels: "regular", "bold" or "condensed" (bold condensed, for labels)."""
    size = max(6, int(round(size)))
    try:
        return MeasuredFont(str(FONT_DIR / FONT_FILES[weight]), size)
    except OSError:  # font files missing: Pillow's own font (ASCII only)
        fallback = ImageFont.load_default(size=size)
        if not isinstance(fallback, ImageFont.FreeTypeFont):  # a Pillow built without FreeType
            raise
        return fallback


def text_box(fnt: Font, text: str) -> tuple[int, int, int, int]:
    """Bounding box of `text` drawn at (0, 0) with the "la" anchor (left, ascender)."""
    x0, y0, x1, y1 = fnt.getbbox(text, anchor="la")
    return int(x0), int(y0), int(x1), int(y1)


def text_size(fnt: Font, text: str) -> tuple[int, int]:
    """Advance width and the font's line height (ascent + descent), for stable rows."""
    ascent, descent = fnt.getmetrics()
    return int(round(fnt.getlength(text))), ascent + descent


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB,
    halo: RGB | None = None,
    halo_width: int = 2,
    anchor: str = "la",
) -> None:
    """Text with an optional halo (a stroke in the background colour) for legibility on a map."""
    if halo is not None and "\n" not in text and draw.mode == "RGB":
        # What ImageDraw.text does for one line: the halo's mask, then the text's, each filled
        # with its colour at the whole pixel below `xy` (the fraction is in the masks) —
        # rasterized once per text, font, halo and fraction (`halo_masks`).
        x, y = xy
        fx, fy = math.modf(x)[0], math.modf(y)[0]
        drawn = zip(halo_masks(text, fnt, anchor, halo_width, fx, fy), (halo, fill), strict=True)
        for (mask, (ox, oy)), colour in list(drawn)[: 1 if halo == fill else 2]:
            x0, y0 = int(x) + ox, int(y) + oy
            draw.im.paste(colour, (x0, y0, x0 + mask.size[0], y0 + mask.size[1]), mask)
    elif halo is not None:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
    else:
        draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)


@functools.lru_cache(maxsize=4096)
def halo_masks(text: str, fnt: Font, anchor: str, halo_width: int, fx: float,
               fy: float) -> tuple[tuple[Any, tuple[int, int]], tuple[Any, tuple[int, int]]]:
    """The masks (Pillow's core images) and offsets ImageDraw.text draws one line of `text`
    with a halo `halo_width` wide from, at a point whose fractional part is (`fx`, `fy`): the
    halo's (the stroke, filled), then the text's. City names on the small maps and under a
    last move's ring are drawn again on every picture."""
    start = (fx, fy)
    return (fnt.getmask2(text, "L", None, None, None, halo_width, anchor, 0, start, stroke_filled=True),
            fnt.getmask2(text, "L", None, None, None, 0, anchor, 0, start, stroke_filled=True))


def fit_text(text: str, fnt: Font, max_width: float) -> str:
    """`text` shortened with an ellipsis so that it fits `max_width` pixels."""
    if fnt.getlength(text) <= max_width:
        return text
    while text and fnt.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


# Discord shows an attached picture about 550 pixels wide on a desktop (360 on a phone); the
# pictures are designed for that preview rather than for the zoom. Text a player must read
# there (the legend, the hand, the final sheet) is at least 9 pixels high at 550 wide.
PREVIEW_WIDTH = 550
PREVIEW_TEXT_PX = 9


def preview_px(width: float, px: float = PREVIEW_TEXT_PX) -> int:
    """The font size that shows `px` pixels high when a picture `width` wide is shown at
    Discord's preview width (rounded up)."""
    return math.ceil(px * width / PREVIEW_WIDTH - 1e-9)


@dataclass(frozen=True)
class TextItem:
    """One piece of text as drawn: for tests that check sizes and overlaps from layout data."""

    text: str
    px: int  # font size in pixels
    box: tuple[int, int, int, int]  # drawn bounding box
    where: str = ""  # which part of the picture ("legend", "hand", "sheet", ...)


@functools.lru_cache(maxsize=4096)
def text_mask(text: str, fnt: Font, anchor: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """`text` rendered once as an "L" mask, with its box relative to the anchor point. The
    legends redraw the same names, words and small numbers on every render; pasting a cached
    mask is several times faster than laying out and rasterizing the text again."""
    x0, y0, x1, y1 = (int(v) for v in fnt.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=fnt, fill=255, anchor=anchor)
    return mask, (x0, y0, x1, y1)


class Writer:
    """Draws text and remembers what it drew (`items`), so that tests read the layout rather
    than the pixels. Text without a halo is pasted from cached masks (`text_mask`) at whole
    pixels."""

    def __init__(self, draw: ImageDraw.ImageDraw, where: str = "", image: Image.Image | None = None) -> None:
        self.draw = draw
        self.image = image
        self.where = where
        self.items: list[TextItem] = []

    def text(self, xy: tuple[float, float], text: str, fnt: Font, fill: RGB, anchor: str = "la",
             halo: RGB | None = None, halo_width: int = 2, where: str | None = None) -> tuple[int, int, int, int]:
        """Draw `text` (with an optional halo) and return its bounding box."""
        if not text:
            return (round(xy[0]), round(xy[1]), round(xy[0]), round(xy[1]))
        if halo is None and self.image is not None:
            mask, (x0, y0, x1, y1) = text_mask(text, fnt, anchor)
            x, y = round(xy[0]), round(xy[1])
            paste(self.image, fill, (x + x0, y + y0), mask)
            ibox = (x + x0, y + y0, x + x1, y + y1)
        else:
            draw_text(self.draw, xy, text, fnt, fill, halo=halo, halo_width=halo_width, anchor=anchor)
            box = self.draw.textbbox(xy, text, font=fnt, anchor=anchor)
            ibox = (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
        self.items.append(TextItem(text, int(fnt.size), ibox, self.where if where is None else where))
        return ibox
