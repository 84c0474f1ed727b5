"""The replay of a finished game: rebuilt from the seed and the moves, one picture per claim or
station, public views only; an animated GIF of at most 8 MB built in at most 5 s, whose first
and last frames are golden images (a 5-player Germany game, the largest picture)."""

from __future__ import annotations

import dataclasses
import io
from collections import Counter

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from ai.levels import make_ai
from engine.actions import Undo
from engine.events import PUBLIC
from engine.game import actors, apply, legal_actions, new_game, view
from engine.timeline import public_timeline
from engine.undo import can_undo
from render.base_cache import clear_cache
from render.board import render_board
from render.encode import png_bytes
from render.replay import MAX_BYTES, ReplayPicture, render_replay, step_ms
from tests.render.test_render_golden import compare
from tools.samples import NAMES
from tools.selfplay import GameRecord, play_game

SEED = 11


@pytest.fixture(scope="module")
def germany() -> GameRecord:
    """A whole 5-player Germany game between greedy AIs (the largest picture)."""
    record = play_game("germany", 5, SEED, ("greedy",))
    assert record.state.status == "over"
    return record


@pytest.fixture(scope="module")
def germany_steps(germany: GameRecord):
    return public_timeline("germany", 5, SEED, germany.actions, names=NAMES[:5])


@pytest.fixture(scope="module")
def germany_replay(germany_steps) -> ReplayPicture:
    """The replay of that game at the board's width (drawn once for the tests that only read it)."""
    return render_replay(germany_steps)


@dataclasses.dataclass
class Played:
    """A GIF as a viewer plays it: its frame count, each frame's duration, and the first and
    last frames as they are shown (every frame put together with the ones before it)."""

    frames: int
    durations: list[int]
    first: Image.Image
    last: Image.Image


def play(gif: bytes) -> Played:
    """Decode every frame of `gif` in turn, keeping only the first and last as RGB (a 5-player
    Germany replay has hundreds of 1600×1996 frames: all of them as RGB would take gigabytes)."""
    durations: list[int] = []
    first = last = None
    with Image.open(io.BytesIO(gif)) as image:
        for frame in ImageSequence.Iterator(image):
            durations.append(frame.info.get("duration", 0))
            if first is None:
                first = frame.convert("RGB")
        last = image.convert("RGB")
    assert first is not None and last is not None
    return Played(len(durations), durations, first, last)


@pytest.fixture(scope="module")
def germany_played(germany_replay: ReplayPicture) -> Played:
    return play(germany_replay.gif)


def _shown_moves(variant: str, players: int, seed: int, actions, options=None) -> Counter[str]:
    """What the public log says was claimed and built, replayed independently."""
    state, _ = new_game(variant, players, seed, options)
    seen: Counter[str] = Counter()
    for action in actions:
        state, events = apply(state, action)
        for e in events:
            if e.visibility == PUBLIC and e.kind in ("route_claimed", "station_built"):
                seen[e.kind] += 1
    return seen


def test_one_picture_per_claim_and_station_then_the_final_board(germany, germany_steps) -> None:
    steps = germany_steps
    claims = _shown_moves("germany", 5, SEED, germany.actions)["route_claimed"]
    assert len(steps) == claims + 2  # the empty board, each claim, the final board
    first, last = steps[0], steps[-1]
    assert not first.view.route_owner and not first.routes  # the board before the first claim
    assert last.view.status == "over" and not last.routes and last.view.result is not None
    assert dict(last.view.route_owner) == dict(germany.state.route_owner)
    # each step marks the route it added, in its claimer's colour
    for before, step in zip(steps[1:-2], steps[2:-1], strict=True):
        assert len(step.routes) == 1
        assert set(step.view.route_owner) - set(before.view.route_owner) == set(step.routes)
        assert step.view.route_owner[step.routes[0]] == step.seat


def test_stations_have_their_own_pictures_and_everything_shown_is_public() -> None:
    record = play_game("europe", 4, 3, ("random",))
    steps = public_timeline("europe", 4, 3, record.actions)
    seen = _shown_moves("europe", 4, 3, record.actions)
    assert seen["station_built"] > 0
    assert len(steps) == seen["route_claimed"] + seen["station_built"] + 2
    assert sum(len(s.cities) for s in steps) == seen["station_built"]
    for step in steps:
        assert step.view.you is None
        assert all(p.hand is None and p.tickets is None for p in step.view.players)
        assert all(o is None or isinstance(o, int) for o in (step.view.pending.offers or ()))


