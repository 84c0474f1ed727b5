"""Each player's own preferences (migrations 7 and 8, table `user_settings`): one row per
Discord user, for every game they play. A user without a row has the defaults.

`SettingsWrites` is a transaction's part (`tx.user_settings`), `SettingsReads` the store's
(`store.user_settings`). Nothing here knows what a setting
does: the application reads them (app/settings_ops.py, app/player_clock.py) and the Discord
layer draws with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store.reader import Reader

if TYPE_CHECKING:
    from store.repository import Tx

USER_SETTINGS_COLUMNS = ("user_id, colorblind, hand_picture, updated_at, timezone, quiet_start, quiet_end, away_from,"
                         " away_until, digest_hour, digest_due, language")
# The settings a user can change, with their values when the user has no row.
USER_FLAGS: dict[str, bool] = {"colorblind": False, "hand_picture": True}
_UPSERT = ("INSERT INTO user_settings (user_id, {cols}, updated_at) VALUES (?, {marks}, ?)"
           " ON CONFLICT (user_id) DO UPDATE SET {sets}, updated_at = excluded.updated_at")


@dataclass(frozen=True, slots=True)
class UserSettingsRow:
    """One user's stored preferences."""

    user_id: int
    colorblind: bool = USER_FLAGS["colorblind"]
    hand_picture: bool = USER_FLAGS["hand_picture"]
    updated_at: float | None = None
    timezone: str | None = None  # an IANA name (None: UTC)
    quiet_start: int | None = None  # quiet hours, minutes after local midnight (None: none)
    quiet_end: int | None = None
    away_from: float | None = None  # a vacation [away_from, away_until), Unix seconds
    away_until: float | None = None
    digest_hour: int | None = None  # one DM a day at this local hour (None: a ping per turn)
    digest_due: float | None = None  # when the next digest is due
    language: str | None = None  # a catalogue code (migration 17; None: their Discord locale)

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> UserSettingsRow:
        tz, language = _text(row[4]), _text(row[11])
        return cls(int(row[0]), bool(row[1]), bool(row[2]), float(row[3]), tz, _int(row[5]), _int(row[6]),
                   _float(row[7]), _float(row[8]), _int(row[9]), _float(row[10]), language)


def _text(value: Any) -> str | None:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return None if value is None else str(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


class SettingsWrites:
    """The statements that change a user's preferences (`tx.user_settings`). Each is keyed by its
    user (`Tx.keys`), so that the store forgets only that user's settings (store/read_cache.py)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def set_flag(self, user_id: int, name: str, value: bool) -> None:
        """Set one preference of a user (creating their row with the defaults for the rest)."""
        if name not in USER_FLAGS:  # the column name goes into the SQL: only known ones
            raise ValueError(f"there is no user setting {name!r}")
        self._upsert(user_id, {name: int(value)})

    def set_time_zone(self, user_id: int, tz: str | None) -> None:
        """A user's time zone (None: UTC)."""
        self._upsert(user_id, {"timezone": tz})

    def set_quiet_hours(self, user_id: int, quiet: tuple[int, int] | None) -> None:
        """A user's quiet hours, minutes after local midnight (None: none)."""
        start, end = quiet if quiet is not None else (None, None)
        self._upsert(user_id, {"quiet_start": start, "quiet_end": end})

    def set_away(self, user_id: int, away_from: float | None, away_until: float | None) -> None:
        """A user's vacation (None, None: none)."""
        self._upsert(user_id, {"away_from": away_from, "away_until": away_until})

    def set_language(self, user_id: int, language: str | None) -> None:
        """A user's own language (None: their Discord client's)."""
        self._upsert(user_id, {"language": language})

    def set_digest(self, user_id: int, hour: int | None, due: float | None) -> None:
        """A daily digest at a local hour, next due at `due` (None, None: a ping per turn)."""
        self._upsert(user_id, {"digest_hour": hour, "digest_due": due})

    def advance_digest(self, user_id: int, was_due: float, due: float) -> None:
        """Move a user's digest on to `due`, if it is still due at `was_due`; else the whole
        transaction fails (WriteConflict): a digest goes out once, even with two processes."""
        self._tx.keys[self._tx.add("UPDATE user_settings SET digest_due = ? WHERE user_id = ? AND digest_due = ?",
                                   (due, user_id, was_due), expect_rows=1,
                                   conflict="That digest has already been sent.")] = user_id

    def _upsert(self, user_id: int, values: dict[str, Any]) -> None:
        cols = list(values)  # only the names written here, never user input
        sql = _UPSERT.format(cols=", ".join(cols), marks=", ".join("?" for _ in cols),
                             sets=", ".join(f"{c} = excluded.{c}" for c in cols))
        self._tx.keys[self._tx.add(sql, (user_id, *values.values(), self._tx.now))] = user_id


class SettingsReads:
    """Reading users' preferences (`store.user_settings`)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def get(self, user_ids: Iterable[int]) -> dict[int, UserSettingsRow]:
        """The stored preferences of these users; a user with none stored is left out."""
        ids = sorted({int(u) for u in user_ids})
        if not ids:
            return {}
        cache = self._read.cache
        if cache is not None:  # what was read before, until a write changes it (store/read_cache.py)
            known = cache.settings
            missing = [u for u in ids if u not in known]
            if missing:
                generation = cache.generation
                read = await self._read_settings(missing)
                cache.keep_settings(generation, {u: read.get(u) for u in missing})
                found = {u: known.get(u, read.get(u)) for u in ids}
            else:
                found = {u: known[u] for u in ids}
            return {u: row for u, row in found.items() if row is not None}
        return await self._read_settings(ids)

    async def _read_settings(self, ids: list[int]) -> dict[int, UserSettingsRow]:
        rows = await self._read.fetch(
            f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE user_id {self._read.any}",
            (self._read.as_list(ids),))
        return {int(r[0]): UserSettingsRow.from_row(r) for r in rows}

    async def due_digests(self, now: float, limit: int = 100) -> list[UserSettingsRow]:
        """The users whose daily digest is due at `now`, earliest first."""
        rows = await self._read.fetch(
            f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE digest_due IS NOT NULL AND digest_due <= ?"
            " ORDER BY digest_due, user_id LIMIT ?", (now, limit))
        return [UserSettingsRow.from_row(r) for r in rows]

    async def next_digest_due(self) -> float | None:
        """When the next daily digest falls due (for the timer loop's sleep)."""
        rows = await self._read.fetch("SELECT min(digest_due) FROM user_settings WHERE digest_due IS NOT NULL")
        return float(rows[0][0]) if rows and rows[0][0] is not None else None
