"""Invalid requests to Discord are counted (bot_app/adapter/invalid_requests.py): Discord bans a bot
for a while at 10,000 answers 401, 403 or 429 in 10 minutes, counted over all its processes, so
each process counts its own over the last 10 minutes, adds them to the whole bot's count in the
database (PostgreSQL), warns in the log at a tenth of the ban and brakes at half of it."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot_app.adapter.invalid_requests import (
    BRAKE_AT,
    BRAKE_INTERVAL,
    FRESH,
    WARN_AT,
    WINDOW,
    InvalidRequests,
    count_invalid_requests,
    shared_count,
)
from store.opening import open_store


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def refusal(status: int) -> discord.HTTPException:
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(SimpleNamespace(status=status, reason="refused"), {"code": 50007, "message": "no"})


async def test_refused_requests_are_counted_and_still_refused_to_their_caller() -> None:
    answers: list[Any] = [refusal(403), {"id": "1"}, refusal(404), refusal(401)]

    async def request(route: Any, **kwargs: Any) -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    client: Any = SimpleNamespace(http=SimpleNamespace(request=request))
    counter = InvalidRequests(Clock())
    count_invalid_requests(client, counter)
    route = SimpleNamespace(path="/users/@me/channels")
    with pytest.raises(discord.Forbidden):
        await client.http.request(route)
    assert await client.http.request(route) == {"id": "1"}
    with pytest.raises(discord.NotFound):  # a 404 is an answer, not an invalid request
        await client.http.request(route)
    with pytest.raises(discord.HTTPException):
        await client.http.request(route)
    assert (counter.recent(), counter.total) == (2, 2)


def test_the_count_covers_the_last_ten_minutes_and_warns_once_at_a_tenth_of_the_ban(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    counter = InvalidRequests(clock)
    with caplog.at_level(logging.WARNING, logger="bot_app.adapter.invalid_requests"):
        for _ in range(WARN_AT - 1):
            counter.record(403, "/channels/1/messages")
        assert caplog.records == []
        counter.record(429, "/channels/1/messages")
        counter.record(403)
        assert len(caplog.records) == 1
        assert f"{WARN_AT} invalid requests to Discord" in caplog.records[0].message
        assert "bans the bot for a while at 10000" in caplog.records[0].message
        clock.now += WINDOW  # ten minutes later they no longer count
        assert counter.recent() == 0 and counter.total == WARN_AT + 1
        counter.record(200)
        assert counter.recent() == 0


async def test_two_processes_on_postgres_count_their_invalid_requests_together(other_database: Any) -> None:
    target = other_database("postgres").target
    first, second = await open_store(target), await open_store(target)
    try:
        counters = [InvalidRequests(shared=shared_count(store)) for store in (first, second)]
        for _ in range(3):
            counters[0].record(403, "/users/@me/channels")
        await counters[0].share()
        for _ in range(2):
            counters[1].record(401)
        await counters[1].share()
        assert [c.recent() for c in counters] == [3, 2]  # each its own
        assert counters[1].count() == 5  # and the whole bot's, told by the database
        await counters[0].share(ask=True)
        assert counters[0].count() == 5
    finally:
        await first.close()
        await second.close()


async def test_one_process_alone_counts_only_its_own(tmp_path: Any) -> None:
    async with await open_store(tmp_path / "ttr.sqlite3") as store:
        assert shared_count(store) is None


async def test_near_the_ban_a_process_sends_one_request_a_second_until_the_count_falls(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    told = [BRAKE_AT]

    async def whole_bot(n: int) -> int:
        return told[0]

    counter = InvalidRequests(clock, shared=whole_bot)
    assert await counter.pause() == 0.0
    with caplog.at_level(logging.WARNING, logger="bot_app.adapter.invalid_requests"):
        counter.record(403, "/channels/1/messages")
        await counter.share()
    assert counter.braked and "at most one request a second" in caplog.text
    assert "(all the bot's processes)" in caplog.text  # the warning at a tenth, for the whole bot
    assert [await counter.pause() for _ in range(3)] == [0.0, BRAKE_INTERVAL, 2 * BRAKE_INTERVAL]
    told[0] = BRAKE_AT - 1  # the other processes' fell out of the window
    clock.now += FRESH
    assert await counter.pause() == 0.0 and not counter.braked


async def test_invalid_requests_the_database_could_not_take_are_added_at_the_next_one() -> None:
    taken: list[int] = []

    async def whole_bot(n: int) -> int:
        if not taken:
            taken.append(0)
            raise ConnectionError("the database is down")
        taken.append(n)
        return sum(taken)

    counter = InvalidRequests(Clock(), shared=whole_bot)
    counter.record(403)
    await counter.share()  # refused: kept
    counter.record(429)
    await counter.share()
    assert taken == [0, 2] and counter.count() == 2
