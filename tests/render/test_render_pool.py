"""Pictures drawn in worker processes (render/pool.py, render/jobs.py) and the caches that make
them cheap: the same bytes as drawing in this process; a worker that dies is replaced; recent
pictures and placed hand labels kept in bounded LRUs; and at the bot, a game whose board is
being drawn while three more moves are made gets one more picture (the newest), with every
post it owes settled."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from ai.levels import make_ai
from app import Actor
from bot_app.presentation.render_hooks import PictureCache, Renderer
from engine.maps import load_map
from engine.rulesets import available_variants
from engine.view import View
from render import RenderPool, render_board, render_hand, render_scores
from render.hand import _mini_base, mini_labels
from render.jobs import board_png, hand_png, preparing, scores_png, worker_pid
from render.layout import obstacle_grid, place_labels
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer
from tools.samples import sample_view


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    """One worker process that prepared the USA map's bases when it started."""
    p = RenderPool(1, prepare=("usa",))
    yield p
    p.close()


# --- the worker processes -----------------------------------------------------------------------


async def test_a_worker_draws_the_same_bytes_as_this_process(pool: RenderPool):
    """Board (with the last move and colour-blind marks), hand and final scores: byte for byte
    what render_* gives here, from a worker whose labels were prepared in advance."""
    board_view = sample_view("usa", players=4, seed=5)
    route = sorted(board_view.route_owner)[0]
    assert await pool.run(board_png, board_view, [route], ["denver"], True) == render_board(
        board_view, highlight_routes=[route], highlight_cities=["denver"], colorblind=True).png
    for seed in (1, 2, 3):
        hand_view = sample_view("usa", players=3, seed=seed, seat=seed % 3)
        assert await pool.run(hand_png, hand_view, False) == render_hand(hand_view).png
    over = sample_view("usa", players=3, seed=4, over=True)
    assert await pool.run(scores_png, over) == render_scores(over).png
    assert await pool.run(worker_pid) != os.getpid()  # drawn in another process


async def test_a_new_worker_takes_jobs_while_it_prepares_every_map_and_then_gives_memory_back():
    fresh = RenderPool(1)  # every variant's bases: seconds of work
    try:
        assert await fresh.run(preparing) is True  # answered at once, the preparing goes on beside
        view = sample_view("europe", players=3, seed=4)
        assert await fresh.run(board_png, view) == render_board(view).png
        await fresh.prepared()
        assert await fresh.run(preparing) is False
        # all six maps prepared, the freed memory given back (render/memory.py): <= 200 MB
        (pid,) = fresh.worker_pids()
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            rss_mb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
        assert rss_mb <= 200, f"a render worker with every map prepared holds {rss_mb:.0f} MB"
    finally:
        fresh.close()


async def test_a_killed_worker_is_replaced_and_the_picture_still_comes(pool: RenderPool):
    before = await pool.run(worker_pid)
    restarts = pool.restarts
    os.kill(before, signal.SIGKILL)
    await asyncio.sleep(0.2)
    view = sample_view("usa", players=2, seed=9)
    assert await pool.run(board_png, view) == render_board(view).png
    assert pool.restarts == restarts + 1
    assert await pool.run(worker_pid) != before


async def test_a_job_that_kills_its_worker_every_time_fails_clearly_and_the_pool_goes_on():
    dying = RenderPool(1, prepare=())
    try:
        with pytest.raises(BrokenProcessPool):
            await dying.run(os._exit, 3)  # dies in the middle of the job, twice
        assert dying.restarts == 2
        view = sample_view("nordic", players=2, seed=2)
        assert await dying.run(board_png, view) == render_board(view).png
    finally:
        dying.close()


async def test_no_more_jobs_than_twice_the_workers_are_handed_out_at_once():
    threads = RenderPool(2, processes=False, prepare=())
    running = 0
    most = 0

    def job() -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        import time

        time.sleep(0.02)
        running -= 1

    try:
        await asyncio.gather(*(threads.run(job) for _ in range(12)))
    finally:
        threads.close()
    assert threads.in_flight == 4 and most <= 2  # two threads; the rest waited in the loop


