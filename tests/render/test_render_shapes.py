"""Solid shapes rasterized once and pasted (render/paste.py): the same pixels as ImageDraw
drawing them in their colours, on a background already drawn on."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.paste import paste_shape, rounded_box, shape_mask


def background() -> Image.Image:
    img = Image.new("RGB", (120, 90), (240, 235, 220))
    ImageDraw.Draw(img).ellipse((10, 10, 100, 70), fill=(40, 90, 200))
    return img


def test_a_rounded_box_from_masks_is_imagedraws_rounded_rectangle() -> None:
    for box, radius, width in (((5, 6, 60, 30), 5, 2), ((20, 40, 110, 85), 9, 3), ((0, 0, 12, 8), 2, 1)):
        drawn, pasted = background(), background()
        ImageDraw.Draw(drawn).rounded_rectangle(box, radius=radius, fill=(126, 63, 186), outline=(62, 24, 100),
                                                width=width)
        rounded_box(pasted, box, radius, (126, 63, 186), (62, 24, 100), width)
        assert pasted.tobytes() == drawn.tobytes()


def test_a_rounded_box_partly_outside_the_picture_is_drawn_by_imagedraw() -> None:
    drawn, pasted = background(), background()
    ImageDraw.Draw(drawn).rounded_rectangle((100, 70, 140, 100), radius=4, fill=(1, 2, 3), outline=(9, 9, 9), width=2)
    rounded_box(pasted, (100, 70, 140, 100), 4, (1, 2, 3), (9, 9, 9), 2)
    assert pasted.tobytes() == drawn.tobytes()


def test_a_curved_line_and_a_polygon_filled_from_their_masks_are_the_shapes_drawn() -> None:
    track = [(8.3, 12.7), (40.5, 30.1), (70.2, 22.9), (111.6, 80.4)]
    spaces = [[(20.5, 60.2), (44.1, 52.8), (47.9, 64.4), (24.0, 71.7)]]
    drawn, pasted = background(), background()
    d = ImageDraw.Draw(drawn)
    d.line(track, fill=(255, 255, 255), width=12, joint="curve")
    d.line(track, fill=(230, 40, 30), width=8, joint="curve")
    d.polygon(spaces[0], fill=(128, 128, 132))
    cache: dict = {}
    for w, ink in ((12, (255, 255, 255)), (8, (230, 40, 30))):
        paste_shape(pasted, ink, shape_mask(cache, ("way", w), pasted.size,
                                            lambda dr, w=w: dr.line(track, fill=255, width=w, joint="curve")))
    paste_shape(pasted, (128, 128, 132), shape_mask(cache, "space", pasted.size,
                                                    lambda dr: dr.polygon(spaces[0], fill=255)))
    assert pasted.tobytes() == drawn.tobytes()
    assert set(cache) == {("way", 12), ("way", 8), "space"}  # each rasterized once, kept
