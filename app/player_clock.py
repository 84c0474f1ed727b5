"""A player's own clock: when their turn clock runs, and when they may be pinged.

A player may name their time zone (an IANA name, `Europe/Berlin`), quiet hours in it
(`23:00-08:00`, across midnight or not) and a vacation (a stretch of days from when they set
it, cut to each game's maximum). While they are quiet or away their turn clock stops and nobody
pings them. A turn of `turn_hours` then ends when that many hours of *running* time have
passed: `advance(start, seconds)` finds that moment, walking day by day through the quiet
windows in the player's own time zone, so midnight and daylight-saving changes are where the
calendar puts them (a night with the clocks put back is an hour longer in real time).

Pure: the moments in and out are Unix seconds; nothing here reads a clock or a database.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

UTC = "UTC"
DAY = 86400.0
MINUTES_PER_DAY = 24 * 60
# Quiet hours may cover at most this much of a day: the clock must still run most of the time.
MOST_QUIET_MINUTES = 14 * 60
# The longest vacation, in days (a player's own in /ttr settings; a table's most in /ttr new).
MOST_AWAY_DAYS = 30
_QUIET = re.compile(r"^\s*([0-9]{1,2})(?::([0-9]{2}))?\s*[-–]\s*([0-9]{1,2})(?::([0-9]{2}))?\s*$")
# A walk through the calendar never takes more steps than this (a turn of 30 days running time
# under the longest quiet hours after a vacation of 30 days is about 110 days).
_MOST_STEPS = 4000


class BadSetting(ValueError):
    """A setting that cannot be used, with one sentence for the player."""


@lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows (from tzdata), sorted."""
    return tuple(sorted(available_timezones()))


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The time zone `name`; BadSetting when there is none of that name."""
    if not isinstance(name, str) or not name or len(name) > 64 or name.startswith(("/", ".")) or ".." in name:
        raise BadSetting("Pick a time zone from the list (like Europe/Berlin or America/New_York).")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise BadSetting("Pick a time zone from the list (like Europe/Berlin or America/New_York).") from None


def parse_quiet_hours(text: str) -> tuple[int, int]:
    """`23:00-08:00` (or `23-8`) as minutes after local midnight: (start, end). The window may
    cross midnight; it may not be empty nor longer than MOST_QUIET_MINUTES."""
    m = _QUIET.match(text or "")
    if m is None:
        raise BadSetting("Give quiet hours as start-end in 24-hour time, like 23:00-08:00 (or off).")
    h1, m1, h2, m2 = int(m[1]), int(m[2] or 0), int(m[3]), int(m[4] or 0)
    if not (0 <= h1 <= 24 and 0 <= h2 <= 24 and m1 < 60 and m2 < 60) or (h1 == 24 and m1) or (h2 == 24 and m2):
        raise BadSetting("Quiet hours are times of day between 00:00 and 24:00, like 23:00-08:00.")
    start, end = (h1 * 60 + m1) % MINUTES_PER_DAY, (h2 * 60 + m2) % MINUTES_PER_DAY
    length = (end - start) % MINUTES_PER_DAY
    if length == 0:
        raise BadSetting("Quiet hours must start and end at different times.")
    if length > MOST_QUIET_MINUTES:
        raise BadSetting(f"Quiet hours can cover at most {MOST_QUIET_MINUTES // 60} hours of a day; "
                         f"{clock_time(start)}-{clock_time(end)} is {length // 60} h {length % 60:02d} min.")
    return start, end


def clock_time(minutes: int) -> str:
    """Minutes after midnight as `HH:MM`."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True, slots=True)
