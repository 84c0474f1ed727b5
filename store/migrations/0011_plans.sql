-- Migration 11: planned moves (issue 29). Each seat's plans for its next turn (and, where the
-- table allows it, the one after), as the JSON of app/plans/model.py. One row per seat; the
-- row is taken (deleted, or its first plan removed) in the same transaction as the moves the
-- plan played, so a plan runs exactly once. `revision` counts the row's changes: taking a
-- plan is guarded by the revision read, so a plan changed meanwhile (another process) is not
-- taken as it was. `user_id`: who wrote it (a seat handed to someone else drops it).
-- Plans are private: nothing of this table goes into a public post, picture or log.
-- The same text serves both back ends (migrations.py spells the types for PostgreSQL).

CREATE TABLE plans (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    plans      TEXT    NOT NULL,
    revision   INTEGER NOT NULL DEFAULT 1,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
