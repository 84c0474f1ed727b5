"""Small anti-aliased symbols for the legend, the hand and the key: trains, cards, tickets,
tourist cards, stations, route tokens, dice faces and passenger figures.

Each icon is drawn once per kind, size and colour (four times larger, then reduced) and cached
as an RGBA image, so a legend pastes a few dozen of them in well under a millisecond.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from render import palette as P
from render.paste import paste

SUPER = 4
WHITE: P.RGB = (255, 255, 255)

# The kinds of icon, for the tests and the docs.
KINDS = ("trains", "cards", "tickets", "tourist", "station", "token_single", "token_double", "passenger",
         "die_single", "die_double", "die_station", "die_wild", "die_blank", "die_tunnel")


@functools.lru_cache(maxsize=512)
def icon(kind: str, size: int, colour: P.RGB = P.INK, edge: P.RGB = P.INK) -> Image.Image:
    """An RGBA icon `size` pixels high (and about as wide; see `icon_width`)."""
    w = icon_width(kind, size)
    s = SUPER
    big = Image.new("RGBA", (w * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    W, H = w * s, size * s
    lw = max(2, round(size * s * 0.08))
    if kind == "trains":
        # a wagon seen from the side: body and two wheels
        d.rounded_rectangle((lw, H * 0.14, W - lw, H * 0.70), radius=H * 0.1, fill=colour, outline=edge, width=lw)
        for cx in (W * 0.28, W * 0.72):
            r = H * 0.14
            d.ellipse((cx - r, H * 0.84 - r, cx + r, H * 0.84 + r), fill=edge)
    elif kind == "cards":
        # two cards fanned
        d.rounded_rectangle((W * 0.30, lw, W - lw, H * 0.80), radius=H * 0.1, fill=(226, 226, 230), outline=edge,
                            width=lw)
        d.rounded_rectangle((lw, H * 0.18, W * 0.72, H - lw), radius=H * 0.1, fill=WHITE, outline=edge, width=lw)
        stripe = (W * 0.72 - lw * 2) / 3
        for i, c in enumerate(("red", "yellow", "blue")):
            x0 = lw * 2 + i * stripe
            d.rectangle((x0, H * 0.45, x0 + stripe, H * 0.62), fill=P.ROUTE_RGB[c])
    elif kind in ("tickets", "tourist"):
        paper = (246, 236, 206) if kind == "tickets" else (214, 236, 246)
        d.rounded_rectangle((lw, H * 0.16, W - lw, H * 0.84), radius=H * 0.08, fill=paper, outline=edge, width=lw)
        r = H * 0.13
        for cx in (lw, W - lw):  # the notches of a ticket: half circles cut out of each side
            d.ellipse((cx - r, H / 2 - r, cx + r, H / 2 + r), fill=(0, 0, 0, 0), outline=edge, width=lw)
            x0, x1 = (0, cx - lw / 2) if cx < W / 2 else (cx + lw / 2, W)
            d.rectangle((x0, H / 2 - r - 1, x1, H / 2 + r + 1), fill=(0, 0, 0, 0))
        if kind == "tickets":
            d.line((W * 0.28, H * 0.40, W * 0.72, H * 0.40), fill=edge, width=lw)
            d.line((W * 0.28, H * 0.60, W * 0.60, H * 0.60), fill=edge, width=lw)
        else:
            d.polygon(_star(W / 2, H / 2, H * 0.26), fill=(210, 150, 20), outline=edge)
    elif kind == "station":
        m = lw
        house = [(m, H - m), (m, H * 0.42), (W / 2, m), (W - m, H * 0.42), (W - m, H - m)]
        d.polygon(house, fill=colour, outline=edge, width=lw)
    elif kind in ("token_single", "token_double"):
        d.ellipse((lw, lw, W - lw, H - lw), fill=(250, 238, 200), outline=edge, width=lw)
        _cars(d, W / 2, H / 2, H * 0.5, 1 if kind == "token_single" else 2, edge)
    elif kind == "passenger":
        hr = W * 0.26
        d.ellipse((W / 2 - hr, lw, W / 2 + hr, lw + 2 * hr), fill=colour, outline=edge, width=lw)
        d.polygon([(lw, H - lw), (W * 0.2, H * 0.5), (W * 0.8, H * 0.5), (W - lw, H - lw)], fill=colour,
                  outline=edge, width=lw)
    elif kind.startswith("die_"):
        face = kind[4:]
        d.rounded_rectangle((lw, lw, W - lw, H - lw), radius=H * 0.18, fill=WHITE, outline=edge, width=lw)
        if face in ("single", "double"):
            _cars(d, W / 2, H / 2, H * 0.62, 1 if face == "single" else 2, edge)
        elif face == "station":
            inset = H * 0.24
            d.polygon([(inset, H - inset), (inset, H * 0.5), (W / 2, inset), (W - inset, H * 0.5),
                       (W - inset, H - inset)], fill=edge)
        elif face == "wild":
            r = H * 0.3
            n = len(P.LOCO_STRIPES)
            for i, col in enumerate(P.LOCO_STRIPES):
                d.pieslice((W / 2 - r, H / 2 - r, W / 2 + r, H / 2 + r), i * 360 / n - 90, (i + 1) * 360 / n - 90,
                           fill=col)
        elif face == "tunnel":
            r = H * 0.3
            d.chord((W / 2 - r, H / 2 - r * 0.6, W / 2 + r, H / 2 + r * 1.4), 180, 360, fill=edge)
            d.rectangle((W / 2 - r, H / 2 + r * 0.4, W / 2 + r, H / 2 + r * 0.4 + lw), fill=edge)
    else:
        raise ValueError(f"unknown icon {kind!r}")
    return big.resize((w, size), Image.Resampling.LANCZOS)


def icon_width(kind: str, size: int) -> int:
    """The width of an icon `size` pixels high."""
    if kind in ("trains", "cards", "tickets", "tourist"):
        return round(size * 1.3)
    if kind == "passenger":
        return max(4, round(size * 0.7))
    return size


def paste_icon(img: Image.Image, kind: str, at: tuple[float, float], size: int, colour: P.RGB = P.INK,
               edge: P.RGB = P.INK) -> int:
    """Paste an icon with its top-left at `at`; returns its width."""
    ic = icon(kind, size, colour, edge)
    paste(img, ic, (round(at[0]), round(at[1])), ic)
    return ic.width


def die_kind(face: str) -> str:
    """The icon of a die face ("single", "double", "station", "wild", tunnel dice "tunnel",
    "blank")."""
    return f"die_{face}" if f"die_{face}" in KINDS else "die_blank"


def _cars(d: ImageDraw.ImageDraw, cx: float, cy: float, length: float, n: int, ink: P.RGB) -> None:
    """One or two little train cars side by side (a single / double route), upright."""
    w = length * 0.28
    gap = length * 0.12
    total = n * w + (n - 1) * gap
    for i in range(n):
        x0 = cx - total / 2 + i * (w + gap)
        d.rounded_rectangle((x0, cy - length / 2, x0 + w, cy + length / 2), radius=w * 0.25, fill=ink)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + i * 36)
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts
