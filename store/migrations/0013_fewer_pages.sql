-- Migration 13: fewer pages written per move (issue 31; docs/performance.md has the figures).
--
-- A move touches the b-trees of the tables and indexes it writes; each one whose key is the
-- game (not the time of writing) costs about a page per move, whichever game it is. Two such
-- indexes repeated what another index of the same table already has at its start:
-- - `deliveries_by_game (game_id, status)`: the unique (game_id, key) serves "the game's
--   deliveries"; what needed the status in the key is "does the game have a failed delivery",
--   which a partial index on the failed ones answers (a delivery fails rarely, so a move
--   never touches it);
-- - `timers_pending_by_game (game_id)`: `timers_one_pending (game_id, kind, seat)` holds the
--   same pending timers with the game first.
-- And the action log was a WITHOUT ROWID table keyed (game_id, seq), which keeps each row in
-- its game's place: a row of a few hundred bytes (the events) fills a game's page in a few
-- moves and splits it, about two pages and a half per move. As a rowid table its rows are
-- appended where the moves of one commit share the last pages, and only the small key
-- (game_id, seq) is written in the game's place. (PostgreSQL's tables are heaps already:
-- its text is 0013_fewer_pages.postgres.sql.)

DROP INDEX deliveries_by_game;
CREATE INDEX deliveries_failed_by_game ON deliveries (game_id) WHERE status = 'failed';
DROP INDEX timers_pending_by_game;

CREATE TABLE actions_appended (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    actor      INTEGER,
    user_id    INTEGER,
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
INSERT INTO actions_appended (game_id, seq, actor, user_id, action, events, created_at)
    SELECT game_id, seq, actor, user_id, action, events, created_at FROM actions ORDER BY game_id, seq;
-- Its triggers go with the old table (and an implicit DELETE of a dropped table fires none).
DROP TABLE actions;
ALTER TABLE actions_appended RENAME TO actions;

CREATE TRIGGER actions_are_never_updated BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_are_never_deleted BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
