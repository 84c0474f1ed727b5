"""The timer loop: sleeps until the next stored timer is due and hands each due timer to the
service, which decides what it does (a reminder owed to the player, the AI playing their turn,
or waiting on by the player's own clock) and stores that with the timer's claim, so each timer
acts once, after a restart too. The players' daily digests fall due here as well. The
dispatcher then delivers what it owed. The clock is injectable: tests move it and call
`run_once`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from app import GameService

log = logging.getLogger(__name__)

# After a failure (the database out of reach, most often) a loop looks again soon, waiting a
# little longer each time in a row, but never more than ERROR_PAUSE_MOST: once the database is
# back, timers and deliveries go on within seconds.
ERROR_PAUSE_FIRST = 0.25
ERROR_PAUSE_MOST = 3.0


def pause_after_errors(errors: int) -> float:
    """Seconds to wait after `errors` failures in a row (1, 2, …)."""
    return min(ERROR_PAUSE_FIRST * 2 ** max(0, errors - 1), ERROR_PAUSE_MOST)


class TimerLoop:
    def __init__(self, service: GameService, clock: Callable[[], float] = time.time, max_sleep: float = 300.0) -> None:
        self.service = service
        self.clock = clock
        self.max_sleep = max_sleep

    async def run_once(self) -> int:
        """Act on every timer due now; returns how many were looked at."""
        due = await self.service.clocks.due_timers(self.clock())
        for timer in due:
            try:
                await self.service.clocks.fire_timer(timer)
            except Exception:
                log.exception("game %d: timer %d (%s) failed", timer.game_id, timer.id, timer.kind)
                with contextlib.suppress(Exception):
                    await self.service.clocks.mark_timer_fired(timer.id, timer.rev)
        try:
            digests = await self.service.clocks.fire_digests(self.clock())
        except Exception:
            log.exception("the daily digests failed; they will be tried again")
            digests = 0
        return len(due) + digests

    async def run(self) -> None:
        """Act on due timers for ever, sleeping until the next is due or new ones are set."""
        errors = 0
        while True:
            try:
                await self.run_once()
                nxt = await self.service.clocks.next_timer_due()
                errors = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                errors += 1
                log.exception("the timer loop failed (%d in a row); it looks again in %.2f s", errors,
                              pause_after_errors(errors))
                nxt = self.clock() + pause_after_errors(errors)
            delay = self.max_sleep if nxt is None else min(max(nxt - self.clock(), 0.05), self.max_sleep)
            self.service.timers_changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.service.timers_changed.wait(), delay)
