"""The delivery outbox in the store: what moves owe the players, until it is delivered.

`DeliveryWrites` is a transaction's part (`tx.deliveries`), so a move and what it owes are
one commit; `DeliveryReads` is the store's (`store.deliveries`): it finds what is due, and
reads at once all that one game's due deliveries need (`outbox_read`: one call, one thread
hop). Nothing here knows what a delivery says: the application decides what is owed (app/),
the Discord layer renders and sends it (bot_app/). Each user's DM channel with the bot is kept
here too (migration 12): a DM is sent straight to it, without asking Discord to open it first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from store.reader import Reader
from store.records import (
    ACTION_COLUMNS,
    DELIVERY_COLUMNS,
    TIMER_COLUMNS,
    ActionRow,
    DeliveryRow,
    TimerRow,
)
from store.user_settings import USER_SETTINGS_COLUMNS, UserSettingsRow
from store.writer import Statement

if TYPE_CHECKING:
    from store.repository import Tx

# Rows of one INSERT of owed deliveries at most (each count is its own statement text: on
# PostgreSQL, one prepared statement per count).
MAX_OWED_ROWS = 8
_OWE_SQL = {n: "INSERT INTO deliveries (game_id, seq, kind, key, user_id, payload, status, due_at, created_at)"
               " VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, 'pending', ?, ?)"] * n)
               + " ON CONFLICT (game_id, key) DO NOTHING" for n in range(1, MAX_OWED_ROWS + 1)}
_OWED_ROWS = {sql: n for n, sql in _OWE_SQL.items()}

PENDING = "pending"
SENT = "sent"
DROPPED = "dropped"
FAILED = "failed"


@dataclass(frozen=True, slots=True)
class OutboxRead:
    """What one game's due deliveries need, read at one moment (`store.deliveries.outbox_read`)."""

    pending: list[DeliveryRow]  # the game's pending deliveries, in the order they were owed
    actions: list[ActionRow]  # its log from the entry asked for on
    timers: list[TimerRow]  # its pending timers, soonest first
    settings: dict[int, UserSettingsRow]  # the stored preferences of the users asked for
    dm_channels: dict[int, int] = field(default_factory=dict)  # user id → their DM channel's id


