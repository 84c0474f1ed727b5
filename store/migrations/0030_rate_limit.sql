-- Migration 30 (numbered apart, not to race other work for the next number): one budget of
-- Discord's global rate limit for every process of the bot (docs/scaling.md). Discord allows a bot about 50 requests a second, counted over ALL its
-- processes; each process's discord.py knows only its own. `rate_limit` holds, per budget, the
-- time (seconds since the epoch, the database server's clock) at which the next request may
-- go: each request moves it on by 1/rate (a "generic cell rate" scheduler: store/rate_limit.py).
-- One process on SQLite never uses it.
CREATE TABLE rate_limit (
    name TEXT PRIMARY KEY,
    tat  REAL NOT NULL
);
