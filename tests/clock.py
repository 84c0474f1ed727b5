"""A clock the test moves by hand (the service and the bot take any `() -> float`)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

BERLIN = "Europe/Berlin"


class Clock:
    """Unix time `now`, until the test changes it."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def at(*when: int) -> float:
    """A wall-clock time in Berlin as Unix seconds."""
    return dt.datetime(*when, tzinfo=ZoneInfo(BERLIN)).timestamp()


def berlin(t: float) -> dt.datetime:
    """Unix seconds as Berlin's wall-clock time (naive)."""
    return dt.datetime.fromtimestamp(t, ZoneInfo(BERLIN)).replace(tzinfo=None)
