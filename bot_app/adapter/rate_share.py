"""Discord's global rate limit, shared by every process of the bot (store/rate_limit.py).

With several processes on one PostgreSQL database, each request to Discord first takes a slot
of the one budget in the database and waits until its slot comes; discord.py's own limiter
(per route, and a 429's retry) still works behind it. Interaction answers and their follow-ups
are exempt from Discord's global limit, so they never wait here. If the database cannot be
asked, the request goes anyway: Discord traffic does not stop for a database error, and
discord.py's own limiter still holds this process back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

EXEMPT = ("/interactions/", "/webhooks/")


def share_global_limit(client: discord.Client, slot: Callable[[], Awaitable[float]]) -> None:
    """Make every request of `client` (but interaction answers) wait for its slot first."""
    http: Any = client.http
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if not str(getattr(route, "path", "")).startswith(EXEMPT):
            try:
                wait = await slot()
            except Exception as exc:  # the database: send anyway (see the module's docstring)
                log.warning("the shared rate limit could not be asked (%s); sending anyway", type(exc).__name__)
                wait = 0.0
            if wait > 0:
                await asyncio.sleep(wait)
        return await original(route, **kwargs)

    http.request = request
