-- Migration 37 for PostgreSQL: the CHECK constraints a move's statements meet, as domains.
--
-- PostgreSQL reads a table's CHECK constraints from their stored text and compiles them again
-- for every statement that inserts into or updates the table (ExecConstraints: parse the node
-- string, prepare the expression), even an UPDATE that leaves the checked columns alone. A
-- move updates `games` and inserts into `actions` and `deliveries`: that was ~7 % of the
-- server's CPU per move (perf, docs/performance.md). A domain's check is kept parsed by the
-- server and is evaluated only where a value is assigned to the column, so the same rules
-- hold, the same values are refused (SQLSTATE 23514, check_violation, naming the domain), and
-- a move's advance, which sets none of these columns, checks nothing. The columns keep their
-- base types for every reader (a domain is its base type on the wire).

CREATE DOMAIN ttr_seats_wanted AS INTEGER CHECK (VALUE >= 1);
CREATE DOMAIN ttr_game_status AS TEXT
    CHECK (VALUE IN ('lobby', 'cancelled', 'setup', 'playing', 'over', 'broken'));
CREATE DOMAIN ttr_away_days AS DOUBLE PRECISION CHECK (VALUE >= 0);
CREATE DOMAIN ttr_action_seq AS INTEGER CHECK (VALUE >= 0);
CREATE DOMAIN ttr_delivery_status AS TEXT CHECK (VALUE IN ('pending', 'sent', 'dropped', 'failed'));

ALTER TABLE games DROP CONSTRAINT games_seats_wanted_check, DROP CONSTRAINT games_status_check,
    DROP CONSTRAINT games_max_away_days_check,
    ALTER COLUMN seats_wanted TYPE ttr_seats_wanted, ALTER COLUMN status TYPE ttr_game_status,
    ALTER COLUMN max_away_days TYPE ttr_away_days;
ALTER TABLE actions DROP CONSTRAINT actions_seq_check, ALTER COLUMN seq TYPE ttr_action_seq;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check, ALTER COLUMN status TYPE ttr_delivery_status;
