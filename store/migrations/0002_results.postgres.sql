-- Migration 2 for PostgreSQL: the results table of 0002_results.sql. SQLite's file also fills
-- it from games finished under version 1; no PostgreSQL database was ever at version 1 with
-- games in it (this back end arrived with version 5, and a new database takes every migration
-- at its first start), so there is nothing to fill.

CREATE TABLE results (
    game_id           BIGINT  NOT NULL REFERENCES games (id),
    seat              INTEGER NOT NULL,
    user_id           BIGINT,
    is_ai             INTEGER NOT NULL,
    ai_level          TEXT,
    name              TEXT    NOT NULL,
    guild_id          BIGINT  NOT NULL,
    variant           TEXT    NOT NULL,
    score             INTEGER NOT NULL,
    place             INTEGER NOT NULL,
    won               INTEGER NOT NULL CHECK (won IN (0, 1)),
    tickets_completed INTEGER NOT NULL DEFAULT 0,
    tickets_failed    INTEGER NOT NULL DEFAULT 0,
    finished_at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id, guild_id) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_guild ON results (guild_id, finished_at);