async def test_slow_pictures_have_a_lane_of_their_own_at_a_lower_priority(pool: RenderPool):
    """A replay (here: a job sleeping two seconds, twice) waits in the slow lane: its own
    worker, at a lower priority, one job at a time — while the pictures players wait for go on
    in the other lane meanwhile."""
    import time

    slow = [asyncio.ensure_future(pool.run_slow(time.sleep, 2.0)) for _ in range(2)]
    await asyncio.sleep(0.5)
    done_meanwhile = [await pool.run(worker_pid) for _ in range(5)]
    assert not all(task.done() for task in slow)  # the turn posts did not wait for the replays
    await asyncio.gather(*slow)
    assert set(done_meanwhile) == set(pool.worker_pids())
    assert pool.slow_worker_pids() and not set(pool.slow_worker_pids()) & set(pool.worker_pids())
    if hasattr(os, "SCHED_IDLE"):
        assert await pool.run(os.sched_getscheduler, 0) == os.SCHED_OTHER
        assert await pool.run_slow(os.sched_getscheduler, 0) == os.SCHED_IDLE
    else:
        assert await pool.run_slow(os.nice, 0) == 19


# --- the caches -----------------------------------------------------------------------------------


async def test_the_renderer_gives_the_same_bytes_for_the_same_request_without_drawing_again():
    threads = RenderPool(1, processes=False, prepare=())
    renderer = Renderer(pool=threads, cache_size=2)
    try:
        hand_view = sample_view("europe", players=3, seed=2, seat=1)
        first = await renderer.hand(hand_view)
        assert await renderer.hand(hand_view) is first and renderer.cache.hits == 1
        assert await renderer.hand(hand_view, colorblind=True) != first  # another request
        board_view = sample_view("europe", players=3, seed=2)
        await renderer.board(board_view)
        assert len(renderer.cache) == 2  # bounded: the plain hand, least recently used, went first
        assert renderer.cache.get(PictureCache.key("hand_png", hand_view, False)) is None
    finally:
        threads.close()


def test_the_picture_cache_keeps_the_most_recently_used():
    cache = PictureCache(3)
    for i in range(3):
        cache.put(bytes([i]), b"png%d" % i)
    assert cache.get(bytes([0])) == b"png0"  # now the most recent
    cache.put(bytes([3]), b"png3")
    assert len(cache) == 3 and cache.get(bytes([1])) is None and cache.get(bytes([0])) == b"png0"


def test_hand_labels_are_the_same_when_each_city_is_worked_out_once():
    """place_labels with a memo kept across ticket sets places exactly what it places from
    scratch, including crowded cities that need the wider search."""
    for map_id, size in (("ussr", 12), ("europe", 10)):
        game_map = load_map(map_id)
        base = _mini_base(game_map)
        grid = obstacle_grid(base.geom, routes=False)
        memo: dict = {}
        cities = sorted(game_map.cities)
        for i in range(0, len(cities), 12):
            wanted = frozenset(cities[i:i + size] + cities[:2])
            fresh = place_labels(game_map, base.geom, only=wanted, grid=obstacle_grid(base.geom, routes=False))
            assert place_labels(game_map, base.geom, only=wanted, grid=grid, memo=memo) == fresh
        if map_id == "ussr":  # crowded: the wider search and its last resort were kept too
            assert any(key[0] == "near" for key in memo) and any(key[0] == "far" for key in memo)


def test_placed_hand_labels_are_a_bounded_lru(monkeypatch):
    import render.hand as hand

    monkeypatch.setattr(hand, "MINI_LABEL_SETS", 3)
    base = _mini_base(load_map("usa"))
    base.extra.pop("mini_labels", None)
    sets = [frozenset({"denver", c}) for c in ("miami", "boston", "seattle", "dallas")]
    first = mini_labels(base, sets[0])
    for s in sets[1:3]:
        mini_labels(base, s)
    assert mini_labels(base, sets[0]) is first  # a hit: the same labels, now the most recent
    mini_labels(base, sets[3])
    kept = base.extra["mini_labels"]
    assert len(kept) == 3 and sets[1] not in kept and sets[0] in kept


