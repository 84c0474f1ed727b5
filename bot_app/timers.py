"""The timer loop: sleeps until the next stored timer is due, fires the due ones through the
desk, and goes back to sleep. Timers live in the database, so a restart loses none; each is
claimed in the database before it acts, so none fires twice. The clock is injectable: tests
move it forward and call `run_once`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot_app.desk import Desk

log = logging.getLogger(__name__)


class TimerLoop:
    def __init__(self, desk: Desk, clock: Callable[[], float] = time.time, max_sleep: float = 300.0) -> None:
        self.desk = desk
        self.clock = clock
        self.max_sleep = max_sleep

    async def run_once(self) -> int:
        """Fire every timer due now; returns how many were looked at."""
        due = await self.desk.service.due_timers(self.clock())
        for timer in due:
            try:
                await self.desk.fire_timer(timer)
            except Exception:
                log.exception("game %d: timer %d (%s) failed", timer.game_id, timer.id, timer.kind)
                with contextlib.suppress(Exception):
                    await self.desk.service.mark_timer_fired(timer.id)
        return len(due)

    async def run(self) -> None:
        while True:
            try:
                await self.run_once()
                nxt = await self.desk.service.next_timer_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer loop")
                nxt = None
            delay = self.max_sleep if nxt is None else min(max(nxt - self.clock(), 0.05), self.max_sleep)
            self.desk.timers_changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.desk.timers_changed.wait(), delay)
