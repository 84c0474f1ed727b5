"""Reading what the pictures need from a typed view (`engine.view.View`).

The renderer only ever sees a view, never the game state, so hidden information (the deck,
other players' hands and tickets) cannot reach a picture. Module data comes from the part the
module declared (`view.part(PassengersView)`, `view.part(DiceView)`), never from guessing.
"""

from __future__ import annotations

from engine.rules.dice import DiceView
from engine.rules.passengers import PassengersView
from engine.view import View


def scores(view: View) -> dict[int, int]:
    """Each seat's score as shown on the board: final totals once the game is over, route
    points before (ticket points are secret until the end)."""
    result = view.result
    if result and result.get("sheets"):
        return {int(s["seat"]): int(s["total"]) for s in result["sheets"]}
    return {p.seat: p.route_points for p in view.players}


def city_passengers(view: View) -> dict[str, list[str]] | None:
    """Germany: the passengers still waiting on each space, {space: [colour, ...]} (one entry
    per figure), or None when the game has none."""
    part = view.part(PassengersView)
    if part is None:
        return None
    return {space: [colour for colour, n in colours.items() for _ in range(int(n))]
            for space, colours in part.waiting.items()}


def player_passengers(view: View, seat: int) -> dict[str, int] | None:
    """Germany: the passengers a seat has collected, {colour: count}, or None without them."""
    part = view.part(PassengersView)
    if part is None:
        return None
    return {colour: int(n) for colour, n in part.held[seat].items() if n}


def dice_of(view: View, seat: int) -> tuple[list[str], dict[str, int]] | None:
    """The Dice Expansion: a seat's unused dice and its tokens, or None without dice."""
    part = view.part(DiceView)
    if part is None:
        return None
    return list(part.unused[seat]), {kind: int(n) for kind, n in part.tokens[seat].items()}
