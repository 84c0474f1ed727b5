"""The Dice Expansion's dice and tokens as plain values: the faces, the counts, and what a
route asks of them (D1, D9, D13). No game state here; `purse` says where dice and tokens live."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engine.cards import Cards, card_word
from engine.maps import GameMap, Route

if TYPE_CHECKING:
    from engine.core import Game

SINGLE = "single"
DOUBLE = "double"
STATION = "station"
WILD = "wild"
TOKEN = "token"
TRAIN_FACES: tuple[str, ...] = (SINGLE, SINGLE, DOUBLE, DOUBLE, STATION, WILD)  # D1
TUNNEL = "tunnel"
BLANK = "blank"
TOKEN_TYPES = (SINGLE, DOUBLE)
N_DICE = 5
N_TUNNEL_DICE = 3
TOKEN_CAP = 3
TOKEN_SUPPLY = 15
MAX_LENGTH = 8  # 5 dice + 3 tokens (D13)


def tunnel_faces(symbols: int) -> tuple[str, ...]:
    """A tunnel die with `symbols` tunnel faces out of 6 (D10)."""
    return (TUNNEL,) * symbols + (BLANK,) * (6 - symbols)


def route_type(game_map: GameMap, route: Route) -> str:
    """D9: "double" iff the map prints a parallel track, whatever its state."""
    return DOUBLE if route.parallel_group else SINGLE


def dice_length(route: Route, options: Mapping[str, Any]) -> int | None:
    """The spaces a route costs under dice for these table options (None: it cannot be
    claimed). D13. `with_dice` writes the lengths that differ into `RuleSet.route_lengths`."""
    if route.length > MAX_LENGTH:
        if route.length == 9 and options.get("dice_nordic_9_route", "as_8") == "as_8":
            return MAX_LENGTH
        return None
    return route.length


def claim_length(game: Game, route: Route) -> int | None:
    """The spaces `route` costs in this game (None: dice cannot pay for it): the rule set's
    length, which `with_dice` set from `dice_length`."""
    n = game.rules.length(route)
    return n if n <= MAX_LENGTH else None


def as_length(route: Route, n: int) -> Route:
    """The route as dice see it (Nordic's 9-route as an 8-route, D13)."""
    return route if n == route.length else dataclasses.replace(route, length=n)


def face_counts(faces: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


# A payment a player makes up may name up to 50 kinds of face: a refusal lists this many.
_LISTED = 6


def payment_words(payment: Cards) -> str:
    words = [f"{n} {card_word(name)}" for name, n in payment]
    if len(words) > _LISTED:
        words[_LISTED - 1:] = [f"{len(words) - _LISTED + 1} other kinds"]
    return ", ".join(words) or "nothing"