class PlayerClock:
    """When one player's turn clock stops: their quiet hours (minutes after local midnight, in
    `tz`) and a vacation [from, until) in Unix seconds."""

    tz: str = UTC
    quiet: tuple[int, int] | None = None
    away: tuple[float, float] | None = None

    @property
    def always_running(self) -> bool:
        return self.quiet is None and self.away is None

    def stops(self, after: float) -> Iterator[tuple[float, float]]:
        """The stretches when the clock is stopped that end after `after`, in order, merged
        (a vacation and a night that touch are one stretch). Endless with quiet hours."""
        merged: tuple[float, float] | None = None
        for s, e in self._raw_stops(after):
            if e <= after:
                continue
            if merged is not None and s <= merged[1]:
                merged = (merged[0], max(merged[1], e))
                continue
            if merged is not None:
                yield merged
            merged = (s, e)
        if merged is not None:
            yield merged

    def _raw_stops(self, after: float) -> Iterator[tuple[float, float]]:
        """Quiet windows and the vacation, in order of their starts (not merged)."""
        away = self.away if self.away is not None and self.away[1] > self.away[0] else None
        for window in self._quiet_windows(after):
            if away is not None and away[0] <= window[0]:
                yield away
                away = None
            yield window
        if away is not None:
            yield away

    def _quiet_windows(self, after: float) -> Iterator[tuple[float, float]]:
        if self.quiet is None:
            return
        tzinfo = zone(self.tz)
        start_min, end_min = self.quiet
        # From the local day before `after` (its window may reach past midnight into today).
        day = dt.datetime.fromtimestamp(after, tzinfo).date() - dt.timedelta(days=1)
        for _ in range(_MOST_STEPS):
            s = _local(day, start_min, tzinfo)
            e = _local(day + dt.timedelta(days=1) if end_min <= start_min else day, end_min, tzinfo)
            if e > s:  # a window swallowed whole by a clock change is no window
                yield s, e
            day += dt.timedelta(days=1)

    def stopped_at(self, t: float) -> bool:
        """Whether the clock is stopped at `t` (in quiet hours, or away)."""
        for s, e in self.stops(t):
            return s <= t < e
        return False

    def resumes(self, t: float) -> float:
        """When the clock runs again at or after `t` (`t` itself if it runs then)."""
        for s, e in self.stops(t):
            return e if s <= t < e else t
        return t

    def advance(self, start: float, seconds: float) -> float:
        """The moment at which `seconds` of running time have passed since `start`."""
        t, left = start, max(0.0, seconds)
        if self.always_running:
            return t + left
        for steps, (s, e) in enumerate(self.stops(start)):
            if s > t:
                if s - t >= left:
                    return t + left
                left -= s - t
            t = max(t, e)
            if steps > _MOST_STEPS:
                break
        return t + left

    def running(self, start: float, end: float) -> float:
        """Seconds of running time between `start` and `end`."""
        if end <= start:
            return 0.0
        total = end - start
        if self.always_running:
            return total
        for steps, (s, e) in enumerate(self.stops(start)):
            if s >= end or steps > _MOST_STEPS:
                break
            total -= min(e, end) - max(s, start)
        return max(0.0, total)


def _local(day: dt.date, minutes: int, tzinfo: ZoneInfo) -> float:
    """A local wall-clock time on `day` as Unix seconds (a time skipped by a clock change is
    read with the offset from before it, as zoneinfo does)."""
    return dt.datetime.combine(day, dt.time(minutes // 60, minutes % 60), tzinfo).timestamp()


def next_local_hour(tz: str, hour: int, after: float) -> float:
    """The first moment after `after` when it is `hour`:00 in `tz` (a day without that hour,
    skipped by a clock change, has it an hour later)."""
    tzinfo = zone(tz)
    day = dt.datetime.fromtimestamp(after, tzinfo).date()
    for _ in range(3):
        t = _local(day, hour * 60, tzinfo)
        if t > after:
            return t
        day += dt.timedelta(days=1)
    return after + DAY  # not reached: one of three consecutive days has the hour after `after`


def local_day(tz: str, t: float) -> str:
    """The local date of `t` in `tz` (ISO), for keys that are once per day."""
    return dt.datetime.fromtimestamp(t, zone(tz)).date().isoformat()
