"""Golden-image tests: each picture is compared with a stored PNG, within a pixel tolerance.

A failure writes the new picture next to the golden one as ``<name>.new.png`` (and a diff
as ``<name>.diff.png``) for inspection. Regenerate after an intended change with

    RENDER_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/render/test_render_golden.py

and look at every changed picture before committing it (docs/rendering.md).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.maps import available_maps
from render.board import render_board
from render.hand import render_hand
from render.offer import render_offer
from render.scores import render_scores
from tools.samples import sample_offer, sample_view

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("RENDER_GOLDEN_UPDATE") == "1"

# Tolerance: FreeType or zlib versions may move a few anti-aliased pixels, never the picture.
MAX_MEAN_DIFF = 1.5  # mean absolute difference per channel, 0..255
MAX_CHANGED_SHARE = 0.01  # share of pixels whose difference (as grey level) exceeds CHANGED_LEVEL
CHANGED_LEVEL = 24


def compare(name: str, png: bytes) -> None:
    path = GOLDEN / f"{name}.png"
    new = Image.open(io.BytesIO(png)).convert("RGB")
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden image {path.name}; run with RENDER_GOLDEN_UPDATE=1 to create it")
        path.write_bytes(png)
        return
    old = Image.open(path).convert("RGB")
    failure = None
    if old.size != new.size:
        failure = f"size {new.size} != golden {old.size}"
    else:
        diff = ImageChops.difference(old, new)
        mean = sum(ImageStat.Stat(diff).mean) / 3
        changed = diff.convert("L").point(lambda v: 255 if v > CHANGED_LEVEL else 0)
        share = ImageStat.Stat(changed).mean[0] / 255
        if mean > MAX_MEAN_DIFF or share > MAX_CHANGED_SHARE:
            failure = f"mean difference {mean:.2f} (max {MAX_MEAN_DIFF}), changed pixels {share:.2%} " \
                      f"(max {MAX_CHANGED_SHARE:.0%})"
            diff.point(lambda v: min(255, v * 4)).save(GOLDEN / f"{name}.diff.png")
    if failure:
        (GOLDEN / f"{name}.new.png").write_bytes(png)
        pytest.fail(f"{name}: {failure}; see tests/render/golden/{name}.new.png")


SHIPPED = available_maps()  # every map: usa, europe, nordic, germany, ussr, alsace


@pytest.mark.parametrize("map_id", SHIPPED)
def test_mid_game_board(map_id: str) -> None:
    view = sample_view(map_id, players=4, seed=3)
    last = sorted(view.route_owner)[0]
    compare(f"board_{map_id}", render_board(view, highlight_routes=[last]).png)


def test_dice_board() -> None:
    """A dice table: the roll in the status box, each player's route tokens, no card counts."""
    view = sample_view("europe", players=5, seed=3, dice=True)
    compare("board_europe_dice", render_board(view, highlight_routes=[sorted(view.route_owner)[0]]).png)


def test_colour_blind_board() -> None:
    view = sample_view("europe", players=5, seed=7)
    city = sorted(view.stations)[0] if view.stations else None
    compare("board_europe_colorblind", render_board(view, colorblind=True, width=1200,
                                                    highlight_cities=[city] if city else []).png)


@pytest.mark.parametrize("map_id", ["europe", "germany"])
def test_hand(map_id: str) -> None:
    compare(f"hand_{map_id}", render_hand(sample_view(map_id, players=3, seed=4, seat=1)).png)


def test_alsace_hand() -> None:
    """Tickets completed and open, and tourist cards visited and not yet."""
    compare("hand_alsace", render_hand(sample_view("alsace", players=3, seed=21, seat=1, claimed_share=0.3)).png)


def test_final_scores() -> None:
    compare("scores_europe", render_scores(sample_view("europe", players=4, seed=2, over=True)).png)


def test_five_player_alsace_final_sheet() -> None:
    """Tourist cards in their own columns, the nine bonuses gathered and listed by name."""
    compare("scores_alsace", render_scores(sample_view("alsace", players=5, seed=5, over=True)).png)


@pytest.mark.parametrize("map_id", SHIPPED)
def test_ticket_offer(map_id: str) -> None:
    """A later draw: the offered tickets lettered on the map (Germany's short and long, Alsace's
    tourist cards too), beside the tickets held and the player's routes."""
    view = sample_offer(map_id, players=3, seed=4, seat=1, cards=4 if map_id == "germany" else 3)
    compare(f"offer_{map_id}", render_offer(view).png)


# One map per language, drawn in it (issue 28): the words of the legend and key, the score
# sheet and the hand come from the catalogues; English stays as the pictures above.
IN_LANGUAGES = [("de", "board", "germany"), ("fr", "scores", "alsace"), ("ru", "board", "ussr"),
                ("sv", "hand", "nordic")]


@pytest.mark.parametrize("code,kind,map_id", IN_LANGUAGES)
def test_a_picture_in_each_language(code: str, kind: str, map_id: str) -> None:
    from bot_app.lang.pictures import picture_words
    from render.words import use

    with use(picture_words(code)):
        if kind == "board":
            view = sample_view(map_id, players=4, seed=3)
            png = render_board(view, highlight_routes=[sorted(view.route_owner)[0]]).png
        elif kind == "scores":
            png = render_scores(sample_view(map_id, players=5, seed=5, over=True)).png
        else:
            png = render_hand(sample_view(map_id, players=3, seed=4, seat=1)).png
    compare(f"{kind}_{map_id}_{code}", png)
