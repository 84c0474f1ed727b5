"""The game's own random generator, kept inside the game state. It is the default `Chance`
(engine/chance.py): what the rules draw from unless a test sets another source.

Python's `random` module only promises that `random()` repeats for a seed; its `shuffle` and
`randrange` have changed between versions. A game must replay identically for ever, so the
engine uses this small generator (SplitMix64) whose whole state is one integer stored in the
game state, and builds shuffling and dice on top of it.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """The generator state for a game seed (any integer, negative ones included)."""
    return seed & _MASK


class Rng:
    """SplitMix64. `state` is a plain int so that it can live in the JSON game state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        """One element, uniformly."""
        return items[self.below(len(items))]

    def roll(self, faces: Sequence[str]) -> str:
        """The face a die shows: one of `faces`, uniformly by position."""
        return faces[self.below(len(faces))]
