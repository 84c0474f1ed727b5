-- Migration 32 for PostgreSQL: a batch of transactions in one round trip, one subtransaction.
--
-- `ttr_batch(sqls, expects, wants_row, ends)` runs the statements `sqls` in order: mostly
-- `EXECUTE ttr_wN(…)` of statements the connection has prepared (store/postgres_writer.py),
-- whose plans the server keeps. `expects[k]`: the rows statement k must affect (NULL: any);
-- `wants_row[k]`: it returns rows (a prepared statement returns one per row it touched, so
-- that they are counted; an INSERT whose id is wanted returns its id); `ends[j]`: the number
-- of the last statement of transaction j. It returns, per statement, the rows affected
-- (`counts`) and the id returned (`new_ids`). If any statement fails — a guard (SQLSTATE
-- TT001), a constraint, a deadlock — the whole batch is rolled back (one subtransaction for
-- all of it, not one per transaction) and the function returns the failing transaction
-- (`failed`, from 0), the SQLSTATE, the message and the statement's place in its transaction
-- (`at`, from 0); the writer answers that transaction and sends the others again. Called
-- alone (autocommit), a batch is one transaction: one WAL flush for all its moves.
-- SQLERRM never carries the DETAIL that quotes a row. (`ttr_write`, migration 6, stays for
-- processes of an older bot during an upgrade.)

CREATE FUNCTION ttr_batch(sqls text[], expects bigint[], wants_row boolean[], ends integer[],
                          OUT failed integer, OUT state text, OUT message text, OUT at integer,
                          OUT counts bigint[], OUT new_ids bigint[])
LANGUAGE plpgsql AS $$
DECLARE
    total integer := coalesce(array_length(sqls, 1), 0);
    k integer := 0;      -- the statement being run, from 1
    job integer := 1;    -- its transaction, from 1
    affected bigint;
    new_id bigint;
BEGIN
    counts := '{}';
    new_ids := '{}';
    BEGIN
        WHILE k < total LOOP
            k := k + 1;
            WHILE ends[job] < k LOOP
                job := job + 1;
            END LOOP;
            new_id := NULL;
            IF wants_row[k] THEN
                EXECUTE sqls[k] INTO new_id;
            ELSE
                EXECUTE sqls[k];
            END IF;
            GET DIAGNOSTICS affected = ROW_COUNT;
            IF expects[k] IS NOT NULL AND affected <> expects[k] THEN
                RAISE EXCEPTION USING ERRCODE = 'TT001', MESSAGE = 'a guard found the data changed';
            END IF;
            counts[k] := affected;
            new_ids[k] := new_id;
        END LOOP;
    EXCEPTION WHEN OTHERS THEN
        failed := job - 1;
        state := SQLSTATE;
        message := SQLERRM;
        at := k - 1 - coalesce(ends[job - 1], 0);
        counts := NULL;
        new_ids := NULL;
    END;
END
$$;
