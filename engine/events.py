"""Events: what an action caused, each addressed to an audience.

Every event is public, private to one seat, or hidden (a record for replay checks that nobody
sees, such as the fact of a shuffle). Secrets go only into private or hidden events.

What happened is the event's `payload`: one frozen dataclass per kind, declared beside the rule
that emits it (`RouteClaimed` in engine/rules/routes.py; the core's own kinds in
engine/core.py), with the kind as a class attribute. Declaring the class registers its kind, so
`Event.from_json` rebuilds the typed payload of a stored event; a row whose kind no class
declares (or whose fields no longer fit its class) reads as an `Untyped` payload, so old rows
never fail to load.

The stored JSON is exactly what it was when payloads were dicts: `{"kind", "data",
"visibility", "seat"?}`, `data` holding the payload's fields. A field marked `absent()` is left
out of `data` when it is None, because the emitters of some kinds (a shuffle of the deck, of the
tickets, of the passengers) wrote different keys and old rows must keep their bytes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

PUBLIC = "public"
PRIVATE = "private"
HIDDEN = "hidden"

_ABSENT = "absent_when_none"

P = TypeVar("P", bound="Payload")


def absent() -> Any:
    """A payload field that some emitters of its kind leave out: None, and then not written."""
    return field(default=None, metadata={_ABSENT: True})


class Payload:
    """What one event says. Subclasses are frozen dataclasses with `kind` set; each kind is
    declared once (a second class for the same kind is refused)."""

    kind: ClassVar[str] = ""
    registry: ClassVar[dict[str, type[Payload]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if not kind:
            return
        known = Payload.registry.get(kind)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ValueError(f"the event kind {kind!r} is already declared by {known.__module__}.{known.__qualname__}")
        Payload.registry[kind] = cls

    def actor(self) -> int | None:
        """The seat whose move this tells of (the payload's `player`), None when it names none."""
        seat = getattr(self, "player", None)
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def to_data(self) -> dict[str, Any]:
        """The payload's fields as the stored `data` (an `absent()` field that is None is left out)."""
        out: dict[str, Any] = {}
        for name, may_be_absent in _field_list(type(self)):
            value = getattr(self, name)
            if value is None and may_be_absent:
                continue
            out[name] = value
        return out


# Each payload class's fields as (name, left out when None), in declaration order: a move
# writes several events, and `dataclasses.fields` rebuilt this list for every one of them.
# Classes never change their fields once declared, so the list is kept per class.
_FIELD_LISTS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _field_list(cls: type) -> tuple[tuple[str, bool], ...]:
    known = _FIELD_LISTS.get(cls)
    if known is None:
        known = tuple((f.name, bool(f.metadata.get(_ABSENT))) for f in dataclasses.fields(cls))
        _FIELD_LISTS[cls] = known
    return known


@dataclass(frozen=True)
class Untyped(Payload):
    """A stored event no payload class reads (a kind since retired, or fields that changed):
    kept as it was written, so it loads, replays and is written back unchanged."""

    name: str
    fields: dict[str, Any] = field(default_factory=dict)

    def actor(self) -> int | None:
        seat = self.fields.get("player")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def to_data(self) -> dict[str, Any]:
        return self.fields


def payload_from(kind: str, data: dict[str, Any]) -> Payload:
    """The typed payload of a stored event's kind and data (`Untyped` when none fits)."""
    cls = Payload.registry.get(kind)
    if cls is not None:
        try:
            return cls(**data)
        except TypeError:
            pass
    return Untyped(kind, data)


@dataclass(frozen=True)
class Event:
    """One thing that happened. `seat` is set for private events (who may see it)."""

    payload: Payload
    visibility: str = PUBLIC
    seat: int | None = None

    @property
    def kind(self) -> str:
        p = self.payload
        return p.name if isinstance(p, Untyped) else p.kind

    def of(self, cls: type[P]) -> P | None:
        """The payload if it is a `cls`, else None."""
        return self.payload if isinstance(self.payload, cls) else None

    def visible_to(self, seat: int | None) -> bool:
        """Whether the player in `seat` (None: the public) may see this event."""
        if self.visibility == PUBLIC:
            return True
        return self.visibility == PRIVATE and seat is not None and seat == self.seat

    def to_json(self) -> dict[str, Any]:
        """The stored form (the same bytes as before payloads were typed)."""
        out: dict[str, Any] = {"kind": self.kind, "data": self.payload.to_data(), "visibility": self.visibility}
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """An event as stored, with its typed payload."""
        payload = payload_from(data["kind"], dict(data.get("data", {})))
        return cls(payload, data.get("visibility", PUBLIC), data.get("seat"))
