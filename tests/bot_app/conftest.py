"""The fixture of the bot's tests that talk to the loopback fake Discord from child processes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The loopback fake Discord, started (its URLs are `fake.base` and `fake.gateway_url`; a
    bot in a child process is pointed at them) and stopped at the end."""
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()
