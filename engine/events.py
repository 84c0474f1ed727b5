"""Events: what an action caused, each addressed to an audience.

Every event is public, private to one seat, or hidden (a record for replay checks that nobody
sees, such as the fact of a shuffle). Secrets go only into private or hidden events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PUBLIC = "public"
PRIVATE = "private"
HIDDEN = "hidden"


@dataclass(frozen=True)
class Event:
    """One thing that happened. `seat` is set for private events (who may see it)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    visibility: str = PUBLIC
    seat: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether the player in `seat` (None: the public) may see this event."""
        if self.visibility == PUBLIC:
            return True
        return self.visibility == PRIVATE and seat is not None and seat == self.seat

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data, "visibility": self.visibility}
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(data["kind"], dict(data.get("data", {})), data.get("visibility", PUBLIC), data.get("seat"))
