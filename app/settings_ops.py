"""Each player's own preferences (`/ttr settings`), stored per Discord user and read wherever
a picture is drawn for them (their hand, and the public board of a table where anyone seated
has colour-blind marks on) and wherever their clock matters (app/player_clock.py: their time
zone, quiet hours and vacation; app/owed.py: their turn timers and turn DMs; app/clocks.py:
their daily digest).

Whether the bot may DM a player is kept on their seats (app.delivery_ops: Discord's refusals
land there); it is shown here with the rest.

A change to a player's clock moves their pending turn timers in every game they play: the
running time they used so far counts by the old clock, what is left by the new one, and each
of those games owes its turn post an edit (the deadline it shows, "away until"). A vacation
ends early when the player changes any other setting, or uses any game command (`end_away`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterable

from app import records
from app.availability import away_until, clock_of, settings_of_row, settings_rows
from app.core import ACTIVE, ServiceCore
from app.errors import ServiceError
from app.models import PlayerSettings
from app.owed import DIGEST_HOLD, GAME_OVER, POST, TURN_TIMERS, retimed
from app.player_clock import DAY, MOST_AWAY_DAYS, UTC, BadSetting, next_local_hour, parse_quiet_hours, zone
from engine.state import canonical_json
from store import Store
from store.records import DeliveryRow

AUTO_LANGUAGE = "auto"  # /ttr settings language: back to the Discord client's
MAX_LANGUAGE = 16

log = logging.getLogger("app.service")

OFF_WORDS = ("off", "none", "no", "-", "0")
PER_TURN_WORDS = ("turn", "per turn", "every turn", "off", "none", "ping")
_HOUR = re.compile(r"[0-9]{1,2}")  # ASCII digits: str.isdigit also accepts "²", which int() refuses


async def read_settings(store: Store, user_ids: Iterable[int | None]) -> dict[int, PlayerSettings]:
    """The preferences of these players (AI seats, None, are left out); `dms` is not read here
    (it lives on the seats)."""
    return await settings_rows(store, user_ids)


async def held_for_digest(store: Store, user_id: int) -> list[DeliveryRow]:
    """The news of ended games waiting for this player's next daily digest."""
    return [d for d in await store.deliveries.pending_of_user(user_id, GAME_OVER)
            if records.delivery(d).payload.get("digest")]


def board_colorblind(settings: dict[int, PlayerSettings]) -> bool:
    """Whether a table's public board gets colour-blind marks: as soon as one person seated
    there has them on."""
    return any(s.colorblind for s in settings.values())


def parse_digest(value: str | int) -> int | None:
    """A digest choice: a local hour 0–23 (`9`, `09:00`), or a ping per turn (None)."""
    text = str(value).strip().lower()
    if text in PER_TURN_WORDS:
        return None
    hour, _, minutes = text.partition(":")
    if _HOUR.fullmatch(hour) and (not minutes or minutes == "00") and 0 <= int(hour) <= 23:
        return int(hour)
    raise BadSetting("Choose a ping per turn, or the hour of your daily digest (0–23, in your time zone).")


def digest_due(mine: PlayerSettings, after: float) -> float | None:
    """When a player's next daily digest goes out: the next time it is their hour in their
    time zone, or as soon as their quiet hours end if the hour falls in them."""
    if mine.digest_hour is None:
        return None
    due = next_local_hour(mine.timezone, mine.digest_hour, after)
    return clock_of(dataclasses.replace(mine, away_from=None, away_until=None), 0).resumes(due)


