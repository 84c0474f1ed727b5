"""A large board drawn into the scratch kept with its base (render/scratch.py): many boards in
a row through the same kept picture — claims, the last move's glow and rings, passengers
collected, legend cells changing, game over, colour-blind tags, smaller boards and other
widths in between — each decode to the board drawn fresh on a copy of the base, and the kept
picture and scanlines are the base's again after every board. The kept picture is never the
one a caller is handed."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

import pytest
from PIL import Image

from engine.game import view as public_view
from engine.maps import load_map
from engine.view import View
from render import scratch
from render.board import board_png, render_board
from render.jobs import board_png as job_board_png
from tests.render.test_render_passenger_groups import _collected
from tools.samples import sample_view
from tools.selfplay import play_game


def _played(variant: str, players: int, seed: int, every: int) -> list[tuple[View, list[str]]]:
    """The public board after every `every`-th turn of a random-AI game, its claim marked."""
    turns: list[tuple[View, list[str]]] = []

    def seen(before, action, after, events) -> None:  # noqa: ANN001
        if action is not None and (after.current != before.current or after.game_over):
            route = getattr(action, "route", None)
            view = public_view(after, None)
            turns.append((view, [route] if isinstance(route, str) and route in view.route_owner else []))

    play_game(variant, players, seed, check=seen)
    return turns[::every] + turns[-1:]  # the game over too


def _pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def _check(view: View, marked: list[str], width: int = 1600, colorblind: bool = False,
           cities: tuple[str, ...] = ()) -> bool:
    """Draw the board through the scratch and fresh; True when it went through a scratch."""
    got = board_png(view, width=width, highlight_routes=marked, highlight_cities=cities, colorblind=colorblind)
    fresh = render_board(view, width=width, highlight_routes=marked, highlight_cities=cities,
                         colorblind=colorblind)
    assert got == fresh.png
    assert _pixels(got) == _pixels(fresh.png)
    kept = scratch.kept(fresh.base)
    if kept is None:
        return False
    assert kept.image.tobytes() == fresh.base.image.tobytes()  # put back over all it drew
    assert bytes(kept.lines.buffer) == fresh.base.rows().data
    assert kept.image is not fresh.image
    return True


@pytest.fixture
def every_board(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every board through a scratch, whatever its size (the small maps and widths too)."""
    scratch.clear()
    monkeypatch.setattr(scratch, "MIN_PIXELS", 0)
    yield
    scratch.clear()


def test_boards_of_games_in_a_row_are_the_boards_drawn_fresh(every_board: None) -> None:
    germany = _played("germany", 4, 500, 4)
    nordic = _played("nordic", 3, 501, 6)
    usa = _played("usa", 4, 502, 8)
    through = drawn = 0
    for i, (view, marked) in enumerate(germany):
        through += _check(view, marked)
        if i % 3 == 0:  # passengers collected, other routes glowing, a city ringed
            through += _check(_collected(view, 1 + i % 7), sorted(view.route_owner)[-2:],
                              cities=tuple(sorted(load_map("germany").cities))[i % 5:i % 5 + 1])
        if i % 4 == 1 and i // 4 < len(nordic):  # another large map in between
            through += _check(*nordic[i // 4])
        if i % 5 == 2 and i // 5 < len(usa):  # a smaller board after a larger one, other widths
            v, m = usa[i // 5]
            through += _check(v, m, width=(800, 1200, 1600)[i % 3])
            through += _check(view, marked, width=1200, colorblind=True)
            drawn += 2
        drawn += 1 + (i % 3 == 0) + (i % 4 == 1 and i // 4 < len(nordic))
    assert through == drawn >= 2 * len(germany)  # every one of them through a scratch
    assert len(scratch._KEPT) <= scratch.MAX_KEPT  # the least recently used let go


def test_only_large_boards_keep_a_scratch() -> None:
    scratch.clear()
    try:
        for map_id, large in (("germany", True), ("nordic", True), ("usa", False), ("europe", False)):
            view = sample_view(load_map(map_id), players=4, seed=0)
            assert _check(view, sorted(view.route_owner)[:1]) is large
        assert not _check(sample_view(load_map("germany"), players=4, seed=1), [], width=1200)
    finally:
        scratch.clear()


def test_the_job_draws_through_the_scratch_and_hands_out_bytes_only() -> None:
    scratch.clear()
    try:
        view = sample_view(load_map("germany"), players=4, seed=3)
        handed = render_board(view)  # a caller that keeps the picture: a copy of its own
        before = handed.image.tobytes()
        png = job_board_png(view, routes=sorted(view.route_owner)[:2])
        kept = scratch.kept(handed.base)
        assert kept is not None and kept.image is not handed.image
        assert isinstance(png, bytes) and png == render_board(view, highlight_routes=sorted(view.route_owner)[:2]).png
        assert handed.image.tobytes() == before
    finally:
        scratch.clear()


def test_a_scratch_in_use_draws_on_a_copy_and_a_failed_board_drops_it(monkeypatch: pytest.MonkeyPatch) -> None:
    scratch.clear()
    try:
        view = sample_view(load_map("nordic"), players=4, seed=2)
        board_png(view)
        base = render_board(view).base
        kept = scratch.kept(base)
        assert kept is not None
        assert kept.lock.acquire(blocking=False)  # another thread's board
        try:
            assert board_png(view) == render_board(view).png
        finally:
            kept.lock.release()
        import render.board as board

        def broken(*args, **kwargs):  # noqa: ANN002, ANN003
            raise RuntimeError("drawn halfway")

        monkeypatch.setattr(board, "draw_game", broken)
        with pytest.raises(RuntimeError):
            board_png(view)
        assert scratch.kept(base) is None
        assert not kept.lock.locked()
        monkeypatch.undo()
        assert board_png(view) == render_board(view).png
        assert scratch.kept(base) is not None
    finally:
        scratch.clear()


def test_boards_drawn_in_threads_at_once_are_the_boards_drawn_fresh() -> None:
    scratch.clear()
    try:
        views = [sample_view(load_map("germany"), players=4, seed=s) for s in range(4)]
        want = [render_board(v).png for v in views]
        got: dict[int, bytes] = {}

        def draw(i: int) -> None:
            for _ in range(3):
                got[i] = board_png(views[i])

        threads = [threading.Thread(target=draw, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [got[i] for i in range(4)] == want
    finally:
        scratch.clear()
