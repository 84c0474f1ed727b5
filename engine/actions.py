"""Actions: typed values with a stable JSON encoding.

Actions are values: never change one after it is made. (They are not frozen dataclasses only
because listing legal actions creates hundreds per decision in AI games, and frozen instances
cost three times as much to create.)

Every action names the seat that takes it. The JSON form is {"type": ..., "player": ..., fields}
with card sets written as {"red": 3, "loco": 1}. Variant modules define their own action
classes with `@register` so that decoding finds them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import Cards, cards
from engine.errors import IllegalAction

ACTION_TYPES: dict[str, type[Action]] = {}


def register(cls: type[Action]) -> type[Action]:
    """Class decorator: make an action type decodable from JSON."""
    if cls.TYPE in ACTION_TYPES and ACTION_TYPES[cls.TYPE] is not cls:
        raise ValueError(f"action type {cls.TYPE!r} registered twice")
    ACTION_TYPES[cls.TYPE] = cls
    return cls


@dataclass(slots=True, unsafe_hash=True)
class Action:
    """Base of every action. `player` is the acting seat."""

    TYPE: ClassVar[str] = ""
    # What the action does, in words that fit "You cannot … in this game."
    DOES: ClassVar[str] = "do that"
    player: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("Cards",):
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def action_from_json(data: Any) -> Action:
    """Decode an action; a malformed one raises IllegalAction with a plain sentence."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise IllegalAction("That action is not in a form the game understands.", "malformed")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise IllegalAction(f"There is no action called {data['type']!r}.", "malformed")
    kwargs: dict[str, Any] = {}
    try:
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is not dataclasses.MISSING:
                    continue
                raise IllegalAction(f"That {cls.TYPE} action is missing {f.name!r}.", "malformed")
            value = data[f.name]
            if f.type == "Cards":
                if not isinstance(value, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in value.items()
                ):
                    raise IllegalAction("Cards must be given as names with counts.", "malformed")
                value = cards(value)
            elif f.type == "int":
                if not isinstance(value, int) or isinstance(value, bool):
                    raise IllegalAction(f"{f.name!r} must be a whole number.", "malformed")
            elif f.type == "int | None":
                if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                    raise IllegalAction(f"{f.name!r} must be a whole number or empty.", "malformed")
            elif f.type == "str":
                if not isinstance(value, str):
                    raise IllegalAction(f"{f.name!r} must be text.", "malformed")
            elif f.type.startswith("tuple"):
                if not isinstance(value, list | tuple):
                    raise IllegalAction(f"{f.name!r} must be a list.", "malformed")
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            elif f.type == "bool" and not isinstance(value, bool):
                raise IllegalAction(f"{f.name!r} must be true or false.", "malformed")
            kwargs[f.name] = value
        return cls(**kwargs)
    except TypeError as exc:  # wrong field names
        raise IllegalAction(f"That {cls.TYPE} action is malformed.", "malformed") from exc


# --- the actions of the base game and Europe -------------------------------------------------


@register
@dataclass(slots=True, unsafe_hash=True)
class DrawCard(Action):
    """Take one train card: from the face-up display (`slot` 0–4) or blind (`slot` None)."""

    TYPE: ClassVar[str] = "draw_card"
    DOES: ClassVar[str] = "draw a train card"
    slot: int | None = None


@register
@dataclass(slots=True, unsafe_hash=True)
class ClaimRoute(Action):
    """Claim a route with a set of cards."""

    TYPE: ClassVar[str] = "claim_route"
    DOES: ClassVar[str] = "claim a route"
    route: str = ""
    payment: Cards = ()


@register
@dataclass(slots=True, unsafe_hash=True)
class DrawTickets(Action):
    """Draw destination tickets. `mix` is the announced (deck, count) mix where the rules ask
    for one (Germany); empty means the rule set's usual draw."""

    TYPE: ClassVar[str] = "draw_tickets"
    DOES: ClassVar[str] = "draw destination tickets"
    mix: tuple[tuple[str, int], ...] = ()


@register
@dataclass(slots=True, unsafe_hash=True)
class KeepTickets(Action):
    """Choose which offered tickets to keep (at setup and after a draw)."""

    TYPE: ClassVar[str] = "keep_tickets"
    DOES: ClassVar[str] = "keep tickets"
    keep: tuple[str, ...] = ()


@register
@dataclass(slots=True, unsafe_hash=True)
class BuildStation(Action):
    """Build a station in a city."""

    TYPE: ClassVar[str] = "build_station"
    DOES: ClassVar[str] = "build a station"
    city: str = ""
    payment: Cards = ()


@register
@dataclass(slots=True, unsafe_hash=True)
class PayTunnel(Action):
    """Pay the extra cards a tunnel asks for, and claim it."""

    TYPE: ClassVar[str] = "pay_tunnel"
    DOES: ClassVar[str] = "pay for a tunnel"
    payment: Cards = ()


@register
@dataclass(slots=True, unsafe_hash=True)
class GiveUpTunnel(Action):
    """Take the tunnel's cards back; the turn ends with nothing claimed."""

    TYPE: ClassVar[str] = "give_up_tunnel"
    DOES: ClassVar[str] = "give up a tunnel"


@register
@dataclass(slots=True, unsafe_hash=True)
class Pass(Action):
    """Do nothing; legal only when no other action is (or where a variant allows it)."""

    TYPE: ClassVar[str] = "pass"
    DOES: ClassVar[str] = "pass"
