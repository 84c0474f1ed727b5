"""A clock the test moves by hand (the service and the bot take any `() -> float`)."""

from __future__ import annotations


class Clock:
    """Unix time `now`, until the test changes it."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
