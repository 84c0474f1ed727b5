"""Shard coordination (bot_app/adapter/shards.py): each Discord shard is held by one live process, a
lock per shard that dies with its holder. A shard named twice is refused in words; with the
shards left to the pool, a process takes the free ones, stands by when none is free, and takes
over a dead process's shards; `bot.py --status` shows who holds what."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot_app.adapter import shards
from store.opening import open_store


@pytest.fixture
async def two(other_database: Any) -> AsyncIterator[tuple[Any, Any]]:
    """Two processes' stores on one new PostgreSQL database."""
    target = other_database("postgres").target
    first, second = await open_store(target), await open_store(target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_a_shard_another_process_runs_is_refused_in_words(two: Any) -> None:
    first, second = two
    assert await shards.take_named(first, [0, 1]) == [0, 1]
    with pytest.raises(shards.ShardsRefused) as refused:
        await shards.take_named(second, [1, 2], wait=0.1, every=0.05)
    words = str(refused.value)
    assert words.startswith("Shard 1 is already run by another bot process") and first.owner in words
    assert await shards.take_named(second, [2, 3], wait=0.1) == [2, 3]  # others are free


async def test_a_named_shard_is_taken_once_its_holder_died(two: Any) -> None:
    first, second = two
    await shards.take_named(first, [0])
    waiting = asyncio.ensure_future(shards.take_named(second, [0], wait=10, every=0.05))
    await asyncio.sleep(0.1)
    assert not waiting.done()  # waits: the holder is alive
    first.presence.kill()
    assert await asyncio.wait_for(waiting, 10) == [0]


async def test_the_pool_hands_out_free_shards_and_a_dead_processs_are_taken_over(two: Any) -> None:
    first, second = two
    assert await shards.take(first, None, 2) == ([0, 1], 2)  # alone: every shard
    standby = asyncio.ensure_future(shards.take(second, None, 2))
    await asyncio.sleep(0.1)
    assert not standby.done()  # every shard is run: it stands by
    lines = await shards.status_lines(second)
    assert lines == [f"{first.owner}: shards 0, 1, since {lines[0].rsplit('since ', 1)[1]}"]
    first.presence.kill()  # as a SIGKILL
    assert await asyncio.wait_for(standby, 15) == ([0, 1], 2)


async def test_a_running_process_takes_more_shards_when_they_become_free(two: Any) -> None:
    first, second = two
    assert await shards.take_named(first, [0]) == [0]
    mine, pool = await shards.take(second, None, 2)
    assert (mine, pool) == ([1], 2)
    stopped = asyncio.Event()

    async def bot() -> None:  # stands for bot.start(): runs until cancelled
        try:
            await asyncio.Event().wait()
        finally:
            stopped.set()

    running = asyncio.ensure_future(shards.run_until_more(bot(), second, 2, mine))
    await asyncio.sleep(0.1)
    assert not running.done()
    await first.close()  # a clean stop
    assert await asyncio.wait_for(running, 15) == [0, 1]
    assert stopped.is_set()  # the bot was stopped, to reconnect with both shards
    first.close = second.close  # the fixture closes it again  # type: ignore[method-assign]


async def test_an_sqlite_process_runs_every_shard(tmp_path: Any) -> None:
    async with await open_store(tmp_path / "ttr.sqlite3") as store:
        assert await shards.take(store, None, 3) == ([0, 1, 2], None)
        assert await shards.take(store, [1], 3) == ([1], None)


def test_bot_status_says_who_runs_which_shard(other_database: Any, monkeypatch: Any, capsys: Any) -> None:
    import bot
    from tests.databases import run_async

    target = other_database("postgres").target
    monkeypatch.setenv("TTR_DATABASE", str(target))
    assert bot.run_status() == 0
    assert capsys.readouterr().out.strip() == "No bot process is running on this database."
    running: list[Any] = []

    async def hold() -> str:
        store = await open_store(target)
        running.append(store)
        await shards.take_named(store, [2, 0])
        return store.owner

    async def status_while_held() -> tuple[str, int]:
        owner = await hold()
        try:
            return owner, await asyncio.to_thread(bot.run_status)
        finally:
            await running[0].close()

    owner, code = run_async(status_while_held())
    out = capsys.readouterr().out
    assert code == 0 and out.startswith(f"{owner}: shards 0, 2, since ")


async def test_two_processes_share_one_budget_of_discords_global_limit(two: Any) -> None:
    from store.rate_limit import BURST, RATE

    first, second = two
    slots = await asyncio.gather(*(s.rate_budget.take_slot() for s in (first, second) for _ in range(60)))
    starts = sorted(start for start, _ in slots)
    # A burst may go at once; after it, slots come 1/RATE apart whoever asks: no 50 within a second.
    assert RATE + BURST < 50
    assert all(later - earlier > 1.0 for earlier, later in zip(starts, starts[49:], strict=False))
    assert all(b - a >= 1 / RATE - 1e-6 for a, b in zip(starts, starts[1:], strict=False))
    waits = sorted(wait for _, wait in slots)
    assert waits[:BURST] == [0.0] * BURST and waits[-1] > 119 / RATE - 1.0  # the last waits its turn
    assert first.rate_budget.taken == second.rate_budget.taken == 60
