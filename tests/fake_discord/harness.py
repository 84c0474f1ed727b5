"""Run the real bot (TtrBot, real discord.py) against the fake, on a given database (an SQLite
file or a PostgreSQL URL), and stop it again — a "restart" is stopping one bot and starting a
new one on the same database."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app import GameService, Limits
from bot_app.adapter.client import TtrBot
from bot_app.presentation.render_hooks import Renderer

from .server import FakeDiscord, install


class Clock:
    """A clock tests can move forward."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class RunningBot:
    def __init__(self, bot: TtrBot, service: GameService, task: asyncio.Task[Any]) -> None:
        self.bot = bot
        self.service = service
        self.task = task

    async def stop(self) -> None:
        await self.bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.task, 10)
        await self.service.close()


async def start_bot(fake: FakeDiscord, db: Path | str, *, renderer: Renderer | None = None,
                    clock: Callable[[], float] | None = None, run_timers: bool = False,
                    limits: Limits | None = None, guild_id: int | None = None, seed: int | None = None) -> RunningBot:
    """The bot on `db`, logged in to the fake. Its service has no caps on tables unless
    `limits` says (tests open many tables quickly). `guild_id` is the bot's GUILD_ID setting.
    With `seed`, deals and the AI's choices come from a seeded generator (the same game at every
    run) instead of from `secrets`."""
    install(fake)
    clock = clock or time.time
    bits = secrets.randbits if seed is None else random.Random(seed).getrandbits
    service = await GameService.open(db, clock=clock, limits=limits or Limits.unlimited(), random_bits=bits)
    # A short wait for guilds after READY (discord.py waits 2 s by default): faster starts.
    bot = TtrBot(service, guild_id=guild_id, renderer=renderer, clock=clock, run_timers=run_timers,
                 guild_ready_timeout=0.2)
    task = asyncio.create_task(bot.start("fake-token"))
    deadline = time.monotonic() + 15
    while not bot.is_ready():
        if task.done():
            task.result()
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not get ready against the fake")
        await asyncio.sleep(0.01)
    return RunningBot(bot, service, task)
