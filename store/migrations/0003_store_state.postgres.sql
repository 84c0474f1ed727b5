-- Migration 3 for PostgreSQL: the table of 0003_store_state.sql. Its commit counter and
-- running mark detect a lost SQLite -wal file; PostgreSQL has no such file (its own WAL is the
-- server's business), so the PostgreSQL store never bumps them. The table stays, so that both
-- back ends have the same schema and `--copy-db` need not know which is which.

CREATE TABLE store_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    db_id      TEXT    NOT NULL,
    commits    BIGINT  NOT NULL DEFAULT 0,
    running    INTEGER NOT NULL DEFAULT 0 CHECK (running IN (0, 1)),
    changed_at DOUBLE PRECISION
);
INSERT INTO store_state (id, db_id) VALUES (1, md5(random()::text || clock_timestamp()::text));
