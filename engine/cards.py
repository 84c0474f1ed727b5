"""Train cards: names, hands as counts, and card sets ("payments") as canonical tuples."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated

from engine.errors import excerpt

_NAME_CHARS = 20  # longer card names are player input, shown shortened

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black")
LOCO = "loco"
GRAY = "gray"

# The mark a card set's type carries: the action codec (engine/actions.py) writes a field of
# this type as {"red": 3, "loco": 1}, and any other tuple of pairs as a list.
CARD_SET = "card set"

# A set of cards, e.g. (("loco", 1), ("red", 3)): sorted, no zero counts, hashable and
# JSON-friendly. Actions carry these so that equal payments compare equal. To a type checker
# it is the tuple; the mark is read at run time only.
Cards = Annotated[tuple[tuple[str, int], ...], CARD_SET]


def cards(counts: Mapping[str, int] | Iterable[tuple[str, int]]) -> Cards:
    """The canonical form of a card set given as a mapping or pairs (zeros dropped, merged)."""
    merged: dict[str, int] = {}
    items = counts.items() if isinstance(counts, Mapping) else counts
    for name, n in items:
        if n:
            merged[name] = merged.get(name, 0) + int(n)
    return tuple(sorted((k, v) for k, v in merged.items() if v))


def colour_and_locos(colour: str, n_colour: int, n_loco: int) -> Cards:
    """`n_colour` cards of `colour` plus `n_loco` locomotives, in canonical form (fast path
    for listing payments, which runs for every decision of every AI game)."""
    if not n_loco:
        return ((colour, n_colour),)
    if not n_colour:
        return ((LOCO, n_loco),)
    if colour < LOCO:
        return ((colour, n_colour), (LOCO, n_loco))
    return ((LOCO, n_loco), (colour, n_colour))


def count(card_set: Cards) -> int:
    """How many cards are in the set."""
    return sum(n for _, n in card_set)


def as_dict(card_set: Cards) -> dict[str, int]:
    return dict(card_set)


def has_cards(hand: Mapping[str, int], card_set: Cards) -> bool:
    """Whether `hand` holds every card of `card_set`."""
    return all(hand.get(name, 0) >= n for name, n in card_set)


# A payment a player makes up may name up to 50 kinds of card: a sentence lists this many.
_DESCRIBED = 6


def describe(card_set: Cards | Mapping[str, int]) -> str:
    """Plain words: "3 red and 1 locomotive"."""
    items = card_set.items() if isinstance(card_set, Mapping) else card_set
    parts = [f"{n} {card_word(name, n)}" for name, n in sorted(items, key=_card_order) if n]
    if not parts:
        return "no cards"
    if len(parts) > _DESCRIBED:
        parts[_DESCRIBED - 1:] = [f"{len(parts) - _DESCRIBED + 1} other kinds of card"]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def card_word(name: str, n: int = 1) -> str:
    """"locomotive(s)" for locos; other cards are named by their colour. A name that no card
    has (sent by a player) is quoted shortened if it is long or not plain text, so that a
    refusal repeating it stays one short line."""
    if name == LOCO:
        return "locomotive" if n == 1 else "locomotives"
    if not isinstance(name, str) or len(name) > _NAME_CHARS or not name.isprintable():
        return excerpt(str(name), _NAME_CHARS)
    return name


def _card_order(item: tuple[str, int]) -> tuple[int, str]:
    name = item[0]
    if name in COLOURS:
        return (COLOURS.index(name), name)
    return (len(COLOURS) + (0 if name == LOCO else 1), name)
