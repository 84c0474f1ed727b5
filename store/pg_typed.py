"""A move's statements with typed parameters: what `ttr_typed_batch` (migration 36) runs as
its own static SQL, so that the server parses no statement text and converts no literal.

The statements a move writes on PostgreSQL are a handful of texts (docs/performance.md, "One
function for the whole batch"): the game's advance fused with its log entry, the turn's timer
upserts, its deliveries, the cancels, a snapshot. Each is a KIND here: its shared SQL exactly as
the store's parts write it (after `postgres_writer.fuse`), and one letter per `?`, the type of
that parameter — `i` bigint, `t` text, `f` double precision. The writer sends the values of
every such statement in a batch in three typed arrays (asyncpg writes them in binary) and the
kind's number; the function holds each kind's statement as static PL/pgSQL, the `?` read from
those arrays (`p_ints[q_i + 1]`, …), so its plan is made once per connection and kept, and
each statement costs its execution and little else. Any other statement, or one whose values
do not fit its letters (a float where an integer goes), goes as before: text, through the
statements the connection has prepared (kind 0).

`function_body()` writes the function's dispatch from KINDS; migration 36 holds its text as
written then, and tests/store/test_postgres_typed.py checks that they still agree (a kind
whose SQL changed in its part is simply no longer met, and goes as text: slower, not wrong).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store.errors import StoreError

_ADVANCE_AND_LOG = (
    "WITH u AS (UPDATE games SET seq = ?, waiting = ?, updated_at = ? WHERE id = ? AND seq = ?"
    " AND status IN ('setup', 'playing') RETURNING 1) INSERT INTO actions (game_id, seq, actor, user_id, action,"
    " events, created_at) SELECT ?, ?, ?, ?, ?, ?, ? FROM u")
_TIMER_SLOT = (
    "INSERT INTO timers (game_id, kind, seat, slot, due_at, wake_at, payload, created_at) SELECT id,"
    " CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
    " CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
    " ON CONFLICT (game_id, kind, slot) WHERE fired_at IS NULL AND cancelled_at IS NULL DO UPDATE SET"
    " seat = excluded.seat, due_at = excluded.due_at, payload = excluded.payload, created_at = excluded.created_at,"
    " for_seq = NULL, rev = timers.rev + 1, claimed_by = NULL, claimed_until = NULL, wake_at = CASE WHEN"
    " timers.wake_at <= excluded.due_at THEN timers.wake_at ELSE excluded.due_at END")
_CANCEL_TURN = (
    "UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND fired_at IS NULL AND cancelled_at IS NULL AND"
    " (for_seq < ? OR kind = ? AND (slot IS NULL OR slot >= ?) OR kind = ? AND (slot IS NULL OR slot >= ?))")
_CANCEL_BEFORE = ("UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND for_seq < ? AND fired_at IS NULL"
                  " AND cancelled_at IS NULL")
_CANCEL_KIND = ("UPDATE timers SET cancelled_at = ? WHERE game_id = ? AND fired_at IS NULL AND cancelled_at IS NULL"
                " AND kind = ? AND coalesce(seat, -1) = coalesce(CAST(? AS INTEGER), -1)")
_TIMER_FOR_SEQ = (
    "INSERT INTO timers (game_id, kind, seat, for_seq, due_at, wake_at, payload, created_at) SELECT id,"
    " CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION),"
    " CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?"
    " AND (CAST(? AS INTEGER) IS NULL OR seq = ?)")
_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, seq, rules_version, state, created_at, digest) VALUES (?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version,"
    " state = excluded.state, created_at = excluded.created_at, digest = excluded.digest")
_CATCH_UP_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, seq, rules_version, state, created_at, digest) SELECT id, CAST(? AS BIGINT),"
    " CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT) FROM games WHERE id = ?"
    " AND seq = ? ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, rules_version = excluded.rules_version,"
    " state = excluded.state, created_at = excluded.created_at, digest = excluded.digest"
    " WHERE snapshots.seq < excluded.seq")


def _owe(rows: int) -> str:
    return ("INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?, 'pending', ?, ?)"] * rows) + " ON CONFLICT (game_id, key) DO NOTHING")


_OWE_SLOTS = "iittitff"

# (shared SQL, one letter per `?`), most frequent first (the function tries them in this order);
# a kind's number is its place here, from 1. Only ever add at the end: a kind's number is what
# the function of migration 36 knows it by.
KINDS: tuple[tuple[str, str], ...] = (
    (_TIMER_SLOT, "tiifftfi"),
    (_ADVANCE_AND_LOG, "itfii" + "iiiittf"),
    (_CANCEL_TURN, "fiititi"),
    (_owe(2), _OWE_SLOTS * 2),
    (_CANCEL_BEFORE, "fii"),
    (_CANCEL_KIND, "fiti"),
    (_TIMER_FOR_SEQ, "tiifftfiii"),
    (_owe(3), _OWE_SLOTS * 3),
    (_owe(1), _OWE_SLOTS),
    (_SNAPSHOT, "iiitft"),
    (_CATCH_UP_SNAPSHOT, "iitftii"),
    (_owe(4), _OWE_SLOTS * 4),
)

# Shared SQL -> (its kind's number, its letters).
BY_SQL: dict[str, tuple[int, str]] = {sql: (n, slots) for n, (sql, slots) in enumerate(KINDS, start=1)}

_POOLS = {"i": ("p_ints", "q_i"), "t": ("p_texts", "q_t"), "f": ("p_floats", "q_f")}
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1


def split(params: Sequence[Any], slots: str, ints: list[Any], texts: list[Any], floats: list[Any]) -> bool:
    """Append `params` to the typed arrays by their letters; False (nothing appended) when a
    value does not fit its letter exactly as its literal would have (then the statement goes
    as text). Text with a NUL character is refused by the caller first (`literal`)."""
    ni, nt, nf = len(ints), len(texts), len(floats)
    for value, slot in zip(params, slots, strict=True):
        kind = type(value)
        if value is None:
            (ints if slot == "i" else texts if slot == "t" else floats).append(None)
        elif slot == "i" and (kind is int or isinstance(value, int)) and _INT_MIN <= value <= _INT_MAX:
            ints.append(int(value))
        elif slot == "t" and kind is str:
            if "\x00" in value:
                del ints[ni:], texts[nt:], floats[nf:]
                raise StoreError("The database refused a write: text with a NUL character")
            texts.append(value)
        elif slot == "f" and (kind is float or (kind is int and abs(value) < 2 ** 53)):
            floats.append(float(value))
        else:
            del ints[ni:], texts[nt:], floats[nf:]
            return False
    return True


def static_sql(sql: str, slots: str) -> str:
    """`sql` with its `?` read from the function's variables (`v_i1`, `v_t1`, `v_f1`, …: the
    typed arrays' next values, in order), as the function runs it."""
    pieces = sql.split("?")
    assert len(pieces) == len(slots) + 1, sql
    used = {"i": 0, "t": 0, "f": 0}
    out = [pieces[0]]
    for slot, piece in zip(slots, pieces[1:], strict=True):
        used[slot] += 1
        out.append(f"v_{slot}{used[slot]}{piece}")
    return "".join(out)


