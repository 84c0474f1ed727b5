"""The desk: what every part of the Discord layer shares — the one application service, the
client, the renderer, the clock, how to answer — and whether the bot is still busy.

The cogs (cogs/) translate commands, the buttons (bot_app.adapter.buttons) translate clicks, and both
call the service through the parts in bot_app: `games` (which game a request means), `lobby`,
`panels` (the private turn panels), `autocomplete`. Public posts and DMs are never sent from
here: the service stores them with the move, and the dispatcher (bot_app.delivery.dispatcher) sends them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import discord

from app import GameService
from bot_app.presentation.answers import Answers
from bot_app.presentation.render_hooks import Renderer

if TYPE_CHECKING:
    from bot_app.delivery.dispatcher import Dispatcher


class Desk:
    """Shared by the cogs, the buttons and the dispatcher of one running bot."""

    def __init__(self, service: GameService, client: discord.Client, *, renderer: Renderer | None = None,
                 clock: Callable[[], float] = time.time, default_turn_hours: float = 48.0) -> None:
        self.service = service
        self.client = client
        self.renderer = renderer or Renderer()
        self.clock = clock
        self.default_turn_hours = default_turn_hours
        self.answers = Answers()
        self.dispatcher: Dispatcher | None = None
        self._handlers = 0

    @contextlib.contextmanager
    def handling(self) -> Iterator[None]:
        """Count a handler as running (tests and benchmarks wait until none is)."""
        self._handlers += 1
        try:
            yield
        finally:
            self._handlers -= 1

    async def settle(self, timeout: float) -> bool:
        """Wait, at most `timeout` seconds, until no handler is running (a stop lets the
        commands being answered finish); True when none is."""
        deadline = time.monotonic() + timeout
        while self._handlers and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return not self._handlers

    @property
    def busy(self) -> int:
        """How much is still in flight: handlers running, the dispatcher at work, and new
        deliveries it has not looked at yet. 0 when everything owed so far has been tried."""
        dispatching = self.dispatcher.working if self.dispatcher is not None else 0
        return self._handlers + dispatching + int(self.service.deliveries_waiting.is_set())

    async def after_move(self, game_id: int) -> None:
        """After a person's move: the bot plays its seats' turns (each stored with what it
        owes); the dispatcher then posts the newest board once."""
        await self.service.moves.play_bots(game_id)
