"""Reads a store that no other process writes answers from memory: a game's plans and users'
settings (issue 31, item 4).

A move that begins a turn reads both — the plans of the seat whose turn it is, the players'
clocks (quiet hours, vacation, digest) — and each read is a hop to the read connection's
thread, about a fifth of a move's CPU at 10,000 active games, for rows that change a few times
a game at most. Every change to them goes through `Store.write` (one process holds an SQLite
file: store/file_lock.py), so the store keeps what it read and forgets it when a transaction
that touches the table is written:

- a statement a `Tx` method keyed (`Tx.keys`: the game of a plan statement, the user of a
  settings one) forgets that game's plans or that user's settings;
- any other statement that names the table (a raw `Tx.add`: a copy, a repair) forgets all of
  the table's entries.

A read that was on its way while such a write happened is not kept (`generation`): it may
have seen the rows before the commit. A shared store (PostgreSQL with several processes) has
no cache: another process may change the rows at any time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store.plans import PlanRow
from store.user_settings import UserSettingsRow
from store.writer import Statement

# Entries kept per table at most; past that the table's cache starts over (a game's plans and
# a user's settings are a few hundred bytes: 50,000 of each is a few MB).
MAX_ENTRIES = 50_000

PLANS = "plans"
USER_SETTINGS = "user_settings"


class ReadCache:
    """What the store read of plans and settings, by game and by user; see the module."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        # Bumped whenever an entry is forgotten: a read that began before keeps nothing.
        self.generation = 0
        self.plans: dict[int, list[PlanRow]] = {}
        # None: the user has no stored row (their settings are the defaults).
        self.settings: dict[int, UserSettingsRow | None] = {}

    def keep_plans(self, generation: int, game_id: int, rows: list[PlanRow]) -> None:
        """Remember a game's plans as read, unless a write touched plans since `generation`."""
        if generation == self.generation:
            if len(self.plans) >= self.max_entries:
                self.plans.clear()
            self.plans[game_id] = rows

    def keep_settings(self, generation: int, rows: dict[int, UserSettingsRow | None]) -> None:
        """Remember users' settings as read (None: no row), unless a write touched settings
        since `generation`."""
        if generation == self.generation:
            if len(self.settings) + len(rows) > self.max_entries:
                self.settings.clear()
            self.settings.update(rows)

    def wrote(self, statements: Sequence[Statement], keys: dict[int, int]) -> None:
        """A transaction with these statements was written (or may have been: call it whether
        the write succeeded or not); `keys`: statement index -> the game or user it is about."""
        for i, statement in enumerate(statements):
            if PLANS in statement.sql:
                self._forget(self.plans, keys.get(i))
            elif USER_SETTINGS in statement.sql:
                self._forget(self.settings, keys.get(i))

    def _forget(self, table: dict[int, Any], key: int | None) -> None:
        self.generation += 1
        if key is None:
            table.clear()
        else:
            table.pop(key, None)