def test_a_move_taken_back_is_not_in_the_replay() -> None:
    """With the undo option, a claim taken back leaves no picture: the replay shows the game
    that was played."""
    state, _ = new_game("usa", 2, 4, {"undo": True})
    ais = [make_ai("greedy", 1), make_ai("greedy", 2)]
    actions = []
    undone = 0
    while state.status != "over":
        seat = actors(state)[0]
        previous = 1 - seat
        if undone < 3 and can_undo(state, previous) and state.pending.get("kind") == "turn":
            action = Undo(previous)
            undone += 1
        else:
            action = ais[seat].choose(view(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        actions.append(action)
    assert undone == 3
    steps = public_timeline("usa", 2, 4, actions, {"undo": True})
    claims = _shown_moves("usa", 2, 4, actions, {"undo": True})["route_claimed"]
    assert len(steps) == claims - undone + 2
    assert dict(steps[-1].view.route_owner) == dict(state.route_owner)
    claimed = [r for s in steps for r in s.routes]
    assert len(claimed) == len(set(claimed)) == len(state.route_owner)


def test_the_gif_plays_every_picture_and_ends_on_the_final_board(germany_steps, germany_replay,
                                                                 germany_played) -> None:
    pic, played = germany_replay, germany_played
    gif = Image.open(io.BytesIO(pic.gif))
    assert gif.format == "GIF" and gif.size == pic.size and gif.info.get("loop") == 0
    durations = played.durations
    assert sum(durations) >= 5000 + 1200 + step_ms(len(germany_steps) - 2) * (len(germany_steps) - 2) - 100
    assert durations[-1] >= 5000 - 20 * 7  # the final board holds (after its last part, 20 ms each)
    assert played.frames >= pic.frames == len(germany_steps)
    # the frames were written as changes only: put together they are the pictures drawn
    for decoded, drawn in ((played.first, pic.first), (played.last, pic.last)):
        diff = ImageChops.difference(decoded, drawn)
        assert sum(ImageStat.Stat(diff).mean) / 3 < 1.5  # palette rounding only


def test_golden_first_and_last_frames_of_a_five_player_germany_game(germany_played) -> None:
    compare("replay_germany_first", png_bytes(germany_played.first))
    compare("replay_germany_last", png_bytes(germany_played.last))


def test_the_largest_replay_fits_discord(germany) -> None:
    """From the stored moves to the GIF, with the board's base not drawn yet (after a restart):
    the largest game's replay fits Discord's upload limit. Its time (at most 5 s of CPU) is a
    benchmark's figure, not a test's: `bench/bench_replay.py --cpu` prints it."""
    clear_cache()
    steps = public_timeline("germany", 5, SEED, germany.actions, names=NAMES[:5])
    pic = render_replay(steps)
    assert len(pic.gif) <= MAX_BYTES == 8 * 1024 * 1024
    assert pic.frames == len(steps)


def test_a_replay_too_big_is_drawn_narrower(germany_steps, germany_replay) -> None:
    wide = germany_replay
    small = render_replay(germany_steps, max_bytes=len(wide.gif) // 2)
    assert small.size[0] < wide.size[0] and len(small.gif) < len(wide.gif)


def test_a_route_taken_off_the_board_leaves_the_replay(germany_steps) -> None:
    """When a route leaves the board (the USSR Controller), the trains are drawn again: the
    frame is the board picture of that moment, as `/ttr board` would have drawn it."""
    later, earlier = germany_steps[20], germany_steps[8]
    assert set(earlier.view.route_owner) < set(later.view.route_owner)
    steps = [germany_steps[0], later, dataclasses.replace(earlier, routes=())]
    pic = render_replay(steps)
    shown = play(pic.gif).last
    board = render_board(earlier.view).image
    assert sum(ImageStat.Stat(ImageChops.difference(shown, board)).mean) / 3 < 1.5