class SettingsOps:
    """Reading and changing players' preferences."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def settings(self, user_id: int) -> PlayerSettings:
        """A player's preferences (the defaults when they never changed one)."""
        row = (await self.store.user_settings.get([user_id])).get(user_id)
        closed = await self.store.games.dm_closed(user_id)
        return settings_of_row(row, dms=not closed)

    async def user_language(self, user_id: int) -> str | None:
        """A player's own language (`/ttr settings language:`; None: their Discord client's)."""
        row = (await self.store.user_settings.get([user_id])).get(user_id)
        return row.language if row is not None else None

    async def change_settings(self, user_id: int, *, colorblind: bool | None = None,
                              hand_picture: bool | None = None, timezone: str | None = None,
                              quiet_hours: str | None = None, away_days: float | None = None,
                              digest: str | int | None = None, language: str | None = None) -> PlayerSettings:
        """Change some of a player's preferences (None: leave as it is); returns them all. One
        transaction, so a restart keeps all or none. A setting that cannot be used is refused
        (ServiceError, one sentence) and nothing changes.

        `timezone`: an IANA name. `quiet_hours`: `23:00-08:00`, or `off`. `away_days`: a
        vacation of that many days from now (0: back now). `digest`: the local hour of a daily
        digest, or `turn` (a ping per turn). Changing anything else while away ends the
        vacation. `language`: a catalogue code the bot checked, or `auto` (their Discord
        client's language)."""
        old = await self.settings(user_id)
        now = self.core.clock()
        new = old
        try:
            if timezone is not None:
                zone(timezone.strip())
                new = dataclasses.replace(new, timezone=timezone.strip())
            if quiet_hours is not None:
                quiet = None if quiet_hours.strip().lower() in OFF_WORDS else parse_quiet_hours(quiet_hours)
                new = dataclasses.replace(new, quiet=quiet)
            if digest is not None:
                new = dataclasses.replace(new, digest_hour=parse_digest(digest))
        except BadSetting as exc:
            raise ServiceError(str(exc), "bad_setting") from None
        if away_days is not None:
            if not 0 <= away_days <= MOST_AWAY_DAYS:
                raise ServiceError(f"A vacation lasts 0 to {MOST_AWAY_DAYS} days (0: you are back).", "bad_setting")
            new = (dataclasses.replace(new, away_from=now, away_until=now + away_days * DAY) if away_days > 0
                   else dataclasses.replace(new, away_from=None, away_until=None))
        elif _away(old, now) and any(v is not None for v in (colorblind, hand_picture, timezone, quiet_hours, digest)):
            new = dataclasses.replace(new, away_from=None, away_until=None)  # using a setting: back
        if colorblind is not None:
            new = dataclasses.replace(new, colorblind=bool(colorblind))
        if hand_picture is not None:
            new = dataclasses.replace(new, hand_picture=bool(hand_picture))
        if language is not None:
            code = language.strip()
            if not code or len(code) > MAX_LANGUAGE or not all(ch.isalnum() or ch == "-" for ch in code):
                raise ServiceError("Choose a language from the list.", "bad_setting")
            new = dataclasses.replace(new, language=None if code == AUTO_LANGUAGE else code)
        clock_changed = (new.timezone, new.quiet, new.away_from, new.away_until) != (
            old.timezone, old.quiet, old.away_from, old.away_until)
        if new.digest_hour is not None and (new.digest_hour != old.digest_hour or clock_changed):
            new = dataclasses.replace(new, digest_due=digest_due(new, now))
        elif new.digest_hour is None:
            new = dataclasses.replace(new, digest_due=None)
        if new == old:
            return new
        tx = self.store.tx()
        for name in ("colorblind", "hand_picture"):
            if getattr(new, name) != getattr(old, name):
                tx.user_settings.set_flag(user_id, name, bool(getattr(new, name)))
        if new.timezone != old.timezone:
            tx.user_settings.set_time_zone(user_id, None if new.timezone == UTC else new.timezone)
        if new.quiet != old.quiet:
            tx.user_settings.set_quiet_hours(user_id, new.quiet)
        if new.language != old.language:
            tx.user_settings.set_language(user_id, new.language)
        if (new.away_from, new.away_until) != (old.away_from, old.away_until):
            tx.user_settings.set_away(user_id, new.away_from, new.away_until)
        if (new.digest_hour, new.digest_due) != (old.digest_hour, old.digest_due):
            tx.user_settings.set_digest(user_id, new.digest_hour, new.digest_due)
            # News of ended games held for the digest follows it: to the next one, or out now.
            for held in await held_for_digest(self.store, user_id):
                tx.deliveries.due_again(held.id, now if new.digest_due is None else new.digest_due + DIGEST_HOLD)
        await self.store.write(tx)
        self.core.deliveries_waiting.set()
        self.core.timers_changed.set()  # a digest may be due sooner
        if clock_changed:
            await self._retime(user_id, old, new)
        return new

    async def end_away(self, user_id: int) -> bool:
        """The player used a game command: if they were on vacation, they are back (their
        clocks run again from now). True if they were away."""
        old = await self.settings(user_id)
        if not _away(old, self.core.clock()):
            return False
        new = dataclasses.replace(old, away_from=None, away_until=None)
        tx = self.store.tx()
        tx.user_settings.set_away(user_id, None, None)
        await self.store.write(tx)
        await self._retime(user_id, old, new)
        log.info("a player is back from vacation early")
        return True

    async def settings_of(self, user_ids: Iterable[int | None]) -> dict[int, PlayerSettings]:
        """The preferences of several players at once (`dms` is not read here)."""
        return await read_settings(self.store, user_ids)

    async def table_colorblind(self, user_ids: Iterable[int | None]) -> bool:
        """Whether the public board of a table with these people seated gets colour-blind
        marks: yes as soon as one of them has them on."""
        return board_colorblind(await read_settings(self.store, user_ids))

    async def _retime(self, user_id: int, old: PlayerSettings, new: PlayerSettings) -> None:
        """A player's clock changed: in each game being played where they sit, their pending
        turn timers move (the running time used counts by the old clock, the rest runs by the
        new), and the turn post is owed an edit (the deadline, "away until")."""
        moved = False
        for game_id in await self.store.games.ids_of_user(user_id):
            async with self.core.lock(game_id):
                row = await self.store.games.get(game_id)
                if row is None or row.status not in ACTIVE:
                    continue
                players = await self.store.games.players(game_id)
                seat = next((p.seat for p in players if p.user_id == user_id), None)
                if seat is None:
                    continue
                now = self.core.clock()
                before, after = clock_of(old, row.max_away_days), clock_of(new, row.max_away_days)
                tx = self.store.tx()
                timers = 0
                for t in await self.store.timers.pending(game_id):
                    if t.seat != seat or t.kind not in TURN_TIMERS:
                        continue
                    changed = retimed(records.timer(t).payload, before, after, now)
                    if changed is not None:
                        due, payload = changed
                        tx.timers.schedule(game_id, t.kind, due, seat=seat, payload_json=canonical_json(payload))
                        timers += 1
                shown_away = away_until(old, row.max_away_days, now) != away_until(new, row.max_away_days, now)
                if timers or shown_away:
                    tx.deliveries.owe(game_id, row.seq, POST, f"{POST}:clock:{row.seq}:{user_id}:{int(now * 1000)}",
                                      payload_json=canonical_json({"new_turn": False}))
                if not tx.statements:
                    continue
                await self.store.write(tx)
                await self.loader.refresh(game_id)
                moved = True
        if moved:
            self.core.deliveries_waiting.set()
            self.core.timers_changed.set()


def _away(mine: PlayerSettings, now: float) -> bool:
    return mine.away_until is not None and mine.away_from is not None and mine.away_from <= now < mine.away_until
