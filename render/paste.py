"""Pasting small sprites and text masks fast.

A board pastes a few hundred small things (each train car, every piece of the legend's text,
icons, stations); Pillow's `Image.paste` checks and normalises its arguments in Python each
time, which took longer than pasting a car. `paste` hands them to Pillow's core at once: the
same pixels, for the cases the pictures use (a colour or an image of the picture's own mode —
or RGBA onto RGB — through an "L", "1" or RGBA mask). Each paste notes its box on a tracked
picture (`render.dirty`), so that a board quantizes only where it was drawn on.
"""

from __future__ import annotations

from PIL import Image

from render.dirty import mark

Colour = tuple[int, ...]


def paste(img: Image.Image, source: Colour | Image.Image, origin: tuple[int, int], mask: Image.Image) -> None:
    """`img.paste(source, origin, mask)`: `source` (a colour, or an image as big as `mask`)
    through `mask`, its top left corner at `origin` (whole pixels)."""
    x, y = origin
    w, h = mask.size
    box = (x, y, x + w, y + h)
    mark(img, box)
    if isinstance(source, Image.Image):
        if source.mode != img.mode and not (img.mode == "RGB" and source.mode == "RGBA"):
            img.paste(source, box, mask)  # a conversion first: Pillow's own path
            return
        img.im.paste(source.im, box, mask.im)
    else:
        img.im.paste(source, box, mask.im)
