"""/ttr results replay costs bounded work: the same replay asked for at once is drawn once for all,
one replay is drawn at a time per user, a few different ones at most are in hand (one after
another), recent ones are kept, and a channel gets each replay once."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot_app.adapter.replay_requests import BUSY, NOT_SHOWN, SHOWN_SECONDS, STILL_DRAWING, ReplayRequests
from bot_app.presentation.answers import Refusal


async def test_a_user_waits_for_one_replay_before_asking_for_another():
    requests: ReplayRequests[bytes] = ReplayRequests()
    release = asyncio.Event()
    drawn: list[int] = []

    async def slow(game: int) -> bytes:
        drawn.append(game)
        await release.wait()
        return f"gif{game}".encode()

    first = asyncio.create_task(requests.replay(7, 1, lambda: slow(1)))
    await asyncio.sleep(0)
    with pytest.raises(Refusal) as refused:
        requests.check(7, 2)
    assert str(refused.value) == STILL_DRAWING
    with pytest.raises(Refusal):
        await requests.replay(7, 2, lambda: slow(2))
    other = asyncio.create_task(requests.replay(8, 2, lambda: slow(2)))  # someone else is not held up
    await asyncio.sleep(0)
    release.set()
    assert await first == b"gif1" and await other == b"gif2"
    assert drawn == [1, 2]
    assert await requests.replay(7, 3, lambda: slow(3)) == b"gif3"  # free again once it was given


async def test_the_same_replay_asked_for_at_once_is_drawn_once_for_everyone():
    requests: ReplayRequests[bytes] = ReplayRequests()
    release = asyncio.Event()
    drawn: list[int] = []

    async def slow(game: int) -> bytes:
        drawn.append(game)
        await release.wait()
        return f"gif{game}".encode()

    asking = [asyncio.create_task(requests.replay(user, 4, lambda: slow(4))) for user in range(30)]
    await asyncio.sleep(0.01)
    asking[0].cancel()  # the first to ask gives up: the drawing goes on for the others
    await asyncio.sleep(0)
    release.set()
    got = await asyncio.gather(*asking[1:])
    assert got == [b"gif4"] * 29 and drawn == [4] and requests.drawn == 1


async def test_different_replays_are_drawn_one_after_another_and_a_flood_is_refused():
    requests: ReplayRequests[bytes] = ReplayRequests(waiting=3)
    running = 0
    most = 0
    release = asyncio.Event()

    async def slow(game: int) -> bytes:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await release.wait()
        running -= 1
        return bytes([game])

    asking = [asyncio.create_task(requests.replay(user, user, lambda g=user: slow(g))) for user in range(3)]
    await asyncio.sleep(0.01)
    with pytest.raises(Refusal) as refused:
        await requests.replay(99, 99, lambda: slow(99))
    assert str(refused.value) == BUSY
    requests.check(98, 2)  # a replay already in hand is never refused
    release.set()
    assert await asyncio.gather(*asking) == [bytes([0]), bytes([1]), bytes([2])]
    assert most == 1


async def test_a_finished_games_replay_is_kept_and_only_the_most_recent_few():
    requests: ReplayRequests[bytes] = ReplayRequests(kept=2)
    calls: list[int] = []

    async def draw(game: int) -> bytes:
        calls.append(game)
        return bytes([game])

    for game in (1, 2, 1, 3, 1, 2):
        assert await requests.replay(5, game, lambda g=game: draw(g)) == bytes([game])
    # 1 and 2 drawn; 1 kept; 3 pushed 2 out (1 was used more recently); 2 drawn again.
    assert calls == [1, 2, 3, 2]


async def test_a_channel_gets_a_replay_once_and_a_post_that_failed_is_not_pointed_to():
    requests: ReplayRequests[bytes] = ReplayRequests()
    posting = requests.showing(4, 100)
    waiting = requests.shown_in(4, 100)
    assert waiting is posting and requests.shown_in(4, 200) is None and requests.shown_in(5, 100) is None
    posting.set_result("https://discord.com/channels/1/100/7")
    assert await requests.shown_in(4, 100) == "https://discord.com/channels/1/100/7"
    assert requests.shown_in(4, 100, now=time.monotonic() + SHOWN_SECONDS + 1) is None  # scrolled away: again

    failed = requests.showing(6, 100)
    waiter = asyncio.ensure_future(asyncio.shield(failed))
    requests.not_shown(failed)
    with pytest.raises(Refusal) as refused:
        await waiter
    assert str(refused.value) == NOT_SHOWN
    assert requests.shown_in(6, 100) is None  # the next one to ask posts it