# --- at the bot: the newest board wins, no post is lost -------------------------------------------


class HeldBoards(StubRenderer):
    """A stub whose boards wait while `gate` is shut; `seqs` lists the moves boards were drawn of."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.seqs: list[int | None] = []
        self.waiting = 0

    async def board(self, view: View, routes=(), cities=(), *, colorblind: bool = False) -> bytes:
        self.seqs.append(view.seq)
        self.waiting += 1
        await self.gate.wait()
        self.waiting -= 1
        return await super().board(view, routes, cities, colorblind=colorblind)


async def _move(service, game_id: int) -> int:
    """The waiting player makes the greedy AI's move through the service; the new move number."""
    summary = await service.reads.game(game_id)
    user = summary.seats[summary.waiting_for[0]].user_id
    legal = await service.reads.legal_actions(game_id, user)
    action = make_ai("greedy", 1).choose(await service.reads.view(game_id, user), legal)
    await service.moves.submit(game_id, Actor.user(user), action, summary.seq)
    return (await service.reads.game(game_id)).seq


async def test_three_moves_made_while_a_board_is_drawn_get_one_more_board_and_every_post(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    renderer = HeldBoards()
    running = await start_bot(fake, tmp_path / "held.sqlite3", renderer=renderer)
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = running.bot.desk
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])  # both kept their tickets
        renderer.gate.clear()
        renderer.seqs.clear()
        first = await _move(running.service, table.game_id)
        await fake.wait_until(lambda: renderer.waiting == 1)  # its board is being drawn
        queued = [await _move(running.service, table.game_id) for _ in range(3)]
        await asyncio.sleep(0.2)
        assert renderer.seqs == [first]  # nothing else started meanwhile
        renderer.gate.set()
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        await table.wait_posted()
        assert renderer.seqs == [first, queued[-1]]  # the two middle boards were never drawn
        shown = [int(m) for p in fake.thread_messages(table.thread_id)
                 for m in re.findall(r"· move (\d+)\b", p["content"])]
        assert shown[-1] == queued[-1]
        statuses = {d.status for d in await running.service.store.deliveries.of_game(table.game_id)}
        assert statuses <= {"sent", "dropped"}, statuses  # every post and DM owed was settled
    finally:
        await running.stop()
        await fake.stop()


# --- the benches' contract -----------------------------------------------------------------------


def test_bench_bot_prints_one_json_object_with_its_figures():
    """`bench/bench_bot.py --json` (issue 16): one JSON object with games, posts_per_s, p50_ms
    and p95_ms (a small run on the stub renderer)."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "bench/bench_bot.py", "--games", "3", "--moves", "2", "--warmup", "1",
                           "--think", "0.01", "--stub-renderer", "--json"], cwd=root, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert figures["games"] == 3 and figures["moves"] == 6
    assert figures["posts_per_s"] > 0 and 0 < figures["p50_ms"] <= figures["p95_ms"]
    # the bench process's CPU split into the bot's share and the fake's and players' share
    assert 0 < figures["cpu_fake_ms_per_post"] < figures["cpu_main_ms_per_post"]
    split = figures["cpu_bot_ms_per_post"] + figures["cpu_fake_ms_per_post"]
    assert abs(split - figures["cpu_main_ms_per_post"]) < 0.05


def test_workers_prepare_the_maps_the_owner_names_and_otherwise_build_each_at_its_first_picture(monkeypatch):
    from render.pool import prepare_from_env

    monkeypatch.delenv("TTR_RENDER_PREPARE", raising=False)
    assert prepare_from_env() == ()
    monkeypatch.setenv("TTR_RENDER_PREPARE", "none")
    assert prepare_from_env() == ()
    monkeypatch.setenv("TTR_RENDER_PREPARE", "all")
    assert set(prepare_from_env()) == set(available_variants())
    monkeypatch.setenv("TTR_RENDER_PREPARE", " Europe, usa ,atlantis")  # an unknown name is ignored
    assert prepare_from_env() == ("europe", "usa")
