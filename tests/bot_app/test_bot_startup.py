"""Start-up (issue 31): the bot is ready half a second after the last server arrives, not
discord.py's 2 s; its render workers start once it is ready, not while it logs in; and
`bench/bench_startup.py` times bot.py itself from its start to ready."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app import GameService
from bot_app.adapter.client import GUILD_READY_SECONDS, TtrBot
from tests.fake_discord import FakeDiscord
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer

ROOT = Path(__file__).resolve().parents[2]


async def test_the_bot_waits_half_a_second_after_the_last_server_not_two(tmp_path: Path) -> None:
    service = await GameService.open(tmp_path / "ttr.sqlite3")
    try:
        assert GUILD_READY_SECONDS == 0.5
        assert TtrBot(service)._connection.guild_ready_timeout == GUILD_READY_SECONDS
        assert TtrBot(service, guild_ready_timeout=3.0)._connection.guild_ready_timeout == 3.0  # still settable
    finally:
        await service.close()


class StartRecorder(StubRenderer):
    """Remembers whether the bot was ready each time the render workers were started."""

    def __init__(self) -> None:
        super().__init__()
        self.bot: TtrBot | None = None
        self.started_when_ready: list[bool] = []

    def start(self) -> None:
        assert self.bot is not None
        self.started_when_ready.append(self.bot.is_ready())


async def test_the_render_workers_start_once_the_bot_is_ready(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord()
    await fake.start()
    renderer = StartRecorder()
    setup_hook = TtrBot.setup_hook

    async def record_bot(bot: TtrBot) -> None:  # the renderer learns its bot before it logs in
        renderer.bot = bot
        await setup_hook(bot)

    monkeypatch.setattr(TtrBot, "setup_hook", record_bot)
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=renderer)
    try:
        for _ in range(100):
            if renderer.started_when_ready:
                break
            await asyncio.sleep(0.01)
        assert renderer.started_when_ready == [True]  # once, and after ready
    finally:
        await running.stop()
        await fake.stop()


def test_bench_startup_prints_one_json_object_with_its_figures() -> None:
    done = subprocess.run([sys.executable, "bench/bench_startup.py", "--runs", "1", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.strip().splitlines()
    figures = json.loads(line)
    assert figures["runs"] == 1 and figures["bytecode_cache"] is True
    assert 0 < figures["cpu_p50_s"] < figures["ready_p50_s"] < 60
