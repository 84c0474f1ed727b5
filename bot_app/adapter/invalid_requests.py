"""Invalid requests to Discord, counted for the whole bot (issue 30). Discord bans a bot's
address for a while when it makes 10,000 invalid requests — answered 401, 403 or 429 — in 10
minutes, counted over all the bot's processes. The bot avoids the usual sources (a player's
closed DMs are remembered in the database, so no process tries them again until they act:
bot_app/delivery/discord_refusals.py, store `dm_closed`); this counts what still happens.

Each process counts its own over the last 10 minutes; on PostgreSQL each invalid answer is also
added to the whole bot's count in the database (store/rate_limit.py `count_invalid`), whose
answer tells the process how many all processes made. The log warns once the bot is at a tenth
of the ban's threshold, so an operator hears of it long before Discord acts; at half of it
(`BRAKE_AT`) the process brakes: at most one request a second to Discord (interaction answers
apart) until the count falls again — a few processes so braked cannot reach the ban.

discord.py retries most 429s itself, out of sight of this count (its own limiter and the shared
budget, bot_app/adapter/rate_share.py, keep them rare); the 401s, 403s and the 429s it gives up on are
counted here. If the database cannot be asked, the invalid requests are added at the next one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot_app.adapter.rate_share import EXEMPT

log = logging.getLogger(__name__)

INVALID = (401, 403, 429)
WINDOW = 600.0  # Discord's: 10 minutes
BAN_AT = 10_000
WARN_AT = BAN_AT // 10
BRAKE_AT = BAN_AT // 2  # the whole bot's count at which a process slows down
BRAKE_INTERVAL = 1.0  # seconds between a braked process's requests
FRESH = 5.0  # seconds the whole bot's count, as last told, is taken as it is while braked

SharedCount = Callable[[int], Awaitable[int]]


class InvalidRequests:
    """The invalid requests of the last WINDOW seconds, this process's and (with `shared`: add
    n, answer the whole bot's count) all processes'."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, shared: SharedCount | None = None) -> None:
        self.clock = clock
        self.shared = shared
        self._times: deque[float] = deque()
        self.total = 0
        self._warned = False
        self.bot_recent = 0  # the whole bot's count, as last told by the database
        self._told_at = float("-inf")
        self._unshared = 0  # counted here, not yet added to the whole bot's count
        self._next_braked = 0.0
        self.braked = False

    def record(self, status: int, path: str = "") -> None:
        """One answer from Discord; counted when it is an invalid one."""
        if status not in INVALID:
            return
        self.total += 1
        self._times.append(self.clock())
        if self.shared is not None:
            self._unshared += 1
        self._check(status, path)

    def _check(self, status: int = 0, path: str = "") -> None:
        count = self.count()
        if count >= WARN_AT and not self._warned:
            self._warned = True
            log.warning("%d invalid requests to Discord (401/403/429) in the last 10 minutes%s, the latest HTTP %s "
                        "for %s: Discord bans the bot for a while at %d", count,
                        " (all the bot's processes)" if self.shared is not None else "", status or "?",
                        path or "?", BAN_AT)
        elif count < WARN_AT // 2:
            self._warned = False  # warn again if it climbs back
        braked = count >= BRAKE_AT
        if braked != self.braked:
            self.braked = braked
            if braked:
                log.warning("%d invalid requests to Discord in the last 10 minutes: this process sends at most one "
                            "request a second until they fall below %d", count, BRAKE_AT)
            else:
                log.info("invalid requests to Discord fell below %d: the process sends at full speed again", BRAKE_AT)

    def recent(self) -> int:
        """How many this process made in the last WINDOW seconds."""
        edge = self.clock() - WINDOW
        while self._times and self._times[0] <= edge:
            self._times.popleft()
        return len(self._times)

    def count(self) -> int:
        """The bot's count in the last WINDOW seconds, as far as this process knows."""
        told = self.bot_recent if self.clock() - self._told_at < WINDOW else 0
        return max(self.recent(), told)

    async def share(self, *, ask: bool = False) -> None:
        """Add this process's new invalid requests to the whole bot's count and learn it (also
        with none new when `ask`). Nothing without a shared count; a database error keeps them
        for the next time."""
        if self.shared is None or not (self._unshared or ask):
            return
        n, self._unshared = self._unshared, 0
        try:
            self.bot_recent = await self.shared(n)
        except Exception as exc:  # the database: counted at the next one (see the module's docstring)
            self._unshared += n
            log.debug("the whole bot's count of invalid requests could not be asked (%s)", type(exc).__name__)
            return
        self._told_at = self.clock()
        self._check()

    async def pause(self) -> float:
        """The seconds to wait before the next request: 0 unless braked (BRAKE_AT)."""
        if not self.braked:
            return 0.0
        if self.clock() - self._told_at >= FRESH:
            await self.share(ask=True)  # it may have fallen meanwhile
            if not self.braked:
                return 0.0
        now = self.clock()
        wait = max(0.0, self._next_braked - now)
        self._next_braked = max(now, self._next_braked) + BRAKE_INTERVAL
        return wait


def shared_count(store: Any) -> SharedCount | None:
    """The whole bot's count of invalid requests when several processes share the database
    (PostgreSQL's shared budget, store/rate_limit.py); None for one process alone."""
    budget = getattr(store, "rate_budget", None) if store.shared else None
    return budget.count_invalid if budget is not None else None


def count_invalid_requests(client: discord.Client, counter: InvalidRequests) -> None:
    """Count every invalid answer to a request of `client` (the request's error still goes to
    its caller as before), and brake its requests while the bot is near the ban."""
    http: Any = client.http
    original = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        path = str(getattr(route, "path", ""))
        if counter.braked and not path.startswith(EXEMPT):
            wait = await counter.pause()
            if wait > 0:
                await asyncio.sleep(wait)
        try:
            return await original(route, **kwargs)
        except discord.HTTPException as exc:
            counter.record(exc.status, path)
            await counter.share()
            raise

    http.request = request
