"""The game state: plain data with one canonical JSON form.

Secrets live in known places so that `view` can strip them in one function:
- `deck`, `ticket_decks`, `rng`, `seed` and `secret` are never shown to anyone;
- a player's `hand`, `tickets` and `private` are shown only to that player;
- offers inside `pending` (tickets to choose from) are shown only to their player;
- everything else is public.
Variant modules keep their own data in `extra` (public), `secret` (hidden) and each player's
`public` / `private` dicts, keyed by the module's name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import msgspec

# Bump whenever a rule change would make an old action log replay differently.
# 2: Germany's dice ticket draws announce their mix (D7); equal station loans go to the best
# final score (X2).
# 3: a move that revealed cards from the reshuffled discards cannot be undone; a dice turn whose
# tunnel failed or was given up ends in `dice_discard` when the player holds tokens ([D:28]).
RULES_VERSION = 3


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars); much faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: copy_data(v) for k, v in value.items()} if value else {}
    if isinstance(value, list):
        return [copy_data(v) for v in value] if value else []
    return value


_PACK = msgspec.msgpack.Encoder()
_UNPACK = msgspec.msgpack.Decoder()


def _copy_nested(value: Any) -> Any:
    """`copy_data` for the variant data `clone` copies at every step (Germany's passenger
    board, dice, tourist cards), through msgpack: two to five times faster on nested data.
    Tuples come back as lists, as when a state is read back from its snapshot."""
    return _UNPACK.decode(_PACK.encode(value))


@dataclass
class PlayerState:
    """One seat. `hand` maps card name to count."""

    seat: int
    trains: int
    stations: int
    hand: dict[str, int] = field(default_factory=dict)
    tickets: list[str] = field(default_factory=list)
    routes: list[str] = field(default_factory=list)
    route_points: int = 0
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)

    def clone(self) -> PlayerState:
        # Written out field by field: `apply` clones on every move and this is three times
        # faster than a loop over the fields (tests/engine/test_engine.py checks it copies them all).
        return PlayerState(
            self.seat,
            self.trains,
            self.stations,
            dict(self.hand),
            list(self.tickets),
            list(self.routes),
            self.route_points,
            _copy_nested(self.public) if self.public else {},
            _copy_nested(self.private) if self.private else {},
        )

    def hand_size(self) -> int:
        return sum(self.hand.values())


@dataclass
class GameState:
    """Everything about one game at one moment.

    `pending` is the decision the game waits for, e.g. {"kind": "turn"} (the current player
    chooses an action), {"kind": "second_card"}, {"kind": "choose_tickets", "offers": [...]}
    or {"kind": "tunnel", ...}. A game can wait days between any two decisions.
    `final_turns_left` counts the turns still to play once the end has been triggered;
    `passes_in_a_row` counts turns passed in a row (a full round of them ends the game).
    `options` holds only rule options (e.g. dice); `names` label the seats in messages.
    """

    rules_version: int
    variant: str
    options: dict[str, Any]
    map_id: str
    seed: int
    rng: int
    players: list[PlayerState]
    deck: list[str]
    discard: list[str]
    display: list[str | None]
    ticket_decks: dict[str, list[str]]
    route_owner: dict[str, int] = field(default_factory=dict)
    route_scored: dict[str, int] = field(default_factory=dict)
    stations: dict[str, int] = field(default_factory=dict)
    current: int = 0
    turn: int = 0
    status: str = "setup"
    pending: dict[str, Any] = field(default_factory=dict)
    final_turns_left: int | None = None
    passes_in_a_row: int = 0
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    first_player: int = 0

    @property
    def game_over(self) -> bool:
        return self.status == "over"

    def clone(self) -> GameState:
        """An independent copy; `apply` mutates a clone, never the caller's state."""
        # Written out field by field, like PlayerState.clone, for speed.
        return GameState(
            self.rules_version,
            self.variant,
            dict(self.options),
            self.map_id,
            self.seed,
            self.rng,
            [p.clone() for p in self.players],
            list(self.deck),
            list(self.discard),
            list(self.display),
            {k: list(v) for k, v in self.ticket_decks.items()},
            dict(self.route_owner),
            dict(self.route_scored),
            dict(self.stations),
            self.current,
            self.turn,
            self.status,
            _copy_nested(self.pending) if self.pending else {},
            self.final_turns_left,
            self.passes_in_a_row,
            _copy_nested(self.result) if self.result else self.result,
            _copy_nested(self.extra) if self.extra else {},
            _copy_nested(self.secret) if self.secret else {},
            list(self.names),
            self.first_player,
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-like data (dicts, lists, scalars)."""
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """A state from JSON-like data, every field checked against its type."""
        return msgspec.convert(data, cls)

    def to_canonical(self) -> str:
        """The canonical JSON text: equal states give equal text."""
        return _CANONICAL.encode(self).decode()

    @classmethod
    def from_canonical(cls, text: str | bytes) -> GameState:
        """A state from its canonical text, every field checked against its type (a bad one
        raises ValueError)."""
        try:
            return _DECODER.decode(text)
        except msgspec.ValidationError as exc:
            raise ValueError(str(exc)) from None
        except msgspec.DecodeError as exc:
            raise ValueError(str(exc)) from None


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the one spelling of a JSON value.

    Written by msgspec (a move spells six or seven of these: its action, events, payloads;
    ten times faster than the json module): the same text as json.dumps with sorted keys,
    but for some floats, spelled otherwise for the same number (0.00001 for 1e-05, 1e22 for
    1e+22). A dict with keys that are not text, which msgspec does not sort, goes through the
    json module."""
    try:
        return _CANONICAL.encode(data).decode()
    except TypeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The fields are listed once, in each class's definition (and its fast `clone`): msgspec
# writes the canonical text (sorted keys, no spaces, UTF-8) directly from the dataclasses —
# the same bytes as `canonical_json` of the same data, eight times faster — and reads it back
# checking every field against its declared type.
_CANONICAL = msgspec.json.Encoder(order="sorted")
_DECODER = msgspec.json.Decoder(GameState)
