-- Migration 36 for PostgreSQL: a batch whose usual statements are the function's own, with
-- typed parameters (store/pg_typed.py).
--
-- `ttr_typed_batch` does what `ttr_batch` (migration 32) does — the statements of several
-- transactions in order, each one's rows checked against `p_expects`, the whole batch rolled
-- back at the first failure and the failing transaction named (`failed`, `state`, `message`,
-- `at`), else the rows each touched (`counts`) and the id an INSERT returned (`new_ids`) — but a
-- statement of a kind it knows (`p_kinds[k]` > 0: a move's advance and log entry, its timers,
-- deliveries, cancels, snapshot) is run as the static statement below, its values taken in
-- order from three typed arrays (`p_ints`, `p_texts`, `p_floats`) into the variables it reads
-- (`v_i1`, `v_t1`, `v_f1`, …; a statement that read the arrays themselves would be handed
-- each whole array at every run, three times slower than text): its plan is made once per
-- connection and kept, no text is parsed and no literal converted. Kind 0 is `p_sqls[k]`, run as
-- `ttr_batch` runs it (an `EXECUTE ttr_wN(…)` of a prepared statement, or a whole statement).
-- The kinds' statements are the shared SQL of store/pg_typed.py's KINDS, each `?` replaced by
-- the variable holding its value (`function_body()` wrote the dispatch; a test checks they agree).
-- (`ttr_batch` stays, for processes of an older bot during an upgrade.)

CREATE FUNCTION ttr_typed_batch(p_kinds integer[], p_sqls text[], p_ints bigint[], p_texts text[],
                                p_floats double precision[], p_expects bigint[], p_wants_row boolean[],
                                p_ends integer[],
                                OUT failed integer, OUT state text, OUT message text, OUT at integer,
                                OUT counts bigint[], OUT new_ids bigint[])
LANGUAGE plpgsql AS $$
DECLARE
    total integer := coalesce(array_length(p_kinds, 1), 0);
    k integer := 0;      -- the statement being run, from 1
    job integer := 1;    -- its transaction, from 1
    v_kind integer;
    q_i integer := 0;    -- the values of the typed arrays used so far
    q_t integer := 0;
    q_f integer := 0;
    affected bigint;
    v_i1 bigint;
    v_i2 bigint;
    v_i3 bigint;
    v_i4 bigint;
    v_i5 bigint;
    v_i6 bigint;
    v_i7 bigint;
    v_i8 bigint;
    v_i9 bigint;
    v_i10 bigint;
    v_i11 bigint;
    v_i12 bigint;
    v_t1 text;
    v_t2 text;
    v_t3 text;
    v_t4 text;
    v_t5 text;
    v_t6 text;
    v_t7 text;
    v_t8 text;
    v_t9 text;
    v_t10 text;
    v_t11 text;
    v_t12 text;
    v_f1 double precision;
    v_f2 double precision;
    v_f3 double precision;
    v_f4 double precision;
    v_f5 double precision;
    v_f6 double precision;
    v_f7 double precision;
    v_f8 double precision;
    new_id bigint;
