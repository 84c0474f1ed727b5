"""Stopping on SIGTERM as on Ctrl-C.

A service manager stops the bot with SIGTERM (systemd's `stop`, `docker stop`), whose default
action ends the process on the spot: no checkpoint of the -wal, render workers left behind.
`run_stopping_on_sigterm` runs the bot's main coroutine the way `asyncio.run` does, and makes
SIGTERM do what Ctrl-C does there: cancel the main task, so that its `finally` and `async with`
blocks stop the bot (bot_app/adapter/client.py lets the commands being answered finish first) and close
the service, and then return.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_stopping_on_sigterm(main: Coroutine[Any, Any, T]) -> T | None:
    """`asyncio.run(main)`, but SIGTERM cancels `main` (its clean-up runs) and then this returns
    None instead of raising. Ctrl-C behaves as with `asyncio.run` (KeyboardInterrupt after the
    clean-up)."""
    return asyncio.run(_until_sigterm(main))


async def _until_sigterm(main: Coroutine[Any, Any, T]) -> T | None:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    stopped = False

    def stop() -> None:
        nonlocal stopped
        if not stopped:  # a second SIGTERM while stopping changes nothing
            stopped = True
            task.cancel()

    installed = _install(loop, stop)
    try:
        return await main
    except asyncio.CancelledError:
        if not stopped:
            raise
        task.uncancel()
        return None
    finally:
        if installed == "loop":
            loop.remove_signal_handler(signal.SIGTERM)
        elif installed == "signal":
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _install(loop: asyncio.AbstractEventLoop, stop: Any) -> str:
    """Route SIGTERM to `stop` on the loop: "loop" (POSIX), "signal" (where the loop cannot,
    e.g. Windows' proactor loop), or "" where there is no SIGTERM to catch."""
    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
        return "loop"
    except NotImplementedError:
        pass
    except (RuntimeError, ValueError):  # not the main thread: leave signals alone
        return ""
    try:
        signal.signal(signal.SIGTERM, lambda *_: loop.call_soon_threadsafe(stop))
        return "signal"
    except (AttributeError, ValueError, OSError):
        return ""
