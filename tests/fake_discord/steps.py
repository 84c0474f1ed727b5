"""How long the event loop is held: the CPU time of every callback the loop runs.

A coroutine runs on the loop in steps, from one `await` that suspends to the next; while a step
runs, nothing else in the bot can (no other server's command, no heartbeat). `LoopSteps`
wraps `asyncio.Handle._run` (each step is one call) and records the loop thread's CPU time per
step — CPU, not wall-clock time, so another process on the machine does not inflate it.
(asyncio's own debug mode reports slow callbacks by wall-clock time and costs much more.)
"""

from __future__ import annotations

import asyncio.events
import gc
import time
from typing import Any


class LoopSteps:
    """Use as a context manager around the code to measure; `worst` is the longest step in
    milliseconds and `where` names its callback."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.where = ""
        self.steps = 0
        self.worst_gc = 0.0  # the longest pause of Python's cycle collector, measured apart
        self._gc_in_step = 0.0
        self._gc_start = 0.0
        self._original: Any = None

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.thread_time()
        else:
            spent = (time.thread_time() - self._gc_start) * 1000
            self._gc_in_step += spent
            self.worst_gc = max(self.worst_gc, spent)

    def __enter__(self) -> LoopSteps:
        original = asyncio.events.Handle._run
        self._original = original
        steps = self

        def timed_run(handle: asyncio.events.Handle) -> None:
            start = time.thread_time()
            steps._gc_in_step = 0.0
            try:
                original(handle)
            finally:
                # A collection pause is the collector's, not the step's: counted in worst_gc.
                spent = (time.thread_time() - start) * 1000 - steps._gc_in_step
                steps.steps += 1
                if spent > steps.worst:
                    steps.worst = spent
                    steps.where = _describe(handle)

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]  # the measurement
        gc.callbacks.append(self._on_gc)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.events.Handle._run = self._original  # type: ignore[method-assign]
        gc.callbacks.remove(self._on_gc)

    def reset(self) -> None:
        self.worst, self.where = 0.0, ""


def _describe(handle: asyncio.events.Handle) -> str:
    """The coroutine a step belonged to (a task's step is a bound method of the task)."""
    owner = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f" at {frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else ""
        return f"task {owner.get_name()} ({getattr(coro, '__qualname__', coro)}){where}"
    return repr(handle)[:200]