BEGIN
    counts := '{}';
    new_ids := '{}';
    BEGIN
        WHILE k < total LOOP
            k := k + 1;
            WHILE p_ends[job] < k LOOP
                job := job + 1;
            END LOOP;
            new_id := NULL;
            v_kind := p_kinds[k];
            IF v_kind = 0 THEN
                IF p_wants_row[k] THEN
                    EXECUTE p_sqls[k] INTO new_id;
                ELSE
                    EXECUTE p_sqls[k];
                END IF;
            ELSIF v_kind = 1 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2]; v_f3 := p_floats[q_f + 3];
                INSERT INTO timers (game_id, kind, seat, slot, due_at, wake_at, payload, created_at) SELECT id, CAST(v_t1 AS TEXT), CAST(v_i1 AS INTEGER), CAST(v_i2 AS INTEGER), CAST(v_f1 AS DOUBLE PRECISION), CAST(v_f2 AS DOUBLE PRECISION), CAST(v_t2 AS TEXT), CAST(v_f3 AS DOUBLE PRECISION) FROM games WHERE id = v_i3 ON CONFLICT (game_id, kind, slot) WHERE fired_at IS NULL AND cancelled_at IS NULL DO UPDATE SET seat = excluded.seat, due_at = excluded.due_at, payload = excluded.payload, created_at = excluded.created_at, for_seq = NULL, rev = timers.rev + 1, claimed_by = NULL, claimed_until = NULL, wake_at = CASE WHEN timers.wake_at <= excluded.due_at THEN timers.wake_at ELSE excluded.due_at END;
                q_i := q_i + 3; q_t := q_t + 2; q_f := q_f + 3;
            ELSIF v_kind = 2 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_i5 := p_ints[q_i + 5]; v_i6 := p_ints[q_i + 6]; v_i7 := p_ints[q_i + 7]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_t3 := p_texts[q_t + 3]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2];
                WITH u AS (UPDATE games SET seq = v_i1, waiting = v_t1, updated_at = v_f1 WHERE id = v_i2 AND seq = v_i3 AND status IN ('setup', 'playing') RETURNING 1) INSERT INTO actions (game_id, seq, actor, user_id, action, events, created_at) SELECT v_i4, v_i5, v_i6, v_i7, v_t2, v_t3, v_f2 FROM u;
                q_i := q_i + 7; q_t := q_t + 3; q_f := q_f + 2;
            ELSIF v_kind = 3 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_f1 := p_floats[q_f + 1];
                UPDATE timers SET cancelled_at = v_f1 WHERE game_id = v_i1 AND fired_at IS NULL AND cancelled_at IS NULL AND (for_seq < v_i2 OR kind = v_t1 AND (slot IS NULL OR slot >= v_i3) OR kind = v_t2 AND (slot IS NULL OR slot >= v_i4));
                q_i := q_i + 4; q_t := q_t + 2; q_f := q_f + 1;
            ELSIF v_kind = 4 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_i5 := p_ints[q_i + 5]; v_i6 := p_ints[q_i + 6]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_t3 := p_texts[q_t + 3]; v_t4 := p_texts[q_t + 4]; v_t5 := p_texts[q_t + 5]; v_t6 := p_texts[q_t + 6]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2]; v_f3 := p_floats[q_f + 3]; v_f4 := p_floats[q_f + 4];
                INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at) VALUES (v_i1, v_i2, v_t1, v_t2, v_i3, v_t3, 'pending', v_f1, v_f2), (v_i4, v_i5, v_t4, v_t5, v_i6, v_t6, 'pending', v_f3, v_f4) ON CONFLICT (game_id, key) DO NOTHING;
                q_i := q_i + 6; q_t := q_t + 6; q_f := q_f + 4;
            ELSIF v_kind = 5 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_f1 := p_floats[q_f + 1];
                UPDATE timers SET cancelled_at = v_f1 WHERE game_id = v_i1 AND for_seq < v_i2 AND fired_at IS NULL AND cancelled_at IS NULL;
                q_i := q_i + 2; q_f := q_f + 1;
            ELSIF v_kind = 6 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_t1 := p_texts[q_t + 1]; v_f1 := p_floats[q_f + 1];
                UPDATE timers SET cancelled_at = v_f1 WHERE game_id = v_i1 AND fired_at IS NULL AND cancelled_at IS NULL AND kind = v_t1 AND coalesce(seat, -1) = coalesce(CAST(v_i2 AS INTEGER), -1);
                q_i := q_i + 2; q_t := q_t + 1; q_f := q_f + 1;
            ELSIF v_kind = 7 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_i5 := p_ints[q_i + 5]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2]; v_f3 := p_floats[q_f + 3];
                INSERT INTO timers (game_id, kind, seat, for_seq, due_at, wake_at, payload, created_at) SELECT id, CAST(v_t1 AS TEXT), CAST(v_i1 AS INTEGER), CAST(v_i2 AS INTEGER), CAST(v_f1 AS DOUBLE PRECISION), CAST(v_f2 AS DOUBLE PRECISION), CAST(v_t2 AS TEXT), CAST(v_f3 AS DOUBLE PRECISION) FROM games WHERE id = v_i3 AND (CAST(v_i4 AS INTEGER) IS NULL OR seq = v_i5) RETURNING id INTO new_id;
                q_i := q_i + 5; q_t := q_t + 2; q_f := q_f + 3;
            ELSIF v_kind = 8 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_i5 := p_ints[q_i + 5]; v_i6 := p_ints[q_i + 6]; v_i7 := p_ints[q_i + 7]; v_i8 := p_ints[q_i + 8]; v_i9 := p_ints[q_i + 9]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_t3 := p_texts[q_t + 3]; v_t4 := p_texts[q_t + 4]; v_t5 := p_texts[q_t + 5]; v_t6 := p_texts[q_t + 6]; v_t7 := p_texts[q_t + 7]; v_t8 := p_texts[q_t + 8]; v_t9 := p_texts[q_t + 9]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2]; v_f3 := p_floats[q_f + 3]; v_f4 := p_floats[q_f + 4]; v_f5 := p_floats[q_f + 5]; v_f6 := p_floats[q_f + 6];
                INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at) VALUES (v_i1, v_i2, v_t1, v_t2, v_i3, v_t3, 'pending', v_f1, v_f2), (v_i4, v_i5, v_t4, v_t5, v_i6, v_t6, 'pending', v_f3, v_f4), (v_i7, v_i8, v_t7, v_t8, v_i9, v_t9, 'pending', v_f5, v_f6) ON CONFLICT (game_id, key) DO NOTHING;
                q_i := q_i + 9; q_t := q_t + 9; q_f := q_f + 6;
            ELSIF v_kind = 9 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_t3 := p_texts[q_t + 3]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2];
                INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at) VALUES (v_i1, v_i2, v_t1, v_t2, v_i3, v_t3, 'pending', v_f1, v_f2) ON CONFLICT (game_id, key) DO NOTHING;
                q_i := q_i + 3; q_t := q_t + 3; q_f := q_f + 2;
            ELSIF v_kind = 10 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_f1 := p_floats[q_f + 1];
                INSERT INTO snapshots (game_id, seq, rules_version, state, created_at, digest) VALUES (v_i1, v_i2, v_i3, v_t1, v_f1, v_t2) ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version, state = excluded.state, created_at = excluded.created_at, digest = excluded.digest;
                q_i := q_i + 3; q_t := q_t + 2; q_f := q_f + 1;
            ELSIF v_kind = 11 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_f1 := p_floats[q_f + 1];
                INSERT INTO snapshots (game_id, seq, rules_version, state, created_at, digest) SELECT id, CAST(v_i1 AS BIGINT), CAST(v_i2 AS BIGINT), CAST(v_t1 AS TEXT), CAST(v_f1 AS DOUBLE PRECISION), CAST(v_t2 AS TEXT) FROM games WHERE id = v_i3 AND seq = v_i4 ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version, state = excluded.state, created_at = excluded.created_at, digest = excluded.digest WHERE snapshots.seq < excluded.seq;
                q_i := q_i + 4; q_t := q_t + 2; q_f := q_f + 1;
            ELSIF v_kind = 12 THEN
                v_i1 := p_ints[q_i + 1]; v_i2 := p_ints[q_i + 2]; v_i3 := p_ints[q_i + 3]; v_i4 := p_ints[q_i + 4]; v_i5 := p_ints[q_i + 5]; v_i6 := p_ints[q_i + 6]; v_i7 := p_ints[q_i + 7]; v_i8 := p_ints[q_i + 8]; v_i9 := p_ints[q_i + 9]; v_i10 := p_ints[q_i + 10]; v_i11 := p_ints[q_i + 11]; v_i12 := p_ints[q_i + 12]; v_t1 := p_texts[q_t + 1]; v_t2 := p_texts[q_t + 2]; v_t3 := p_texts[q_t + 3]; v_t4 := p_texts[q_t + 4]; v_t5 := p_texts[q_t + 5]; v_t6 := p_texts[q_t + 6]; v_t7 := p_texts[q_t + 7]; v_t8 := p_texts[q_t + 8]; v_t9 := p_texts[q_t + 9]; v_t10 := p_texts[q_t + 10]; v_t11 := p_texts[q_t + 11]; v_t12 := p_texts[q_t + 12]; v_f1 := p_floats[q_f + 1]; v_f2 := p_floats[q_f + 2]; v_f3 := p_floats[q_f + 3]; v_f4 := p_floats[q_f + 4]; v_f5 := p_floats[q_f + 5]; v_f6 := p_floats[q_f + 6]; v_f7 := p_floats[q_f + 7]; v_f8 := p_floats[q_f + 8];
                INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at) VALUES (v_i1, v_i2, v_t1, v_t2, v_i3, v_t3, 'pending', v_f1, v_f2), (v_i4, v_i5, v_t4, v_t5, v_i6, v_t6, 'pending', v_f3, v_f4), (v_i7, v_i8, v_t7, v_t8, v_i9, v_t9, 'pending', v_f5, v_f6), (v_i10, v_i11, v_t10, v_t11, v_i12, v_t12, 'pending', v_f7, v_f8) ON CONFLICT (game_id, key) DO NOTHING;
                q_i := q_i + 12; q_t := q_t + 12; q_f := q_f + 8;
            ELSE
                RAISE EXCEPTION USING ERRCODE = 'TT002', MESSAGE = 'no such kind of statement: ' || v_kind;
            END IF;
            GET DIAGNOSTICS affected = ROW_COUNT;
            IF p_expects[k] IS NOT NULL AND affected <> p_expects[k] THEN
                RAISE EXCEPTION USING ERRCODE = 'TT001', MESSAGE = 'a guard found the data changed';
            END IF;
            counts[k] := affected;
            new_ids[k] := new_id;
        END LOOP;
    EXCEPTION WHEN OTHERS THEN
        failed := job - 1;
        state := SQLSTATE;
        message := SQLERRM;
        at := k - 1 - coalesce(p_ends[job - 1], 0);
        counts := NULL;
        new_ids := NULL;
    END;
END
$$;
