"""Invalid requests to Discord are counted (bot_app/invalid_requests.py): Discord bans a bot
for a while at 10,000 answers 401, 403 or 429 in 10 minutes, so each process counts its own
over the last 10 minutes and warns in the log at a tenth of that."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot_app.invalid_requests import WARN_AT, WINDOW, InvalidRequests, count_invalid_requests


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
    with caplog.at_level(logging.WARNING, logger="bot_app.invalid_requests"):
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
