-- Migration 3: what the store knows about the database file itself, to notice lost writes.
--
-- `commits` goes up by one in every transaction of the writer, and the store copies it into
-- a small file beside the database (<database>-lastcommit) after each commit. If the
-- database later holds fewer commits than that file says, writes were lost: typically its
-- -wal file was deleted, or the file was replaced by a copy taken without it.
-- `running` is 1 while a bot has the database open and 0 after a clean close, which folds the
-- -wal into the file: a file that says 1 but has no -wal beside it may be missing the last
-- writes. `db_id` tells this database from others (a backup copy gets a new one), so that a
-- -lastcommit file is only compared with the database it was written for.

CREATE TABLE store_state (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    db_id      TEXT    NOT NULL,
    commits    INTEGER NOT NULL DEFAULT 0,
    running    INTEGER NOT NULL DEFAULT 0 CHECK (running IN (0, 1)),
    changed_at REAL
);
INSERT INTO store_state (id, db_id) VALUES (1, lower(hex(randomblob(16))));
