-- Migration 35 for PostgreSQL: a game's version, moved by the server itself (triggers), so that
-- a process holding the game in memory can tell at every use, by reading two numbers, whether
-- anyone changed its row or its seats since it read them (app/loader.py).
--
-- The rule: every change of a game's row either RAISES its `seq` (a move's advance: the
-- processes compare seq anyway, and a process that raised it knows what it wrote) or bumps its
-- `version` by one; every change of one of its seats (UPDATE, DELETE of a `players` row) bumps
-- the game's version by one. So the pair (seq, version) of a row is never the same twice for
-- two different contents of the row and its seats: a process that read both with the row and
-- seats, and finds them unchanged, holds what is stored. A seat INSERTed moves nothing: seats
-- are inserted only at a table not yet started (no process holds it in memory: it cannot be
-- loaded) and when it starts, in the transaction whose UPDATE of the game bumps the version —
-- and by a copy (store/copy.py), which must leave the version as the source had it.

ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION ttr_game_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.version := OLD.version + 1;
    RETURN NEW;
END
$$;

-- (The WHEN clause is evaluated without calling the function: a move's advance, which raises
-- seq, costs nothing more.)
CREATE TRIGGER games_version BEFORE UPDATE ON games FOR EACH ROW
    WHEN (NEW.seq IS NULL OR OLD.seq IS NULL OR NEW.seq <= OLD.seq)
    EXECUTE FUNCTION ttr_game_version();

CREATE FUNCTION ttr_seat_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- (The UPDATE leaves seq as it is: `games_version` bumps the version.)
    UPDATE games SET version = version WHERE id = OLD.game_id;
    IF TG_OP = 'UPDATE' AND NEW.game_id IS DISTINCT FROM OLD.game_id THEN
        UPDATE games SET version = version WHERE id = NEW.game_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER players_version AFTER UPDATE OR DELETE ON players FOR EACH ROW
    EXECUTE FUNCTION ttr_seat_version();
