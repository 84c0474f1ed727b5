"""The timer loop and the dispatcher look again within seconds after a database error (a
pause that grows with the errors in a row, capped at ERROR_PAUSE_MOST), not after minutes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot_app.delivery.timers import ERROR_PAUSE_MOST, TimerLoop, pause_after_errors
from store import StoreError


def test_the_pause_after_errors_grows_and_stays_within_a_few_seconds() -> None:
    pauses = [pause_after_errors(n) for n in range(1, 30)]
    assert pauses == sorted(pauses) and pauses[0] < 0.5
    assert max(pauses) == ERROR_PAUSE_MOST <= 3.0


class _Outage:
    """A service whose database is out of reach for its first `failures` looks."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.looks = 0
        self.timers_changed = asyncio.Event()
        self.back = asyncio.Event()
        self.clocks = self  # the timer loop asks the service's part `clocks`

    async def due_timers(self, now: float) -> list[Any]:
        self.looks += 1
        if self.looks <= self.failures:
            raise StoreError("The database failed during a read: connection refused")
        self.back.set()
        return []

    async def fire_digests(self, now: float) -> int:
        return 0

    async def next_timer_due(self) -> float | None:
        return None  # nothing pending: the loop would sleep max_sleep (300 s)


async def test_the_timer_loop_looks_again_soon_after_errors() -> None:
    service = _Outage(failures=3)
    loop = TimerLoop(service, max_sleep=300.0)  # type: ignore[arg-type]
    task = asyncio.create_task(loop.run())
    try:
        # Three failures cost 0.25 + 0.5 + 1 s of pauses; the old loop slept 300 s after the first.
        await asyncio.wait_for(service.back.wait(), 20)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert service.looks == 4


async def test_the_bot_waits_for_a_database_server_that_is_down_at_start(caplog: Any) -> None:
    import bot
    from store import DatabaseUnreachable, NotAGameDatabase

    tries: list[str] = []
    pauses: list[float] = []

    async def opener() -> str:
        tries.append("try")
        if len(tries) <= 4:
            raise DatabaseUnreachable("postgresql://ttr@/ttr", "Could not connect to the PostgreSQL database "
                                      "postgresql://ttr@/ttr (Connection refused).")
        return "the store"

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    assert await bot.open_waiting(opener, sleep=sleep) == "the store"
    assert len(tries) == 5 and pauses == sorted(pauses) and max(pauses) <= 5.0
    assert "Waiting for it: trying again in" in caplog.text

    async def refused() -> str:
        raise NotAGameDatabase("postgresql://ttr@/ttr", "That database holds another application's tables.")

    with pytest.raises(NotAGameDatabase):  # a refusal for good is not waited out
        await bot.open_waiting(refused, sleep=sleep)