def _loads(slots: str) -> str:
    """The assignments of a kind's values to the variables its statement reads (a statement
    that read the arrays themselves would be handed each whole array, at every run)."""
    out = []
    for s in "itf":
        array, counter = _POOLS[s]
        out += [f"v_{s}{n} := {array}[{counter} + {n}];" for n in range(1, slots.count(s) + 1)]
    return " ".join(out)


def variables() -> dict[str, int]:
    """How many variables of each letter the function declares: the most any kind reads."""
    return {s: max(slots.count(s) for _sql, slots in KINDS) for s in "itf"}


def function_body() -> str:
    """The dispatch of `ttr_typed_batch`: per kind, its static statement (an INSERT whose id
    is wanted returns it INTO new_id), then the arrays' counters moved past its values."""
    lines: list[str] = []
    for n, (sql, slots) in enumerate(KINDS, start=1):
        text = static_sql(sql, slots)
        returns = " RETURNING id INTO new_id" if returns_id(n) else ""
        lines.append(f"            {'IF' if n == 1 else 'ELSIF'} v_kind = {n} THEN")
        lines.append(f"                {_loads(slots)}")
        lines.append(f"                {text}{returns};")
        moves = [f"{_POOLS[s][1]} := {_POOLS[s][1]} + {slots.count(s)};" for s in "itf" if s in slots]
        lines.append("                " + " ".join(moves))
    return "\n".join(lines)


def returns_id(kind: int) -> bool:
    """Whether the function returns the new row's id for this kind (its statement's `returns_id`)."""
    return KINDS[kind - 1][0].startswith("INSERT INTO timers (game_id, kind, seat, for_seq")
