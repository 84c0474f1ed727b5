"""Invalid requests to Discord, counted (issue 30). Discord bans a bot's address for a while
when it makes 10,000 invalid requests — answered 401, 403 or 429 — in 10 minutes. The bot
avoids the usual sources (a player's closed DMs are remembered and not tried again until they
act: bot_app/discord_refusals.py, store `dm_closed`); this counts what still happens, per
process, over the last 10 minutes, and warns in the log once a tenth of the ban's threshold is
reached, so an operator hears of it long before Discord acts.

discord.py retries most 429s itself, out of sight of this count (its own limiter and the shared
budget, bot_app/rate_share.py, keep them rare); the 401s, 403s and the 429s it gives up on are
counted here.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

INVALID = (401, 403, 429)
WINDOW = 600.0  # Discord's: 10 minutes
BAN_AT = 10_000
WARN_AT = BAN_AT // 10


class InvalidRequests:
    """The invalid requests of the last WINDOW seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._times: deque[float] = deque()
        self.total = 0
        self._warned = False

    def record(self, status: int, path: str = "") -> None:
        """One answer from Discord; counted when it is an invalid one."""
        if status not in INVALID:
            return
        self.total += 1
        self._times.append(self.clock())
        count = self.recent()
        if count >= WARN_AT and not self._warned:
            self._warned = True
            log.warning("%d invalid requests to Discord (401/403/429) in the last 10 minutes, the latest HTTP %d "
                        "for %s: Discord bans the bot for a while at %d", count, status, path or "?", BAN_AT)
        elif count < WARN_AT // 2:
            self._warned = False  # warn again if it climbs back

    def recent(self) -> int:
        """How many in the last WINDOW seconds."""
        edge = self.clock() - WINDOW
        while self._times and self._times[0] <= edge:
            self._times.popleft()
        return len(self._times)


def count_invalid_requests(client: discord.Client, counter: InvalidRequests) -> None:
    """Count every invalid answer to a request of `client` (the request's error still goes to
    its caller as before)."""
    http: Any = client.http
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        try:
            return await original(route, **kwargs)
        except discord.HTTPException as exc:
            counter.record(exc.status, str(getattr(route, "path", "")))
            raise

    http.request = request
