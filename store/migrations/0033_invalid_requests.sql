-- Migration 33: the invalid requests to Discord (answers 401, 403, 429) of every process of the
-- bot together, per minute (docs/scaling.md). Discord bans a bot's address for a while at 10,000
-- in 10 minutes, counted over all its processes; each process counts its own too, but only this
-- sum tells how near the bot is (bot_app/invalid_requests.py, store/rate_limit.py). `minute` is
-- seconds since the epoch // 60 on the database server's clock; rows older than the window are
-- deleted as new ones come. One process on SQLite never uses it.
CREATE TABLE invalid_requests (
    minute INTEGER PRIMARY KEY,
    count  INTEGER NOT NULL
);