class DeliveryWrites:
    """Statements on deliveries and users' DM channels (`tx.deliveries`)."""

    __slots__ = ("_tx",)

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    def owe(self, game_id: int, seq: int, kind: str, key: str, *, user_id: int | None = None,
            payload_json: str = "{}", due_at: float | None = None) -> None:
        """Store something owed. Owing the same `key` twice stores it once. Owed right after
        another owe of the same transaction, it joins that one's INSERT as one more row: a
        move's post and DMs are one statement, not one each (every statement costs its own
        round of planning and execution on PostgreSQL's side)."""
        row = (game_id, seq, kind, key, user_id, payload_json, self._tx.now if due_at is None else due_at,
               self._tx.now)
        statements = self._tx.statements
        last = statements[-1] if statements else None
        rows = _OWED_ROWS.get(last.sql, 0) if last is not None else 0
        if last is not None and 0 < rows < MAX_OWED_ROWS:
            statements[-1] = Statement(_OWE_SQL[rows + 1], last.params + row)
            return
        self._tx.add(_OWE_SQL[1], row)

    def delivered(self, delivery_id: int, message_id: int | None, status: str = SENT,
                  error: str | None = None) -> None:
        """A delivery is done: sent (with the message it made), dropped or failed for good.
        Only a pending one can end, so a delivery ends once."""
        self._tx.add(
            "UPDATE deliveries SET status = ?, message_id = coalesce(?, message_id), last_error = ?, done_at = ?,"
            " attempts = attempts + 1 WHERE id = ? AND status = 'pending'",
            (status, message_id, error, self._tx.now, delivery_id),
            expect_rows=1,
            conflict="That delivery has already been made.",
        )

    def retry(self, delivery_id: int, due_at: float, error: str) -> None:
        """A delivery failed for now: try again at `due_at`."""
        self._tx.add(
            "UPDATE deliveries SET attempts = attempts + 1, due_at = ?, last_error = ?, claimed_by = NULL,"
            " claimed_until = NULL WHERE id = ? AND status = 'pending'",
            (due_at, error[:500], delivery_id),
        )

    def note_message(self, delivery_id: int, message_id: int) -> None:
        """Remember the message a delivery made before it is done (a retry then edits it)."""
        self._tx.add("UPDATE deliveries SET message_id = ? WHERE id = ?", (message_id, delivery_id))

    def retry_failed(self, game_id: int) -> None:
        """Give a game's failed deliveries another go, now (after `/ttr admin resume`)."""
        self._tx.add(
            "UPDATE deliveries SET status = 'pending', due_at = ?, done_at = NULL"
            " WHERE game_id = ? AND status = 'failed'",
            (self._tx.now, game_id),
        )

    def drop_pending(self, game_id: int, kinds: Sequence[str]) -> None:
        """Pending deliveries of these kinds are no longer owed (a newer one replaces them)."""
        marks = ", ".join("?" for _ in kinds)
        self._tx.add(
            f"UPDATE deliveries SET status = 'dropped', done_at = ? WHERE game_id = ? AND status = 'pending'"
            f" AND kind IN ({marks})",
            (self._tx.now, game_id, *kinds),
        )

    def carried(self, delivery_ids: Sequence[int], note: str) -> None:
        """Pending deliveries another one carries (news held for a daily digest): settled as
        sent, with a `note` saying by what. One already settled stays as it was."""
        if not delivery_ids:
            return
        marks = ", ".join("?" for _ in delivery_ids)
        self._tx.add(
            f"UPDATE deliveries SET status = 'sent', last_error = ?, done_at = ?, attempts = attempts + 1"
            f" WHERE id IN ({marks}) AND status = 'pending'",
            (note, self._tx.now, *delivery_ids),
        )

    def due_again(self, delivery_id: int, due_at: float) -> None:
        """A pending delivery falls due at `due_at` instead (news held for a digest that moved)."""
        self._tx.add("UPDATE deliveries SET due_at = ? WHERE id = ? AND status = 'pending'", (due_at, delivery_id))

    def settle_sent(self, delivery_id: int, message_id: int | None, note: str | None = None) -> None:
        """A pending delivery was sent (making `message_id`) — or, with `note`, dropped as no
        longer needed — among others settled in the same transaction: one already settled
        stays as it was and does not undo the others (unlike `delivered`'s guard)."""
        self._tx.add(
            "UPDATE deliveries SET status = ?, message_id = coalesce(?, message_id), last_error = ?, done_at = ?,"
            " attempts = attempts + 1 WHERE id = ? AND status = 'pending'",
            (SENT if note is None else DROPPED, message_id, note, self._tx.now, delivery_id),
        )

    def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        """The id of a user's DM channel with the bot (Discord gave it when it was opened)."""
        self._tx.add("INSERT INTO dm_channels (user_id, channel_id, updated_at) VALUES (?, ?, ?)"
                     " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id,"
                     " updated_at = excluded.updated_at",
                     (user_id, channel_id, self._tx.now))

    def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Discord says that DM channel is gone: the next DM opens one again (a newer id
        stored meanwhile stays)."""
        self._tx.add("DELETE FROM dm_channels WHERE user_id = ? AND channel_id = ?", (user_id, channel_id))


class DeliveryReads:
    """Reads of the outbox (`store.deliveries`). One process alone claims nothing: every due
    delivery is its own (`claim`); PostgreSQL leases them (store/pg_parts.py)."""

    __slots__ = ("_read",)

    def __init__(self, reader: Reader) -> None:
        self._read = reader

    async def outbox_read(self, game_id: int, *, after_seq: int, user_ids: Iterable[int],
                          dm_users: Iterable[int] = ()) -> OutboxRead:
        """Everything a game's due deliveries need, in one read transaction (one call, one
        thread hop): its pending deliveries, its log after `after_seq`, its pending timers,
        the preferences of `user_ids` and the DM channels of `dm_users`."""
        users, dms = sorted(set(user_ids)), sorted(set(dm_users))
        pending, actions, timers, settings, channels = await self._read.fetch_many((
            (f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? AND status = 'pending' ORDER BY seq, id",
             (game_id,)),
            (f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after_seq)),
            (f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND fired_at IS NULL AND cancelled_at IS NULL"
             " ORDER BY due_at, id", (game_id,)),
            (f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE user_id {self._read.any}",
             (self._read.as_list(users),)),
            (f"SELECT user_id, channel_id FROM dm_channels WHERE user_id {self._read.any}", (self._read.as_list(dms),)),
        ))
        return OutboxRead(
            pending=[DeliveryRow.from_row(r) for r in pending], actions=[ActionRow.from_row(r) for r in actions],
            timers=[TimerRow.from_row(r) for r in timers],
            settings={int(r[0]): UserSettingsRow.from_row(r) for r in settings},
            dm_channels={int(r[0]): int(r[1]) for r in channels})

    async def dm_channels(self, user_ids: Iterable[int]) -> Mapping[int, int]:
        """The stored DM channel ids of these users (user id → channel id; unknown ones left out)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        rows = await self._read.fetch(f"SELECT user_id, channel_id FROM dm_channels WHERE user_id {self._read.any}",
                                      (self._read.as_list(ids),))
        return {int(r[0]): int(r[1]) for r in rows}

    async def due(self, now: float, limit: int = 100, *, always: Sequence[str] = ()) -> list[DeliveryRow]:
        """Pending deliveries due at or before `now`, oldest first — leaving out those of a game
        where a delivery failed for good (it is on hold until retried), except the kinds in
        `always` (telling the host about it)."""
        marks = ", ".join("?" for _ in always) or "NULL"
        rows = await self._read.fetch(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries AS d WHERE status = 'pending' AND due_at <= ?"
            f" AND (kind IN ({marks}) OR NOT EXISTS (SELECT 1 FROM deliveries AS f"
            "   WHERE f.game_id = d.game_id AND f.status = 'failed'))"
            " ORDER BY due_at, id LIMIT ?",
            (now, *always, limit),
        )
        return [DeliveryRow.from_row(r) for r in rows]

    async def next_due(self, *, always: Sequence[str] = ()) -> float | None:
        """When the next pending delivery that `due` would return falls due (a game
        on hold is left out but for the kinds in `always`: its deliveries wait for a resume,
        and counting them would wake the dispatcher at once, again and again)."""
        marks = ", ".join("?" for _ in always) or "NULL"
        rows = await self._read.fetch(
            f"SELECT min(due_at) FROM deliveries AS d WHERE status = 'pending' AND (kind IN ({marks}) OR NOT EXISTS ("
            "SELECT 1 FROM deliveries AS f WHERE f.game_id = d.game_id AND f.status = 'failed'))", tuple(always))
        return rows[0][0] if rows else None

    async def of_game(self, game_id: int, status: str | None = None) -> list[DeliveryRow]:
        """A game's deliveries (of one status, or all), in the order they were owed."""
        sql = f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ?"
        params: list[Any] = [game_id]
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        rows = await self._read.fetch(sql + " ORDER BY seq, id", params)
        return [DeliveryRow.from_row(r) for r in rows]

    async def by_key(self, game_id: int, key: str) -> DeliveryRow | None:
        """The game's delivery owed under `key` (keys are unique per game), if any."""
        rows = await self._read.fetch(f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? AND key = ?",
                                      (game_id, key))
        return DeliveryRow.from_row(rows[0]) if rows else None

    async def pending_of_user(self, user_id: int, kind: str) -> list[DeliveryRow]:
        """A user's pending deliveries of one kind, in every game, oldest first."""
        rows = await self._read.fetch(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE user_id = ? AND kind = ? AND status = 'pending'"
            " ORDER BY created_at, id", (user_id, kind))
        return [DeliveryRow.from_row(r) for r in rows]

    async def get(self, delivery_id: int) -> DeliveryRow | None:
        rows = await self._read.fetch(f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = ?", (delivery_id,))
        return DeliveryRow.from_row(rows[0]) if rows else None

    async def claim(self, now: float, limit: int, *, always: Sequence[str], owner: str,
                    lease: float) -> list[DeliveryRow]:
        """The deliveries due now that this process (`owner`) is to send: one process alone
        claims nothing, so it is every due delivery."""
        return await self.due(now, limit, always=always)

    async def next_claimable(self, now: float, owner: str, *, always: Sequence[str] = ()) -> float | None:
        """When a delivery this process could claim falls due (for the dispatcher's sleep)."""
        return await self.next_due(always=always)
