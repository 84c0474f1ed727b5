"""Text on the pictures (render/text.py): a name with a halo drawn from cached masks is the
pixels ImageDraw.text draws, wherever it lands between whole pixels."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw, ImageFont

import render.text as text_module
from render.palette import COUNTRY_EDGE, COUNTRY_FILL, INK, LAND
from render.text import draw_text, font


@pytest.mark.parametrize("seed", range(4))
def test_a_name_with_a_halo_is_what_imagedraw_draws(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        pillow = Image.new("RGB", (260, 110), LAND)
        ours = pillow.copy()
        fnt = font(rng.choice([9, 12, 15, 22]), rng.choice(["regular", "bold", "condensed"]))
        text = rng.choice(["Köln", "Tromsø", "Åre", "Saint Petersburg", "Wien", "x", "Zürich 12"])
        xy = (rng.uniform(5, 140), rng.uniform(5, 70))
        anchor = rng.choice(["la", "lm", "mm", "rs"])
        width = rng.choice([1, 2, 3])
        fill, halo = rng.choice([(INK, LAND), (COUNTRY_EDGE, COUNTRY_FILL), (INK, INK)])
        ImageDraw.Draw(pillow).text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=width,
                                    stroke_fill=halo)
        draw_text(ImageDraw.Draw(ours), xy, text, fnt, fill, halo=halo, halo_width=width, anchor=anchor)
        assert ours.tobytes() == pillow.tobytes(), (text, xy, anchor, width)


def test_two_lines_with_a_halo_are_drawn_by_imagedraw() -> None:
    pillow = Image.new("RGB", (120, 80), LAND)
    ours = pillow.copy()
    fnt = font(14, "condensed")
    ImageDraw.Draw(pillow).text((10.3, 8.6), "Saint\nPetersburg", font=fnt, fill=INK, stroke_width=2, stroke_fill=LAND)
    draw_text(ImageDraw.Draw(ours), (10.3, 8.6), "Saint\nPetersburg", fnt, INK, halo=LAND)
    assert ours.tobytes() == pillow.tobytes()


def test_a_font_measures_a_text_as_freetype_does_and_keeps_a_bounded_number_of_widths() -> None:
    path = str(text_module.FONT_DIR / text_module.FONT_FILES["bold"])
    plain = ImageFont.truetype(path, 15)
    measured = text_module.MeasuredFont(path, 15)
    for text in ["Köln", "12 trains", "Anna — your hand", "Köln"]:  # the last one from memory
        assert measured.getlength(text) == plain.getlength(text)
    assert measured.getlength("Wien", mode="1") == plain.getlength("Wien", mode="1")  # not from memory
    for n in range(text_module.LENGTHS_KEPT + 50):
        measured.getlength(str(n))
    assert len(measured._lengths) == text_module.LENGTHS_KEPT
    beyond = str(text_module.LENGTHS_KEPT + 49)  # measured, not kept: still FreeType's width
    assert beyond not in measured._lengths and measured.getlength(beyond) == plain.getlength(beyond)
