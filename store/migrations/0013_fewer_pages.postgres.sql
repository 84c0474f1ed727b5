-- Migration 13 for PostgreSQL: the two indexes that repeated another index's start are
-- dropped, and the failed deliveries of a game get a partial index (see 0013_fewer_pages.sql;
-- the action log is a heap table here already, so it stays as it is).

DROP INDEX deliveries_by_game;
CREATE INDEX deliveries_failed_by_game ON deliveries (game_id) WHERE status = 'failed';
DROP INDEX timers_pending_by_game;
