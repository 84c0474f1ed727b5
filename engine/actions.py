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
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import CARD_SET, Cards, cards
from engine.errors import IllegalAction, excerpt

ACTION_TYPES: dict[str, type[Action]] = {}

# Bounds on what a decoded action may carry: far above anything a game needs (the longest id
# or route label of a shipped map has 63 characters, a payment a few dozen cards), low enough
# that no rule can be made to do much work with one action.
MAX_TEXT = 100
MAX_ITEMS = 50
MAX_NUMBER = 1000

# A field's decoder: the JSON value in, the field's value out (or _Malformed).
Decoder = Callable[[Any], Any]


class _Malformed(Exception):
    """A value that does not fit its field (turned into one sentence naming the field)."""


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    required: bool
    decode: Decoder
    expected: str  # what the field must be, in words: "'keep' must be <expected>."
    cards: bool  # written as {"name": count} rather than as a list


# Per registered class: how to decode (and encode) each field, built from its annotations.
_FIELDS: dict[type, tuple[_Field, ...]] = {}


def register(cls: type[Action]) -> type[Action]:
    """Class decorator: make an action type decodable from JSON.

    Each field's annotation becomes a decoder now, so that an annotation the decoder does not
    know fails at import rather than letting a value through unchecked."""
    if cls.TYPE in ACTION_TYPES and ACTION_TYPES[cls.TYPE] is not cls:
        raise ValueError(f"action type {cls.TYPE!r} registered twice")
    _FIELDS[cls] = _fields_of(cls)
    ACTION_TYPES[cls.TYPE] = cls
    return cls


@dataclass(slots=True, unsafe_hash=True)
class Action:
    """Base of every action. `player` is the acting seat."""

    TYPE: ClassVar[str] = ""
    # What the action does, in words that fit "You cannot … in this game."
    DOES: ClassVar[str] = "do that"
    # Whether the mover may take it back until the next player acts, provided it turned out to
    # reveal nothing hidden (engine/undo.py checks that after the fact).
    UNDOABLE: ClassVar[bool] = False
    player: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        fields = _FIELDS.get(type(self))
        if fields is None:  # an unregistered class: only the card sets need their name
            fields = tuple(_Field(f.name, True, _no_decoder, "", f.type == "Cards")
                           for f in dataclasses.fields(self))
        for f in fields:
            value = getattr(self, f.name)
            if f.cards:
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def action_from_json(data: Any) -> Action:
    """Decode an action; a malformed one raises IllegalAction with a plain sentence.

    Every field is checked all the way down against its annotation (texts, whole numbers and
    lists bounded by MAX_TEXT, MAX_NUMBER and MAX_ITEMS), so the rules only ever see values of
    the types they were written for."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise IllegalAction("That action is not in a form the game understands.", "malformed")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise IllegalAction(f"There is no action called {excerpt(data['type'])}.", "malformed")
    kwargs: dict[str, Any] = {}
    for f in _FIELDS[cls]:
        if f.name not in data:
            if f.required:
                raise IllegalAction(f"That {cls.TYPE} action is missing {f.name!r}.", "malformed")
            continue
        try:
            kwargs[f.name] = f.decode(data[f.name])
        except _Malformed:
            raise IllegalAction(f"{f.name!r} must be {f.expected}.", "malformed") from None
    return cls(**kwargs)


# --- decoders from annotations -------------------------------------------------------------


def _no_decoder(value: Any) -> Any:
    raise _Malformed


def _fields_of(cls: type) -> tuple[_Field, ...]:
    # The annotations as the objects they name, each in the module of the class that declares
    # it (typing resolves them; include_extras keeps the card-set mark of Cards).
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        decode, expected = _decoder(hint, f"{cls.__name__}.{f.name}", top=True)
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out.append(_Field(f.name, required, decode, expected, _is_card_set(hint)))
    return tuple(out)


def _is_card_set(hint: Any) -> bool:
    """Whether an annotation is Cards (engine/cards.py), by its mark: a tuple of pairs
    written out is not a card set."""
    return typing.get_origin(hint) is typing.Annotated and CARD_SET in getattr(hint, "__metadata__", ())


def _decoder(hint: Any, where: str, top: bool = False) -> tuple[Decoder, str]:
    """A decoder for one annotation (`top`: a field's own, not a part of one) and what it
    accepts in words; TypeError for a type the JSON form has no rule for."""
    # Cards is tuple[tuple[str, int], ...] with a mark (not an equal type written out): a
    # card set, which JSON writes as {"red": 3, "loco": 1}. to_json writes it so only as a
    # field of its own.
    if _is_card_set(hint):
        if not top:
            raise TypeError(f"{where}: a card set must be a field of its own, not inside {where}'s type")
        return _decode_cards, "cards given as names with counts"
    if hint is bool:
        return _decode_bool, "true or false"
    if hint is int:
        return _decode_int, f"a whole number from 0 to {MAX_NUMBER}"
    if hint is str:
        return _decode_text, f"a text of at most {MAX_TEXT} characters"
    if typing.get_origin(hint) is typing.Annotated:  # another mark: the type under it
        return _decoder(typing.get_args(hint)[0], where, top)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        inner, expected = _decoder(next(a for a in args if a is not type(None)), where)
        return (lambda value: None if value is None else inner(value)), f"{expected} or empty"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item, expected = _decoder(args[0], where)
        return _list_of(item), f"a list of at most {MAX_ITEMS} items, each {expected}"
    if origin is tuple and args and Ellipsis not in args:
        items = [_decoder(a, where) for a in args]
        return _tuple_of([d for d, _ in items]), (
            f"a list of {len(items)}: " + ", then ".join(e for _, e in items))
    raise TypeError(f"{where}: actions cannot carry a {hint!r} (no JSON decoder for it)")


def _decode_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Malformed
    return value


def _decode_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_NUMBER:
        raise _Malformed
    return value


def _decode_text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _Malformed
    return value


def _decode_cards(value: Any) -> Cards:
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        raise _Malformed
    for name, n in value.items():
        _decode_text(name)
        _decode_int(n)
    return cards(value)


def _list_of(item: Decoder) -> Decoder:
    def decode(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) > MAX_ITEMS:
            raise _Malformed
        return tuple(item(v) for v in value)
    return decode


def _tuple_of(items: list[Decoder]) -> Decoder:
    def decode(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise _Malformed
        return tuple(item(v) for item, v in zip(items, value, strict=True))
    return decode


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
    """Claim a route (by its id) with a set of cards."""

    TYPE: ClassVar[str] = "claim_route"
    DOES: ClassVar[str] = "claim a route"
    UNDOABLE: ClassVar[bool] = True  # not once it turns out to be a tunnel (cards are revealed)
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
    """Build a station in a city (by its id)."""

    TYPE: ClassVar[str] = "build_station"
    DOES: ClassVar[str] = "build a station"
    UNDOABLE: ClassVar[bool] = True
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


@register
@dataclass(slots=True, unsafe_hash=True)
class Undo(Action):
    """Take back one's last move (engine/undo.py says which moves and until when)."""

    TYPE: ClassVar[str] = "undo"
    DOES: ClassVar[str] = "take back your last move"
