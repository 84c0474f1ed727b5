-- Migration 12: each user's direct-message channel with the bot (issue 31). discord.py keeps
-- only the 128 most recent DM channels, so with more players most DMs would first open the
-- channel again (a request of its own against the bot's rate limit); with the id stored, a DM
-- is sent straight to it. A row is written when the bot opens a channel and removed when
-- Discord says the channel is gone (it is then opened again at the next DM).
-- The same text serves both back ends (migrations.py spells the types for PostgreSQL).

CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    updated_at REAL    NOT NULL
);
