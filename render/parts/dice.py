"""The Dice Expansion: the roll of the player to move in the legend's status box, each
player's route tokens in their legend cell, and the player's own dice and tokens in the hand.

A dice table has no train cards (the card modules are dropped), so no cell says "0 cards":
the tokens are what a dice player holds between turns."""

from __future__ import annotations

from engine.rules.dice.faces import DOUBLE, SINGLE
from engine.view import View
from render import palette as P
from render.icons import die_kind, icon_width, paste_icon
from render.parts.base import Badge, DiceRoll, HandBlock, HandContext, PicturePart, register
from render.viewdata import dice_of
from render.words import tr, tr_n

FACE_WORD = {"single": "single", "double": "double", "station": "station", "wild": "wild"}


@register("dice_roll")
class Dice(PicturePart):
    """The dice and the route tokens (all public)."""

    def status(self, view: View) -> list[DiceRoll]:
        if view.status != "playing":
            return []
        held = dice_of(view, view.current)
        if not held or not held[0]:
            return []
        return [DiceRoll(view.current, tuple(held[0]), "Dice")]

    def badges(self, view: View, seat: int) -> list[Badge]:
        held = dice_of(view, seat)
        if held is None:
            return []
        tokens = held[1]
        return [Badge(f"token_{kind}", tokens.get(kind, 0),
                      _tokens(kind, tokens.get(kind, 0)))
                for kind in (SINGLE, DOUBLE)]

    def hand_blocks(self, ctx: HandContext) -> list[HandBlock]:
        held = dice_of(ctx.view, ctx.seat)
        if held is None:
            return []
        return [DiceBlock(held[0], held[1])]


class DiceBlock(HandBlock):
    """The dice not yet used this turn (with each face named) and the route tokens."""

    title = "Dice and route tokens"

    def __init__(self, faces: list[str], tokens: dict[str, int]) -> None:
        self.faces = faces
        self.tokens = tokens
        self.title = tr("picture.hand.dice", "Dice and route tokens")
        self.note = (tr_n("picture.hand.dice_to_use", len(faces), "{n} dice to use", "{n} dice to use") if faces
                     else tr("picture.hand.dice_roll", "you roll at the start of your turn"))

    def _die(self, ctx: HandContext) -> int:
        return round(ctx.text_px * 2.6)

    def height(self, ctx: HandContext, width: int) -> int:
        die = self._die(ctx)
        rows = (die + round(ctx.text_px * 1.5)) if self.faces else 0
        return rows + round(ctx.text_px * 2.2)

    def draw(self, ctx: HandContext, x: int, y: int, width: int) -> None:
        die = self._die(ctx)
        w = ctx.writer
        if self.faces:
            step = max(die + 10, max(round(ctx.body.getlength(_face(f))) for f in FACE_WORD) + 10)
            for i, face in enumerate(self.faces):
                cx = x + i * step + step / 2
                paste_icon(ctx.img, die_kind(face), (cx - die / 2, y), die)
                w.text((cx, y + die + 4), _face(face), ctx.body, P.INK, anchor="mt")
            y += die + round(ctx.text_px * 1.5)
        size = round(ctx.text_px * 1.6)
        cx = x
        for kind in (SINGLE, DOUBLE):
            n = self.tokens.get(kind, 0)
            paste_icon(ctx.img, f"token_{kind}", (cx, y), size)
            cx += icon_width(f"token_{kind}", size) + 8
            box = w.text((cx, y + size / 2), _tokens(kind, n), ctx.body,
                         P.INK if n else P.INK_SOFT, anchor="lm")
            cx = box[2] + round(ctx.text_px * 1.4)


def _face(face: str) -> str:
    """A die face's word under it, in the picture's language."""
    return tr(f"picture.dice.{face}", FACE_WORD.get(face, face.replace("_", " ")))


def _tokens(kind: str, n: int) -> str:
    """"3 single tokens", in the picture's language."""
    return tr_n(f"picture.tokens.{kind}", n, f"{{n}} {kind} token", f"{{n}} {kind} tokens")
