"""The conditions a step may test, each over the player's own View only.

A condition sees what the player would see on their turn and nothing more: the board's
owners, the face-up cards, their own hand, the ticket piles' sizes, trains left. So a plan
cannot be used to learn anything hidden. Each kind is one function, registered by name with
`@condition`; `holds` applies `negate` and the count bounds.
"""

from __future__ import annotations

from collections.abc import Callable

from app.plans.model import Condition, PlanError
from engine.cards import COLOURS, LOCO
from engine.view import View

# A kind's reading of the view: a count (bounded by at_least / at_most) or a plain fact.
Reading = Callable[[Condition, View], int | bool]
CONDITIONS: dict[str, Reading] = {}
CARD_NAMES = (*COLOURS, LOCO)


def condition(kind: str) -> Callable[[Reading], Reading]:
    """Register a condition kind."""
    def register(reading: Reading) -> Reading:
        if kind in CONDITIONS:
            raise ValueError(f"condition {kind!r} registered twice")
        CONDITIONS[kind] = reading
        return reading
    return register


def holds(cond: Condition, view: View) -> bool:
    """Whether `cond` holds in `view` (the plan's own seat's view)."""
    reading = CONDITIONS.get(cond.kind)
    if reading is None:
        return False
    value = reading(cond, view)
    if isinstance(value, bool):
        result = value
    else:
        low = 1 if cond.at_least is None and cond.at_most is None else cond.at_least
        result = (low is None or value >= low) and (cond.at_most is None or value <= cond.at_most)
    return result != cond.negate


def check(cond: Condition, *, routes: set[str], decks: set[str]) -> None:
    """Raise PlanError, in one sentence, if `cond` cannot mean anything in this game."""
    if cond.kind not in CONDITIONS:
        raise PlanError(f"There is no condition called {cond.kind!r}; use one of {', '.join(CONDITIONS)}.")
    if cond.kind == "route_free" and cond.route not in routes:
        raise PlanError(f"There is no route {cond.route!r} on this board.")
    if cond.kind in ("face_up", "cards") and cond.colour and cond.colour not in CARD_NAMES:
        raise PlanError(f"There is no card colour {cond.colour!r}.")
    if cond.kind == "face_up" and not cond.colour:
        raise PlanError("Say which colour of face-up card the step waits for.")
    if cond.kind == "tickets_left" and cond.deck and cond.deck not in decks:
        raise PlanError(f"There is no ticket pile {cond.deck!r} in this game.")
    if cond.kind == "trains_left" and cond.whose not in ("me", "anyone"):
        raise PlanError("Trains left are counted for \"me\" or for \"anyone\" (the fewest any player has).")


@condition("always")
def _always(cond: Condition, view: View) -> bool:
    return True


@condition("route_free")
def _route_free(cond: Condition, view: View) -> bool:
    """Nobody has claimed the route (whether the player may claim it is the move's legality)."""
    return cond.route not in view.route_owner


@condition("face_up")
def _face_up(cond: Condition, view: View) -> int:
    """How many face-up cards show the colour."""
    return sum(1 for card in view.display if card == cond.colour)


@condition("cards")
def _cards(cond: Condition, view: View) -> int:
    """How many cards of the colour (or in all) the player holds."""
    me = view.me
    hand = me.hand if me is not None and me.hand is not None else {}
    return hand.get(cond.colour, 0) if cond.colour else sum(hand.values())


@condition("tickets_left")
def _tickets_left(cond: Condition, view: View) -> int:
    """Destination tickets left in the pile (a named pile, or all of them)."""
    return view.ticket_decks.get(cond.deck, 0) if cond.deck else sum(view.ticket_decks.values())


@condition("trains_left")
def _trains_left(cond: Condition, view: View) -> int:
    """The player's own trains left, or the fewest any player has ("anyone")."""
    if cond.whose == "anyone":
        return min(p.trains for p in view.players)
    me = view.me
    return me.trains if me is not None else 0
