"""The public board as a newcomer reads it: the status box says its words whole on every map
at every width the bot draws a board (the turn post's 1600, the replay's narrower widths); and
in a game too small for double routes, the twin of a claimed track is drawn closed (hatched,
its colour covered) exactly where the rules close it, with the key saying what that means.
Read from the layout's placed text and from the pixels of the tracks."""

from __future__ import annotations

import dataclasses
import math

import pytest
from PIL import Image

from engine.game import load_game
from engine.game import view as engine_view
from engine.maps import available_maps, load_map
from engine.rules.routes import closed_routes
from engine.view import View
from render import palette as P
from render.board import closed_tracks, render_board
from render.geometry import board_layout
from render.legend import draw_legend, key_entries, legend_boxes, table_entries
from render.parts import picture_parts
from render.replay import NARROWER, WIDTH
from tools.samples import sample_view
from tools.selfplay import play_game

WIDTHS = (WIDTH, *NARROWER)


def _statuses(view: View) -> list[View]:
    """The view at the start (everyone choosing tickets), mid-game, in each turn of a last
    round, and over."""
    players = len(view.players)
    over = dataclasses.replace(view, status="over", result={"winners": [0], "sheets": []})
    return [dataclasses.replace(view, status="setup"), view, over,
            *(dataclasses.replace(view, final_turns_left=left) for left in range(1, players + 1))]


@pytest.mark.parametrize("map_id", available_maps())
def test_the_status_box_says_its_words_whole_at_every_width(map_id: str) -> None:
    """The legend as the board draws it (`draw_legend` on the board's layout, without the map)."""
    players = 3 if map_id == "nordic" else 5
    game_map = load_map(map_id)
    for width in WIDTHS:
        layout = board_layout(game_map, width)
        for view in _statuses(sample_view(game_map, players=players, seed=3)):
            parts = picture_parts(view)
            entries = key_entries(game_map, parts)
            texts = draw_legend(Image.new("RGB", (layout.width, layout.height)), layout, game_map, view, parts, entries)
            box = legend_boxes(layout, players, entries, table_entries(view, game_map)).info
            status = [t for t in texts if box[0] <= t.box[0] and t.box[2] <= box[2] + 1
                      and box[1] <= t.box[1] and t.box[3] <= box[3] + 1]
            assert len(status) >= 2, (map_id, width, view.status)
            cut = [t.text for t in status if "…" in t.text]
            assert cut == [], (map_id, width, view.status, view.final_turns_left, cut)
            if view.status == "setup":
                assert [t.text for t in status][:2] == ["Choosing tickets", "everyone at once"]


def _track_pixels(pic, route_id: str) -> list[tuple[int, int, int]]:
    """The picture's pixels at the middle of each space of a route."""
    spaces = pic.base.geom.routes[route_id].spaces
    return [pic.image.getpixel((round(sp.center[0]), round(sp.center[1]))) for sp in spaces]


def _looks_closed(pixels: list[tuple[int, int, int]]) -> bool:
    near = [min(math.dist(p, P.CLOSED_FILL), math.dist(p, P.CLOSED_HATCH)) for p in pixels]
    return all(d < 30 for d in near)


def _claim_one_track_of_each_double(view: View, limit: int = 6) -> tuple[View, list[tuple[str, str]]]:
    """The view with one track of a few double routes newly claimed: (claimed, its twin)."""
    game_map = load_map(view.map_id)
    owner = dict(view.route_owner)
    pairs = []
    for route in sorted(game_map.routes.values(), key=lambda r: r.index):
        twins = game_map.parallel_tracks(route.id)
        if len(twins) != 1 or route.id in owner or any(t.id in owner for t in twins):
            continue
        owner[route.id] = len(pairs) % len(view.players)
        pairs.append((route.id, twins[0].id))
        if len(pairs) == limit:
            break
    return dataclasses.replace(view, route_owner=owner), pairs


@pytest.mark.parametrize("map_id", ["usa", "europe", "nordic", "germany"])
def test_a_small_games_closed_twin_is_drawn_closed_and_a_larger_games_stays_open(map_id: str) -> None:
    for players in (2, 3, 4):
        view, pairs = _claim_one_track_of_each_double(sample_view(map_id, players=players, seed=5))
        assert pairs
        closing = players < view.doubles_from_players
        pic = render_board(view)
        for claimed, twin in pairs:
            assert (twin in closed_tracks(view, load_map(map_id))) is closing
            assert _looks_closed(_track_pixels(pic, twin)) is closing, (map_id, players, twin)
            assert not _looks_closed(_track_pixels(pic, claimed))  # the claimed track shows its owner's train
        # the key explains the hatching at the tables it applies to (drawn per render: the
        # map's cached key is the same for every table)
        assert ("closed track" in [t.text for t in pic.texts if t.where == "legend"]) is closing


@pytest.mark.parametrize("variant,players", [("europe", 2), ("usa", 3), ("nordic", 2)])
def test_the_board_closes_exactly_the_tracks_the_rules_close(variant: str, players: int) -> None:
    """After a whole game of computer players, the tracks drawn closed are those the engine
    refuses to every player because a twin is claimed (engine/rules/routes.py)."""
    state = play_game(variant, players, 3, ("greedy",)).state
    game = load_game(state)
    owned = set(state.route_owner)
    refused_to_all = set.intersection(*(closed_routes(game, seat) for seat in range(players))) - owned
    assert refused_to_all
    assert set(closed_tracks(engine_view(state, None), game.map)) == refused_to_all


def test_overlapping_rings_of_a_last_move_lie_the_same_way_in_every_process() -> None:
    """Three open routes out of Amsterdam and two cities marked: their rings overlap, and the
    picture is the same whatever order Python's string hashing gives a set."""
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import hashlib\n"
        "from engine.maps import load_map\n"
        "from render.board import render_board\n"
        "from tools.samples import sample_view\n"
        "gm = load_map('europe')\n"
        "v = sample_view(gm, players=2, seed=1, claimed_share=0.15)\n"
        "pic = render_board(v, gm, highlight_routes=sorted(gm.routes)[:3], highlight_cities=sorted(gm.cities)[:2])\n"
        "print(hashlib.sha256(pic.png).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    digests = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    gm = load_map("europe")
    v = sample_view(gm, players=2, seed=1, claimed_share=0.15)
    here = render_board(v, gm, highlight_routes=sorted(gm.routes)[:3][::-1], highlight_cities=sorted(gm.cities)[:2])
    assert digests == {hashlib.sha256(here.png).hexdigest()}
