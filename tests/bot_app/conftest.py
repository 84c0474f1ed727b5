"""The fixture of the bot's tests that talk to the loopback fake Discord from child processes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.child import close_fork_servers


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The loopback fake Discord, started (its URLs are `fake.base` and `fake.gateway_url`; a
    bot in a child process is pointed at them) and stopped at the end."""
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture(autouse=True, scope="module")
def _fork_servers_stopped() -> Iterator[None]:
    """After each test file, the bot's fork servers (tests/fake_discord/child.py) stop: each
    holds a bot process's memory, which the next file may not need."""
    yield
    close_fork_servers()
