"""Rendering off the event loop, on every core.

Drawing a board takes tens of milliseconds of CPU; inside the bot's asyncio loop that would
stall every other game, and in a thread of the bot's process it competes with the bot for
Python's global lock (a 16 ms board took over a second that way while the bot was busy). So
pictures are drawn in a pool of worker processes sized to the machine:

- each worker builds a map's static base once (at its first picture of that map, or when it
  starts for the variants TTR_RENDER_PREPARE names, in a thread beside its jobs:
  `render.jobs.start_preparing`), and keeps it;
- a job sends a view and gets PNG bytes back; the event loop only awaits;
- at most `2 × workers` jobs are handed to the workers at once; the rest wait their turn in
  the loop, oldest first (a bounded queue: nothing piles up inside the executor);
- a picture of seconds (a replay GIF) goes to a lane of its own (`run_slow`): one worker,
  started at its first job, at the lowest priority (SCHED_IDLE on Linux, else nice 19), one
  job at a time; a stampede of replays waits there and never in front of a turn post;
- a worker that dies (killed, out of memory) breaks the executor: a new one is started and the
  job tried once more;
- a worker exits as soon as the bot's process is gone, however it ended (SIGKILL included:
  `render.parent_watch`).

`RenderPool(processes=False)` is the same in threads of this process (tests that need no
processes; a machine where processes cannot be started). TTR_RENDER_WORKERS sets the number
of worker processes of the default pool; 0 draws in threads instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger("render.pool")


# How the slow lane's worker runs lower: Linux's SCHED_IDLE (it gets the CPU the other
# processes leave, and gives it up the moment a turn post's worker wakes), else the lowest
# POSIX priority (nice 19). Either way it has all of a core that is idle.
SLOW_NICENESS = 19


class _Lane:
    """Workers for one kind of job: an executor started on first use, at most `in_flight` jobs
    handed to it at once (the rest wait in the loop, oldest first), and a new executor when a
    worker died."""

    def __init__(self, name: str, workers: int, in_flight: int, make: Callable[[], concurrent.futures.Executor]
                 ) -> None:
        self.name = name
        self.workers = workers
        self.in_flight = in_flight
        self.make = make
        self.restarts = 0  # executors replaced after a worker died
        self.executor: concurrent.futures.Executor | None = None
        # One semaphore per event loop (tests run several loops over one process-wide pool).
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary())

    def current(self) -> concurrent.futures.Executor:
        if self.executor is None:
            self.executor = self.make()
        return self.executor

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.in_flight)
        call = functools.partial(fn, *args, **kwargs)
        async with slots:
            for attempt in (1, 2):
                executor = self.current()
                try:
                    return await loop.run_in_executor(executor, call)
                except BrokenProcessPool:
                    self.replace(executor)
                    if attempt == 2:
                        raise
                    log.warning("a render worker (%s) died; started new ones and trying %s again", self.name,
                                getattr(fn, "__name__", fn))
        raise AssertionError("unreachable")

    def pids(self) -> list[int]:
        procs = getattr(self.executor, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.is_alive()]

    def replace(self, broken: concurrent.futures.Executor) -> None:
        if self.executor is broken:
            self.executor = None
            self.restarts += 1
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None


class RenderPool:
    """Worker processes (or threads) for render jobs, started on first use and stopped with
    `close`. `prepare` lists the variants whose bases each worker builds when it starts
    (default: every variant; empty: none, bases are built on first use).

    Two lanes: `run` for the pictures a player waits for (turn posts, hands, boards), on
    `workers` workers; `run_slow` for pictures that take seconds (a replay GIF), on
    `slow_workers` workers of their own that run at a lower priority, so that however many of
    those are asked for, they never hold a turn post back: they wait in their own queue, and
    their worker gets the CPU that the turn posts leave."""

    def __init__(self, workers: int | None = None, *, processes: bool = True,
                 prepare: Sequence[str] | None = None, slow_workers: int = 1) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.processes = processes
        self.prepare = _every_variant() if prepare is None else tuple(prepare)
        self.in_flight = 2 * self.workers
        self.slow_workers = max(1, slow_workers)
        self._urgent = _Lane("urgent", self.workers, self.in_flight, self._make_urgent)
        self._slow = _Lane("slow", self.slow_workers, self.slow_workers, self._make_slow)

    @property
    def restarts(self) -> int:
        """Executors replaced after a worker died (both lanes)."""
        return self._urgent.restarts + self._slow.restarts

    @property
    def executor(self) -> concurrent.futures.Executor:
        return self._urgent.current()

    def _make_urgent(self) -> concurrent.futures.Executor:
        if self.processes:
            return concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_prepare, initargs=(self.prepare,))
        return concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="render")

    def _make_slow(self) -> concurrent.futures.Executor:
        # Started at its first job (most hours see no replay); its bases are built on first use.
        if self.processes:
            return concurrent.futures.ProcessPoolExecutor(
                self.slow_workers, mp_context=multiprocessing.get_context("spawn"), initializer=_prepare_slow)
        return concurrent.futures.ThreadPoolExecutor(self.slow_workers, thread_name_prefix="render-slow")

    def start(self) -> None:
        """Start the workers now (each prepares its bases) rather than at the first picture."""
        ex = self.executor
        if isinstance(ex, concurrent.futures.ProcessPoolExecutor):
            for _ in range(self.workers):
                ex.submit(_nothing)

    async def prepared(self) -> None:
        """Wait until the workers have prepared their bases (benches measure after this)."""
        if self.processes:
            from render.jobs import wait_prepared

            await asyncio.gather(*(self.run(wait_prepared) for _ in range(self.workers)))

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run `fn(*args, **kwargs)` in a worker and await its result (`fn` and its arguments
        must pickle: a module-level function and plain data, e.g. `render.jobs.board_png`)."""
        return await self._urgent.run(fn, *args, **kwargs)

    async def run_slow(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`run` for a job of seconds (a replay): in the slow lane, one job per slow worker at
        a time, the others waiting their turn in the loop, oldest first."""
        return await self._slow.run(fn, *args, **kwargs)

    def worker_pids(self) -> list[int]:
        """The worker processes running now (tests)."""
        return self._urgent.pids()

    def slow_worker_pids(self) -> list[int]:
        """The slow lane's worker processes running now (tests)."""
        return self._slow.pids()

    def close(self) -> None:
        """Stop the workers (what they were drawing is dropped)."""
        self._urgent.close()
        self._slow.close()


def _every_variant() -> tuple[str, ...]:
    from engine.rulesets import available_variants

    return tuple(available_variants())


def _prepare(variants: Sequence[str]) -> None:
    from render.jobs import start_preparing
    from render.parent_watch import exit_with_parent

    exit_with_parent()  # however the bot ends, its workers end within moments
    start_preparing(variants)


def _prepare_slow() -> None:
    from render.parent_watch import exit_with_parent

    exit_with_parent()
    lower_priority()


def lower_priority() -> str:
    """Run this process at the slow lane's priority; says which ("idle", "nice", "" where
    neither is possible: the lane is then only apart, not lower)."""
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None and hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
            return "idle"
        except OSError:
            pass
    if hasattr(os, "nice"):
        try:
            os.nice(SLOW_NICENESS)
            return "nice"
        except OSError:
            pass
    log.warning("the slow render worker could not lower its priority")
    return ""


def _nothing() -> None:
    return None


_DEFAULT: RenderPool | None = None


def default_pool() -> RenderPool:
    """The process-wide pool: TTR_RENDER_WORKERS worker processes (default: one per core;
    0: threads of this process instead)."""
    global _DEFAULT
    if _DEFAULT is None:
        raw = (os.environ.get("TTR_RENDER_WORKERS") or "").strip()
        workers = int(raw) if raw.isascii() and raw.isdigit() else None
        if workers == 0:
            _DEFAULT = RenderPool(processes=False)
        else:
            _DEFAULT = RenderPool(workers, prepare=prepare_from_env())
    return _DEFAULT


def prepare_from_env() -> tuple[str, ...]:
    """The variants each worker prepares when it starts, from TTR_RENDER_PREPARE: unset or
    "none", none (a map's base is built by its first picture, about a second, and kept); "all",
    every variant; else a comma-separated list of variants. Lazy by default because a worker
    holding all six maps takes ~150 MB, and most servers play one or two of them."""
    raw = (os.environ.get("TTR_RENDER_PREPARE") or "").strip().lower()
    if raw in ("", "none"):
        return ()
    if raw == "all":
        return _every_variant()
    known = set(_every_variant())
    return tuple(v for v in (part.strip() for part in raw.split(",")) if v in known)


async def render_async(fn: Callable[..., T], *args: Any, pool: RenderPool | None = None, **kwargs: Any) -> T:
    """Await `fn(*args, **kwargs)` run off the event loop in a render worker, e.g.
    ``png = await render_async(render.jobs.board_png, view, ["r12"])``. With the default
    process pool `fn`, its arguments and its result must pickle."""
    return await (pool or default_pool()).run(fn, *args, **kwargs)


async def render_slow(fn: Callable[..., T], *args: Any, pool: RenderPool | None = None, **kwargs: Any) -> T:
    """`render_async` for a picture that takes seconds (a replay), in the pool's slow lane: it
    never delays the pictures players wait for."""
    return await (pool or default_pool()).run_slow(fn, *args, **kwargs)
