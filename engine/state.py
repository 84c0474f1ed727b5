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

# Bump whenever a rule change would make an old action log replay differently.
RULES_VERSION = 1


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars); much faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: copy_data(v) for k, v in value.items()} if value else {}
    if isinstance(value, list):
        return [copy_data(v) for v in value] if value else []
    return value


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
        return PlayerState(
            self.seat,
            self.trains,
            self.stations,
            dict(self.hand),
            list(self.tickets),
            list(self.routes),
            self.route_points,
            copy_data(self.public) if self.public else {},
            copy_data(self.private) if self.private else {},
        )

    def hand_size(self) -> int:
        return sum(self.hand.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "trains": self.trains,
            "stations": self.stations,
            "hand": {k: v for k, v in sorted(self.hand.items()) if v},
            "tickets": list(self.tickets),
            "routes": list(self.routes),
            "route_points": self.route_points,
            "public": copy_data(self.public),
            "private": copy_data(self.private),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerState:
        return cls(
            seat=data["seat"],
            trains=data["trains"],
            stations=data["stations"],
            hand={k: int(v) for k, v in data["hand"].items() if v},
            tickets=list(data["tickets"]),
            routes=list(data["routes"]),
            route_points=data["route_points"],
            public=copy_data(data.get("public", {})),
            private=copy_data(data.get("private", {})),
        )


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
            copy_data(self.pending),
            self.final_turns_left,
            self.passes_in_a_row,
            copy_data(self.result) if self.result else self.result,
            copy_data(self.extra) if self.extra else {},
            copy_data(self.secret) if self.secret else {},
            list(self.names),
            self.first_player,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rules_version": self.rules_version,
            "variant": self.variant,
            "options": copy_data(self.options),
            "map_id": self.map_id,
            "seed": self.seed,
            "rng": self.rng,
            "players": [p.to_json() for p in self.players],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "display": list(self.display),
            "ticket_decks": {k: list(v) for k, v in self.ticket_decks.items()},
            "route_owner": dict(self.route_owner),
            "route_scored": dict(self.route_scored),
            "stations": dict(self.stations),
            "current": self.current,
            "turn": self.turn,
            "status": self.status,
            "pending": copy_data(self.pending),
            "final_turns_left": self.final_turns_left,
            "passes_in_a_row": self.passes_in_a_row,
            "result": copy_data(self.result),
            "extra": copy_data(self.extra),
            "secret": copy_data(self.secret),
            "names": list(self.names),
            "first_player": self.first_player,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            rules_version=data["rules_version"],
            variant=data["variant"],
            options=copy_data(data["options"]),
            map_id=data["map_id"],
            seed=data["seed"],
            rng=data["rng"],
            players=[PlayerState.from_json(p) for p in data["players"]],
            deck=list(data["deck"]),
            discard=list(data["discard"]),
            display=list(data["display"]),
            ticket_decks={k: list(v) for k, v in data["ticket_decks"].items()},
            route_owner={k: int(v) for k, v in data["route_owner"].items()},
            route_scored={k: int(v) for k, v in data["route_scored"].items()},
            stations={k: int(v) for k, v in data["stations"].items()},
            current=data["current"],
            turn=data["turn"],
            status=data["status"],
            pending=copy_data(data["pending"]),
            final_turns_left=data["final_turns_left"],
            passes_in_a_row=data.get("passes_in_a_row", 0),
            result=copy_data(data["result"]),
            extra=copy_data(data.get("extra", {})),
            secret=copy_data(data.get("secret", {})),
            names=list(data.get("names", [])),
            first_player=data.get("first_player", 0),
        )

    def to_canonical(self) -> str:
        """The canonical JSON text: equal states give equal text."""
        return canonical_json(self.to_json())

    @classmethod
    def from_canonical(cls, text: str) -> GameState:
        return cls.from_json(json.loads(text))


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text: the one spelling of a JSON value."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
