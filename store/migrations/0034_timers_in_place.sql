-- Migration 34: a turn's timers rescheduled in place, and an append-only wake table (issue 31,
-- item 4; docs/performance.md, "The turn's timers rescheduled in place").
--
-- A turn used to cancel the game's reminder and limit and insert two new rows: the partial
-- indexes on pending timers lost two entries and gained two, and the due-time index lost its
-- entries wherever that game's last due times fell (a random page of it per move). Now:
--
-- - `slot`: the turn's timers of one kind are the game's slots 0, 1, … of that kind (one per
--   waiting player), and the next turn updates those rows in place (seat, due time, payload):
--   `timers_pending_slots (game_id, kind, slot)` holds neither the seat nor the due time, so
--   such an update writes only the row's own page. Timers set one by one (`schedule`) have no
--   slot (NULL: never in conflict).
-- - `rev`: counts a row's reschedules. A timer fires only at the revision it was read at, so a
--   timer loop holding an old reading cannot fire a row that is now the next player's turn.
-- - `timer_wakes (wake_at, timer_id)`: when the timer loop must look at a pending row, appended
--   to (near its right edge: due times are "now + a turn") and cleared at its left edge by the
--   loop; never written in a game's place. A row's `wake_at` names its live entry and is only
--   ever lowered by a reschedule (a later due time keeps the earlier entry): when the loop
--   wakes for a row not yet due, it appends the row's entry again at its due time. So every
--   pending row has an entry at or before its due time, and the loop's "when next" is the
--   wake table's first key. The triggers below keep the table in step with the rows, in the
--   transaction that changes them.
-- (PostgreSQL keeps its due-time index, which its leased claims read: 0034_timers_in_place.postgres.sql.)

ALTER TABLE timers ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN slot INTEGER;
ALTER TABLE timers ADD COLUMN wake_at REAL;
UPDATE timers SET wake_at = due_at WHERE fired_at IS NULL AND cancelled_at IS NULL;
-- The pending reminders and limits take the slots of their game and kind in the order they
-- were set, so the next turn reschedules them in place too.
UPDATE timers SET slot = (SELECT count(*) FROM timers AS o WHERE o.game_id = timers.game_id AND o.kind = timers.kind
                          AND o.fired_at IS NULL AND o.cancelled_at IS NULL AND o.id < timers.id)
 WHERE kind IN ('reminder', 'limit') AND fired_at IS NULL AND cancelled_at IS NULL;

DROP INDEX timers_pending_by_due;
DROP INDEX timers_one_pending;
CREATE UNIQUE INDEX timers_pending_slots ON timers (game_id, kind, slot)
    WHERE fired_at IS NULL AND cancelled_at IS NULL;

CREATE TABLE timer_wakes (
    wake_at  REAL    NOT NULL,
    timer_id INTEGER NOT NULL,
    PRIMARY KEY (wake_at, timer_id)
) WITHOUT ROWID;
INSERT INTO timer_wakes (wake_at, timer_id)
    SELECT wake_at, id FROM timers WHERE fired_at IS NULL AND cancelled_at IS NULL;

-- A new pending row gets its entry (a row written without `wake_at`, by an older copy, wakes
-- at its due time).
CREATE TRIGGER timers_wake_when_set AFTER INSERT ON timers
WHEN NEW.fired_at IS NULL AND NEW.cancelled_at IS NULL
BEGIN
    UPDATE timers SET wake_at = NEW.due_at WHERE id = NEW.id AND wake_at IS NULL;
    INSERT OR IGNORE INTO timer_wakes (wake_at, timer_id) VALUES (coalesce(NEW.wake_at, NEW.due_at), NEW.id);
END;

-- A pending row whose wake time moved (lowered by a reschedule, or set again by the loop).
CREATE TRIGGER timers_wake_when_moved AFTER UPDATE OF wake_at ON timers
WHEN NEW.wake_at IS NOT NULL AND NEW.wake_at IS NOT OLD.wake_at
     AND NEW.fired_at IS NULL AND NEW.cancelled_at IS NULL
BEGIN
    INSERT OR IGNORE INTO timer_wakes (wake_at, timer_id) VALUES (NEW.wake_at, NEW.id);
END;

-- A fired row's entry goes at once (it is at the left edge: the loop is acting on it). A
-- cancelled row's entry stays where it is until the loop passes it (a cancel comes with a
-- move, and clearing the entry then would write a random page of the table).
CREATE TRIGGER timers_wake_when_fired AFTER UPDATE OF fired_at ON timers
WHEN OLD.fired_at IS NULL AND NEW.fired_at IS NOT NULL
BEGIN
    DELETE FROM timer_wakes WHERE wake_at = OLD.wake_at AND timer_id = OLD.id;
END;
