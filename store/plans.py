"""Each seat's planned moves (migration 11), as text: the store keeps them, app/plan_ops.py
knows what they mean.

`PlanWrites` is a transaction's part (`tx.plans`), `PlanReads` the store's (`store.plans`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store.reader import Reader
from store.records import utf8_or_none

if TYPE_CHECKING:
    from store.repository import Tx

PLAN_COLUMNS = "game_id, seat, user_id, plans, revision, updated_at"
CHANGED = "The plan changed meanwhile."


@dataclass(frozen=True, slots=True)
class PlanRow:
    """One seat's stored plans (`plans`: JSON text, a list of turn plans, the next first)."""

    game_id: int
    seat: int
    user_id: int
    plans: str
    revision: int
    updated_at: float

    @classmethod
    def from_row(cls, row: Any) -> PlanRow:
        # Text comes back as bytes (store/records.py): a row that is not UTF-8 reads as no plan.
        text = row[3] if isinstance(row[3], str) else utf8_or_none(bytes(row[3])) or ""
        return cls(int(row[0]), int(row[1]), int(row[2]), text, int(row[4]), float(row[5]))


class PlanWrites:
    """Statements on plans (`tx.plans`), each keyed by its game (`Tx.keys`: store/read_cache.py)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def put(self, game_id: int, seat: int, user_id: int, plans_json: str) -> None:
        """Store `seat`'s plans, replacing any it had."""
        self._tx.keys[self._tx.add(
            "INSERT INTO plans (game_id, seat, user_id, plans, revision, updated_at) VALUES (?, ?, ?, ?, 1, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, plans = excluded.plans,"
            " revision = plans.revision + 1, updated_at = excluded.updated_at",
            (game_id, seat, user_id, plans_json, self._tx.now),
        )] = game_id

    def take(self, game_id: int, seat: int, revision: int, rest_json: str | None) -> None:
        """A plan ran (or was dropped) in this transaction: the row as read at `revision` is
        deleted, or keeps only `rest_json` (the plans after it). Guarded by the revision."""
        if rest_json is None:
            self._tx.keys[self._tx.add("DELETE FROM plans WHERE game_id = ? AND seat = ? AND revision = ?",
                                       (game_id, seat, revision), expect_rows=1, conflict=CHANGED)] = game_id
            return
        self._tx.keys[self._tx.add("UPDATE plans SET plans = ?, revision = revision + 1, updated_at = ?"
                                   " WHERE game_id = ? AND seat = ? AND revision = ?",
                                   (rest_json, self._tx.now, game_id, seat, revision), expect_rows=1,
                                   conflict=CHANGED)] = game_id

    def drop(self, game_id: int, seat: int | None = None) -> None:
        """Forget a seat's plans (cancelled, the seat handed over), or every seat's (None: the
        game ended)."""
        if seat is None:
            self._tx.keys[self._tx.add("DELETE FROM plans WHERE game_id = ?", (game_id,))] = game_id
        else:
            self._tx.keys[self._tx.add("DELETE FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat))] = game_id


class PlanReads:
    """Reads of plans (`store.plans`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def get(self, game_id: int, seat: int | None = None) -> list[PlanRow]:
        """The stored plans of a game (of one seat), by seat."""
        cache = self._read.cache
        if cache is not None:  # a whole game's plans, read once (store/read_cache.py)
            found = cache.plans.get(game_id)
            if found is None:
                generation = cache.generation
                found = [PlanRow.from_row(r) for r in await self._read.fetch(
                    f"SELECT {PLAN_COLUMNS} FROM plans WHERE game_id = ? ORDER BY seat", (game_id,))]
                cache.keep_plans(generation, game_id, found)
            return list(found) if seat is None else [r for r in found if r.seat == seat]
        if seat is None:
            rows = await self._read.fetch(f"SELECT {PLAN_COLUMNS} FROM plans WHERE game_id = ? ORDER BY seat",
                                          (game_id,))
        else:
            rows = await self._read.fetch(f"SELECT {PLAN_COLUMNS} FROM plans WHERE game_id = ? AND seat = ?",
                                          (game_id, seat))
        return [PlanRow.from_row(r) for r in rows]
