-- Migration 6 for PostgreSQL: write a batch of transactions in one round trip.
--
-- `ttr_write(jobs)` takes the store's transactions as JSON — a list of jobs, each a list of
-- statements {"sql": text with its values in it, "expect": rows it must affect (optional),
-- "id": whether it returns the new row's id} — and runs each job in a subtransaction, so that
-- a job whose guard fails (it affected another number of rows than expected: SQLSTATE TT001,
-- MESSAGE the statement's position), or that breaks a constraint, is rolled back alone and the
-- others stand. It returns, per job, {"ok": [[rows, id], …]} or {"error": SQLSTATE, "message":
-- …, "at": position}. Called alone (autocommit), the whole batch is one transaction: one
-- network round trip and one WAL flush for every move of the batch (store/postgres.py).
-- SQLERRM never carries the DETAIL that quotes a row.

CREATE FUNCTION ttr_write(jobs jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
    job jsonb;
    statement jsonb;
    results jsonb := '[]'::jsonb;
    done jsonb;
    affected bigint;
    new_id bigint;
    position integer;
BEGIN
    FOR job IN SELECT value FROM jsonb_array_elements(jobs) LOOP
        done := '[]'::jsonb;
        position := 0;
        BEGIN
            FOR statement IN SELECT value FROM jsonb_array_elements(job) LOOP
                new_id := NULL;
                IF coalesce((statement->>'id')::boolean, false) THEN
                    EXECUTE statement->>'sql' INTO new_id;
                ELSE
                    EXECUTE statement->>'sql';
                END IF;
                GET DIAGNOSTICS affected = ROW_COUNT;
                IF statement ? 'expect' AND affected <> (statement->>'expect')::bigint THEN
                    RAISE EXCEPTION USING ERRCODE = 'TT001', MESSAGE = position::text;
                END IF;
                done := done || jsonb_build_array(jsonb_build_array(affected, new_id));
                position := position + 1;
            END LOOP;
            results := results || jsonb_build_array(jsonb_build_object('ok', done));
        EXCEPTION WHEN OTHERS THEN
            results := results || jsonb_build_array(
                jsonb_build_object('error', SQLSTATE, 'message', SQLERRM, 'at', position));
        END;
    END LOOP;
    RETURN results;
END
$$;
