"""One seam for chance: everything random in a game draws through a `Chance`.

The rules ask chance three things: a whole number below n (the first player), a shuffle (the
train deck, the ticket decks, the tourist deck, the passengers), and the face a die shows. By
default the game's own seeded generator answers (`engine.rng.Rng`, whose state is saved in the
game state after every step), so a game is its seed plus its actions and replays bit for bit.

`new_game`, `apply`, `load_game` and `replay` accept a `ChanceSource` instead, which is handed
the game's seeded generator for each step and returns the `Chance` that step draws from. The
one the tests use is `RiggedDice`: dice show given faces, everything else stays seeded. Nothing
about a source is kept in the game state: a game played with one replays with the same source.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import Literal, Protocol, TypeVar

_T = TypeVar("_T")


class Chance(Protocol):
    """What the rules may ask of chance. `engine.rng.Rng` is the default implementation."""

    def below(self, n: int) -> int:
        """A uniform whole number in [0, n)."""
        ...

    def shuffle(self, items: MutableSequence[_T]) -> None:
        """Shuffle `items` in place."""
        ...

    def roll(self, faces: Sequence[str]) -> str:
        """The face a die shows: one of `faces` (a face printed twice is twice as likely)."""
        ...


class ChanceSource(Protocol):
    """Where the chance of a game step comes from instead of the game's own generator."""

    def over(self, seeded: Chance) -> Chance:
        """The chance one step draws from, given the game's seeded generator (whatever the
        step takes from `seeded` is saved in the state like any other draw)."""
        ...


class DiceExhausted(AssertionError):
    """A die was rolled after the last rigged face of a `RiggedDice(..., then="fail")`.

    An AssertionError, never an IllegalAction: it is a broken test, not a refused move."""


class RiggedDice:
    """A chance source for tests: the dice show `faces`, in the order they are rolled (a
    player's train dice, re-rolled dice, tunnel dice, the next player's dice, …).

    Shuffles and numbers always come from the game's own generator, and so do the dice after
    the last face (`then="seeded"`), or rolling one more die raises `DiceExhausted`
    (`then="fail"`). A rigged face takes nothing from the generator. Faces are used up as they
    are rolled, across every step the source is passed to; every rule checks an action before
    it rolls, so a refused action uses none.
    """

    def __init__(self, faces: Iterable[str], then: Literal["seeded", "fail"] = "seeded") -> None:
        if then not in ("seeded", "fail"):
            raise ValueError(f"then must be 'seeded' or 'fail', not {then!r}")
        self._faces = [str(face) for face in faces]
        self._next = 0
        self.then = then

    @property
    def left(self) -> tuple[str, ...]:
        """The rigged faces not rolled yet."""
        return tuple(self._faces[self._next:])

    def over(self, seeded: Chance) -> Chance:
        return _Rigged(self, seeded)

    def take(self, die: Sequence[str]) -> str | None:
        """The next rigged face for a die with these faces (None: no face left, fall back)."""
        if self._next >= len(self._faces):
            if self.then == "fail":
                raise DiceExhausted(f"a die was rolled after the {len(self._faces)} rigged faces were used up")
            return None
        face = self._faces[self._next]
        if face not in die:
            raise ValueError(f"rigged die face {face!r} is not on this die ({', '.join(sorted(set(die)))})")
        self._next += 1
        return face


class _Rigged:
    """One step's chance under `RiggedDice`: dice from the source, the rest seeded."""

    __slots__ = ("_seeded", "_source")

    def __init__(self, source: RiggedDice, seeded: Chance) -> None:
        self._source = source
        self._seeded = seeded

    def below(self, n: int) -> int:
        return self._seeded.below(n)

    def shuffle(self, items: MutableSequence[_T]) -> None:
        self._seeded.shuffle(items)

    def roll(self, faces: Sequence[str]) -> str:
        face = self._source.take(faces)
        return self._seeded.roll(faces) if face is None else face
