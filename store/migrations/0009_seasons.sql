-- Migration 9: leaderboard seasons and each server's leaderboard settings.
--
-- Ratings are not stored: they are computed from `results` (app/ratings.py). A season is the
-- results of one server from its start to the next season's start; season 1 has no row and
-- starts at the beginning of time.

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 2),
    started_at REAL    NOT NULL,
    started_by INTEGER,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    -- 1: games with AI seats count towards ratings (the AI levels are rated as players).
    rate_ai_games   INTEGER NOT NULL DEFAULT 1 CHECK (rate_ai_games IN (0, 1)),
    updated_at      REAL    NOT NULL
);

CREATE INDEX results_by_guild_variant ON results (guild_id, variant, finished_at);
