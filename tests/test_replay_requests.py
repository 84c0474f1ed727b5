"""/ttr replay costs bounded work: one replay drawn at a time per user, recent ones kept."""

from __future__ import annotations

import asyncio

import pytest

from bot_app.answers import Refusal
from bot_app.replay_requests import STILL_DRAWING, ReplayRequests


async def test_a_user_waits_for_one_replay_before_asking_for_another():
    requests = ReplayRequests()
    release = asyncio.Event()
    drawn: list[int] = []

    async def slow(game: int) -> bytes:
        drawn.append(game)
        await release.wait()
        return f"gif{game}".encode()

    first = asyncio.create_task(requests.gif(7, 1, lambda: slow(1)))
    await asyncio.sleep(0)
    with pytest.raises(Refusal) as refused:
        requests.check(7, 2)
    assert str(refused.value) == STILL_DRAWING
    with pytest.raises(Refusal):
        await requests.gif(7, 2, lambda: slow(2))
    other = asyncio.create_task(requests.gif(8, 2, lambda: slow(2)))  # someone else is not held up
    await asyncio.sleep(0)
    release.set()
    assert await first == b"gif1" and await other == b"gif2"
    assert drawn == [1, 2]
    assert await requests.gif(7, 3, lambda: slow(3)) == b"gif3"  # free again once it was given


async def test_a_finished_games_replay_is_kept_and_only_the_most_recent_few():
    requests = ReplayRequests(kept=2)
    calls: list[int] = []

    async def draw(game: int) -> bytes:
        calls.append(game)
        return bytes([game])

    for game in (1, 2, 1, 3, 1, 2):
        assert await requests.gif(5, game, lambda g=game: draw(g)) == bytes([game])
    # 1 and 2 drawn; 1 kept; 3 pushed 2 out (1 was used more recently); 2 drawn again.
    assert calls == [1, 2, 3, 2]
