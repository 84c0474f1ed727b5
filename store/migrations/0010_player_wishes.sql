-- Migration 10: what asynchronous players asked for (issue 19).
--
-- Each player's own clock (`/ttr settings`, per Discord user): their time zone (an IANA name;
-- NULL is UTC), quiet hours in it (minutes after local midnight; NULL: none), a vacation
-- [away_from, away_until) in Unix seconds, and a daily digest instead of a ping per turn: the
-- local hour they picked (NULL: a ping per turn) and when the next one is due.
--
-- Each table's longest vacation (`/ttr new away_days`, 7 by default; 0: none): a player's
-- vacation counts in a game up to that many days.
--
-- `skip_votes`: the other players' votes to hand a seat's turn to the AI now, one row per
-- voter, for the turn named in `turn` (the turn key of app/owed.py); they are cleared when a
-- turn begins.
-- The same text serves both back ends (migrations.py spells the types for PostgreSQL).

ALTER TABLE user_settings ADD COLUMN timezone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439);
ALTER TABLE user_settings ADD COLUMN quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439);
ALTER TABLE user_settings ADD COLUMN away_from REAL;
ALTER TABLE user_settings ADD COLUMN away_until REAL;
ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE user_settings ADD COLUMN digest_due REAL;
CREATE INDEX user_settings_digest_due ON user_settings (digest_due) WHERE digest_due IS NOT NULL;

ALTER TABLE games ADD COLUMN max_away_days REAL NOT NULL DEFAULT 7 CHECK (max_away_days >= 0);

CREATE TABLE skip_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL,
    voter      INTEGER NOT NULL,
    turn       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat, voter)
);
