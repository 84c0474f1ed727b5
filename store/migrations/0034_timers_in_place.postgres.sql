-- Migration 34 for PostgreSQL: the turn's timers rescheduled in place (`slot`, `rev`; see
-- 0034_timers_in_place.sql). PostgreSQL keeps `timers_pending_by_due`, which its leased claims
-- read (store/pg_parts.py), and has no wake table: `wake_at` is written by the shared
-- statements and kept as SQLite keeps it, so a copy to SQLite (store/copy.py) wakes right.

ALTER TABLE timers ADD COLUMN rev BIGINT NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN slot BIGINT;
ALTER TABLE timers ADD COLUMN wake_at DOUBLE PRECISION;
UPDATE timers SET wake_at = due_at WHERE fired_at IS NULL AND cancelled_at IS NULL;
-- The pending reminders and limits take the slots of their game and kind in the order they
-- were set, so the next turn reschedules them in place too.
UPDATE timers SET slot = (SELECT count(*) FROM timers AS o WHERE o.game_id = timers.game_id AND o.kind = timers.kind
                          AND o.fired_at IS NULL AND o.cancelled_at IS NULL AND o.id < timers.id)
 WHERE kind IN ('reminder', 'limit') AND fired_at IS NULL AND cancelled_at IS NULL;

DROP INDEX timers_one_pending;
CREATE UNIQUE INDEX timers_pending_slots ON timers (game_id, kind, slot)
    WHERE fired_at IS NULL AND cancelled_at IS NULL;
