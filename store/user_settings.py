"""Each player's own preferences (migration 7, table `user_settings`): one row per Discord
user, for every game they play. A user without a row has the defaults.

`SettingsWrites` adds its statement to a transaction (`Tx`); `SettingsReads` reads the rows
(both mixed into the store's classes, like the outbox's). Nothing here knows what a setting
does: the application reads them (app/settings_ops.py) and the Discord layer draws with them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

USER_SETTINGS_COLUMNS = "user_id, colorblind, hand_picture, updated_at"
# The settings a user can change, with their values when the user has no row.
USER_FLAGS: dict[str, bool] = {"colorblind": False, "hand_picture": True}


@dataclass(frozen=True, slots=True)
class UserSettingsRow:
    """One user's stored preferences."""

    user_id: int
    colorblind: bool = USER_FLAGS["colorblind"]
    hand_picture: bool = USER_FLAGS["hand_picture"]
    updated_at: float | None = None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> UserSettingsRow:
        return cls(int(row[0]), bool(row[1]), bool(row[2]), float(row[3]))


class SettingsWrites:
    """The statement that changes a user's preference (mixed into `Tx`)."""

    now: float
    add: Callable[..., int]  # Tx.add

    def set_user_flag(self, user_id: int, name: str, value: bool) -> None:
        """Set one preference of a user (creating their row with the defaults for the rest)."""
        if name not in USER_FLAGS:  # the column name goes into the SQL: only known ones
            raise ValueError(f"there is no user setting {name!r}")
        self.add(
            f"INSERT INTO user_settings (user_id, {name}, updated_at) VALUES (?, ?, ?)"
            f" ON CONFLICT (user_id) DO UPDATE SET {name} = excluded.{name}, updated_at = excluded.updated_at",
            (user_id, int(value), self.now),
        )


class SettingsReads:
    """Reading users' preferences (mixed into `Store`)."""

    _any: str
    _fetch: Callable[..., Awaitable[list[Any]]]  # Store._fetch
    _list: Callable[[Iterable[Any]], Any]  # Store._list

    async def user_settings(self, user_ids: Iterable[int]) -> dict[int, UserSettingsRow]:
        """The stored preferences of these users; a user with none stored is left out."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        rows = await self._fetch(
            f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE user_id {self._any}", (self._list(ids),))
        return {int(r[0]): UserSettingsRow.from_row(r) for r in rows}
