"""A process's presence on a shared PostgreSQL database (store/presence.py): the others are
woken when it goes away, however briefly it lived."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from store import presence
from store.presence import Presence, new_owner


async def test_a_process_that_started_and_died_between_two_looks_still_wakes_the_others(
        other_database: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The survivor's watcher looks only every 2 s; the other process lives 0.2 s between two
    # looks (as a bot killed at its first delivery right after starting on a busy machine).
    monkeypatch.setattr(presence, "WATCH_SECONDS", 2.0)
    url = str(other_database("postgres").target)
    survivor = Presence(url, *new_owner())
    woken = asyncio.Event()
    survivor.on_wake(woken.set)
    await survivor.start()
    brief = Presence(url, *new_owner())
    try:
        await brief.start()
        await asyncio.sleep(0.2)  # its hello reaches the survivor
        brief.kill()  # as a SIGKILL: nothing said
        await asyncio.wait_for(woken.wait(), 5)  # at the survivor's next look
    finally:
        brief.kill()
        await survivor.close()


async def test_a_live_process_that_said_hello_wakes_no_one(
        other_database: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(presence, "WATCH_SECONDS", 0.1)
    url = str(other_database("postgres").target)
    first, second = Presence(url, *new_owner()), Presence(url, *new_owner())
    woken = asyncio.Event()
    first.on_wake(woken.set)
    await first.start()
    try:
        await second.start()
        await asyncio.sleep(0.5)  # several looks, the other alive throughout
        assert not woken.is_set()
    finally:
        await second.close()
        await first.close()
