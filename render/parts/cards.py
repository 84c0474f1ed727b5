"""Train cards: a count in each legend cell, and the cards by colour in the hand picture."""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from engine.view import View
from render import palette as P
from render.parts.base import Badge, HandBlock, HandContext, PicturePart, register
from render.text import font
from render.words import tr, tr_n


@register("train_cards")
class TrainCards(PicturePart):
    """The card draw: how many cards each player holds; the player's own cards by colour."""

    def badges(self, view: View, seat: int) -> list[Badge]:
        n = view.players[seat].hand_size
        return [Badge("cards", n, tr_n("picture.badge.cards", n, "{n} train card", "{n} train cards"))]

    def hand_blocks(self, ctx: HandContext) -> list[HandBlock]:
        return [CardGrid(dict(ctx.view.players[ctx.seat].hand or {}))]


@register("burn_five")
class BurnFive(PicturePart):
    """Alsace's "burn five cards" is an action; it leaves nothing to draw."""


@register("used_cards_under_deck")
class UsedCardsUnderDeck(PicturePart):
    """Used cards go under the deck (Alsace): the deck is hidden, nothing to draw."""


CARDS_PER_ROW = 5


class CardGrid(HandBlock):
    """The nine kinds of train card with the count held, five to a row; kinds not held faded."""

    title = "Train cards"

    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts
        total = sum(counts.values())
        self.title = tr("picture.hand.cards", "Train cards")
        self.note = tr("picture.hand.cards_in_hand", "{n} in hand", n=total)

    def _card(self, width: int) -> tuple[int, int, int]:
        gap = max(6, width // 60)
        w = (width - (CARDS_PER_ROW - 1) * gap) // CARDS_PER_ROW
        return w, round(w * 0.62), gap

    def height(self, ctx: HandContext, width: int) -> int:
        w, h, gap = self._card(width)
        rows = -(-len(P.CARD_ORDER) // CARDS_PER_ROW)
        return rows * h + (rows - 1) * gap

    def draw(self, ctx: HandContext, x: int, y: int, width: int) -> None:
        w, h, gap = self._card(width)
        d = ImageDraw.Draw(ctx.img)
        count_f = ctx.big
        letter_f = font(ctx.text_px, "bold")
        for i, card in enumerate(P.CARD_ORDER):
            cx = x + (i % CARDS_PER_ROW) * (w + gap)
            cy = y + (i // CARDS_PER_ROW) * (h + gap)
            draw_card(ctx, d, card, (cx, cy), (w, h), self.counts.get(card, 0), count_f, letter_f)


def draw_card(ctx: HandContext, d: ImageDraw.ImageDraw, card: str, at: tuple[int, int], size: tuple[int, int],
              n: int, count_f: Any, letter_f: Any) -> None:
    """One train card: its colour (a rainbow for the locomotive), the count in a white disc,
    and the colour's letter in the corner (so colour is never the only clue)."""
    x, y = at
    cw, ch = size
    faded = n == 0
    face = card_face(card, faded, at, size)
    ctx.img.im.paste(face.im, (x, y, x + face.width, y + face.height))
    cx, cy = x + cw * 0.58, y + ch / 2
    ctx.writer.text((cx, cy), str(n), count_f, P.INK if not faded else P.INK_SOFT, anchor="mm")
    ink = P.ROUTE_INK[card] if not faded else P.INK_SOFT
    ctx.writer.text((x + max(4, cw // 14), y + ch / 2), P.ROUTE_LETTER[card], letter_f, ink, anchor="lm")


@functools.lru_cache(maxsize=64)  # 18 faces a layout, ~30 KB each
def card_face(card: str, faded: bool, at: tuple[int, int], size: tuple[int, int]) -> Image.Image:
    """A card without its words (its colour, its edge, the white disc), as drawn on the paper
    at `at`: every hand draws the same nine again. Drawn where the card goes (on a scratch
    paper as large as that), so that the shapes are rasterized from the same coordinates."""
    x, y = at
    cw, ch = size
    paper = Image.new("RGB", (x + cw + 1, y + ch + 1), P.PAPER)
    d = ImageDraw.Draw(paper)
    box = (x, y, x + cw, y + ch)
    radius = max(4, ch // 8)
    if card == "loco":
        stripe = cw / len(P.LOCO_STRIPES)
        for i, col in enumerate(P.LOCO_STRIPES):
            c = fade(col) if faded else col
            d.rectangle((x + i * stripe, y, x + (i + 1) * stripe, y + ch), fill=c)
        mask = Image.new("L", (cw + 1, ch + 1), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, cw, ch), radius=radius, fill=255)
        corner = Image.new("L", mask.size, 255)
        corner.paste(0, (0, 0), mask)
        paper.paste(P.PAPER, (x, y), corner)
    else:
        col = P.ROUTE_RGB[card]
        d.rounded_rectangle(box, radius=radius, fill=fade(col) if faded else col)
    d.rounded_rectangle(box, radius=radius, outline=P.PANEL_EDGE if faded else P.SPACE_EDGE, width=2)
    cx, cy = x + cw * 0.58, y + ch / 2
    r = ch * 0.34
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255) if not faded else P.PAPER,
              outline=P.INK if not faded else P.PANEL_EDGE, width=2)
    return paper.crop((x, y, x + cw + 1, y + ch + 1))


def fade(c: P.RGB) -> P.RGB:
    """A colour washed towards the paper (a card kind not held)."""
    paper = P.PAPER
    return (round(c[0] + (paper[0] - c[0]) * 0.72), round(c[1] + (paper[1] - c[1]) * 0.72),
            round(c[2] + (paper[2] - c[2]) * 0.72))
