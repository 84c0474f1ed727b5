"""The renderer's contract: palette PNGs within size, public views only, tickets marked
right, shortest ways reused from the AI, fonts with accents, and rendering off the loop."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from engine.maps import load_map
from engine.paths import shortest_open_path
from render import render_async, render_board, render_hand, render_scores
from render.hand import ticket_statuses
from render.text import FONT_DIR, FONT_FILES, font
from tools.samples import sample_view


@pytest.mark.parametrize("map_id", ["usa", "europe", "nordic", "germany"])
def test_board_is_a_small_palette_png(map_id: str) -> None:
    pic = render_board(sample_view(map_id, players=5, seed=9))
    img = Image.open(io.BytesIO(pic.png))
    assert img.mode == "P"
    assert img.width == 1600
    assert len(pic.png) <= 500 * 1024


def test_board_width_is_honoured() -> None:
    for width in (800, 1000, 1600):
        assert Image.open(io.BytesIO(render_board(sample_view("usa"), width=width).png)).width == width


def test_hand_needs_a_private_view() -> None:
    with pytest.raises(ValueError):
        render_hand(sample_view("usa", seat=None))


def test_public_board_ignores_what_it_must_not_show() -> None:
    """The board reads only public fields: a view with hands and tickets as counts renders,
    and the result is identical whoever's private fields are filled in."""
    public = sample_view("europe", players=3, seed=5)
    private = sample_view("europe", players=3, seed=5, seat=0)
    assert private.players[0].hand and private.players[0].tickets
    assert render_board(public).png == render_board(dataclasses.replace(private, you=None)).png


def test_ticket_marks_and_shortest_ways() -> None:
    game_map = load_map("usa")
    # a sample whose player has finished a ticket and has others open
    view = next(v for v in (sample_view(game_map, players=3, seed=s, seat=1) for s in range(1, 30))
                if len(ticket_statuses(v, game_map, 1)) > sum(t.completed for t in ticket_statuses(v, game_map, 1)) > 0)
    statuses = ticket_statuses(view, game_map, 1)
    assert len(statuses) == len(view.players[1].tickets or ())
    for t in statuses:
        if t.completed:
            assert t.trains_left == 0
            continue
        found = shortest_open_path(view, game_map, 1, t.a, t.b)
        assert (t.trains_left, list(t.path)) == ((found[0], found[1]) if found else (None, []))


def test_final_scores_need_a_result() -> None:
    with pytest.raises(ValueError):
        render_scores(sample_view("usa"))
    assert render_scores(sample_view("usa", over=True)).png.startswith(b"\x89PNG")


def test_shipped_font_has_the_maps_letters() -> None:
    assert all((FONT_DIR / name).exists() for name in FONT_FILES.values())
    f = font(20, "condensed")
    assert "DejaVu" in f.getname()[0]
    for name in ("Köln", "Tromsø", "Århus", "Österreich", "Montréal", "Dänemark"):
        img = Image.new("L", (200, 40))
        from PIL import ImageDraw

        ImageDraw.Draw(img).text((0, 0), name, font=f, fill=255)
        notdef = Image.new("L", (200, 40))
        ImageDraw.Draw(notdef).text((0, 0), "\uffff" * len(name), font=f, fill=255)
        assert img.tobytes() != notdef.tobytes()


async def test_render_async_runs_off_the_loop() -> None:
    """In threads (the pool's fallback, which takes any function); tests/render/test_render_pool.py
    covers the worker processes."""
    import threading

    from render import RenderPool

    seen = []

    def work(view):
        seen.append(threading.current_thread().name)
        return render_board(view, width=800)

    threads = RenderPool(1, processes=False)
    try:
        pic = await render_async(work, sample_view("nordic", players=3), pool=threads)
    finally:
        threads.close()
    assert pic.png.startswith(b"\x89PNG")
    assert seen and seen[0] != threading.main_thread().name


def test_a_dice_hand_shows_dice_and_tokens_instead_of_train_cards() -> None:
    """The hand's blocks come from the game's rule modules: a dice table (options dice) has
    the dice part and no train-card part."""
    plain = render_hand(sample_view("usa", players=2, seed=3, seat=0))
    dice = render_hand(sample_view("usa", players=2, seed=3, seat=0, dice=True))
    plain_text = [t.text for t in plain.texts]
    dice_text = [t.text for t in dice.texts]
    assert "Train cards" in plain_text and "Dice and route tokens" not in plain_text
    assert "Dice and route tokens" in dice_text and "Train cards" not in dice_text
    assert any(t.endswith("single tokens") or t.endswith("single token") for t in dice_text)
