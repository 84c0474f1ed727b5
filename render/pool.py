"""Rendering off the event loop.

Drawing a board takes tens of milliseconds of CPU; inside the bot's asyncio loop that would
stall every other game. `render_async` runs a render function in a worker and awaits it.

The worker is a small thread pool: Pillow releases the GIL while it pastes, quantizes and
compresses, the cached bases are shared, and arguments need no pickling.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import os
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class RenderPool:
    """A thread pool for render functions, created lazily and shut down with `close`."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None

    @property
    def executor(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        return self._executor

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run `fn(*args, **kwargs)` in the pool and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


_DEFAULT: RenderPool | None = None


def default_pool() -> RenderPool:
    """The process-wide thread pool used by `render_async`."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = RenderPool()
    return _DEFAULT


async def render_async(fn: Callable[..., T], *args: Any, pool: RenderPool | None = None, **kwargs: Any) -> T:
    """Await `fn(*args, **kwargs)` run off the event loop, e.g.
    ``png = (await render_async(render_board, view, highlight_routes=[rid])).png``."""
    return await (pool or default_pool()).run(fn, *args, **kwargs)

