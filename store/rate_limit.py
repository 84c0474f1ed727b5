"""One budget of Discord's global rate limit for all the bot's processes (PostgreSQL).

Discord counts its global limit (about 50 requests a second) per bot, over every process;
discord.py limits each process's own traffic only, so two busy processes could together earn
429s (and 10,000 invalid requests in 10 minutes a temporary ban). Every request a process
sends to Discord first takes a slot here (`RateBudget.take`): one UPDATE of one row, which
serializes the processes and moves the budget's "theoretical arrival time" on by 1/rate; the
answer is how long to wait before sending. Times are the database server's clock, so processes
on machines whose clocks differ still share one budget. A burst of `burst` requests may go at
once; over any second at most `rate + burst` requests go (RATE and BURST keep that below 50).

Interaction answers are not counted: Discord exempts them from the global limit.

The same budget keeps the bot's invalid requests (answers 401, 403, 429) of all processes
together, per minute (`RateBudget.count_invalid`, table `invalid_requests`): Discord's ban
counts them over all the bot's processes, so each process learns the whole bot's count.
"""

from __future__ import annotations

import asyncpg

RATE = 45.0  # requests a second, for all processes together
BURST = 4  # requests that may go at once after a quiet spell
BUDGET = "discord"

INVALID_MINUTES = 10  # Discord's window for invalid requests (10 minutes), in minutes

# Add $1 invalid requests to this minute's row; the answer is the whole bot's count over the
# last INVALID_MINUTES minutes and this one (a little more than the window: on the safe side).
# The rows the window left are deleted in the same statement.
_INVALID = (
    "WITH now AS (SELECT floor(extract(epoch FROM clock_timestamp()) / 60)::bigint AS m),"
    " up AS (INSERT INTO invalid_requests (minute, count) SELECT m, $1 FROM now"
    "  ON CONFLICT (minute) DO UPDATE SET count = invalid_requests.count + excluded.count RETURNING count),"
    f" gone AS (DELETE FROM invalid_requests USING now WHERE minute < now.m - {INVALID_MINUTES})"
    " SELECT (SELECT count FROM up) + coalesce((SELECT sum(i.count) FROM invalid_requests AS i, now"
    f"  WHERE i.minute >= now.m - {INVALID_MINUTES} AND i.minute < now.m), 0)")

_TAKE = (
    "WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t)"
    " UPDATE rate_limit SET tat = greatest(tat, now.t) + $2 FROM now WHERE name = $1"
    " RETURNING tat - $2, greatest(0, tat - $2 - now.t - $3)")


class RateBudget:
    """The shared budget, through a pool of the store."""

    def __init__(self, pool: asyncpg.Pool, *, rate: float = RATE, burst: int = BURST, name: str = BUDGET) -> None:
        self._pool = pool
        self.interval = 1.0 / rate
        self.allowance = max(0, burst - 1) * self.interval
        self.name = name
        self.taken = 0

    async def take(self) -> float:
        """Take the next slot; returns the seconds to wait before sending."""
        return (await self.take_slot())[1]

    async def take_slot(self) -> tuple[float, float]:
        """Take the next slot: when it is (the server's clock, burst aside) and the seconds to
        wait before sending."""
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(_TAKE, self.name, self.interval, self.allowance)
            if row is None:  # the budget's row is not there yet
                await conn.execute("INSERT INTO rate_limit (name, tat) VALUES ($1, 0) ON CONFLICT DO NOTHING",
                                   self.name)
                row = await conn.fetchrow(_TAKE, self.name, self.interval, self.allowance)
        self.taken += 1
        return float(row[0]), float(row[1])

    async def count_invalid(self, count: int) -> int:
        """Count `count` invalid requests of this process for the whole bot; returns how many
        all its processes made in the last INVALID_MINUTES minutes (these included)."""
        async with self._pool.acquire() as conn:
            total = await conn.fetchval(_INVALID, count)
        return int(total)
