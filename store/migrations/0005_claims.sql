-- Migration 5: several bot processes on one database (PostgreSQL; docs/scaling.md).
--
-- A process claims the deliveries it is about to send, and the timers it is about to act on,
-- for a while (a lease): `claimed_by` names the process, `claimed_until` is when the claim
-- runs out. Other processes leave a game whose deliveries are claimed alone until then; if the
-- holder died, the work is picked up when the lease runs out. A delivery is still settled once
-- (only a pending one can end) and a timer still fires once (its guarded UPDATE); the lease
-- only keeps two processes from doing the same work. One process on SQLite never sets them.
-- The same text serves both back ends (PostgreSQL reads REAL as DOUBLE PRECISION: migrations.py).

ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
ALTER TABLE deliveries ADD COLUMN claimed_until REAL;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until REAL;
