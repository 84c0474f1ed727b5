"""Decisions: what the game waits for, typed.

The state keeps the decision as it always has, a dict (`state.pending`: {"kind": "tunnel",
"route": …}), so snapshots and replays are unchanged; the engine's rules write and read it.
Everything outside the engine reads it typed: one frozen dataclass per decision kind, declared
beside the rule that opens it (`Turn` beside the core, `Tunnel` in engine/rules/tunnels.py),
with the kind as a class attribute. Declaring the class registers its kind; `decision_of`
reads a pending dict into its decision (the View's `pending.decision` holds the one the viewer
may see: other seats' offers are counts there).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar


class Decision:
    """The decision the game waits for. Subclasses are frozen dataclasses with `kind` set; each
    kind is declared once."""

    kind: ClassVar[str] = ""
    # A turn proper: the player chooses what to do with their turn (claim, draw, tickets…), not
    # a step inside an action already chosen. The computer players plan on these.
    is_turn: ClassVar[bool] = False
    registry: ClassVar[dict[str, type[Decision]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if not kind:
            return
        known = Decision.registry.get(kind)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ValueError(f"the decision kind {kind!r} is already declared by "
                             f"{known.__module__}.{known.__qualname__}")
        Decision.registry[kind] = cls

    def to_pending(self) -> dict[str, Any]:
        """The decision as the state keeps it: {"kind": …, its fields…}; a field whose default
        is None is left out while it is None (Germany's `announce`, only in its opening)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name, optional in _shape(type(self)):
            value = getattr(self, name)
            if value is None and optional:
                continue
            out[name] = value
        return out


@dataclass(frozen=True)
class UntypedDecision(Decision):
    """A decision no class reads (a state written by another version): kept as it was."""

    name: str
    fields: dict[str, Any] = field(default_factory=dict)

    def to_pending(self) -> dict[str, Any]:
        return {"kind": self.name, **self.fields}


# Each decision class's fields as (name, left out while None), read once per class: a decision
# is written on every move, and `dataclasses.fields` per write cost self-play about 3 %.
_SHAPES: dict[type[Decision], tuple[tuple[str, bool], ...]] = {}


def _shape(cls: type[Decision]) -> tuple[tuple[str, bool], ...]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = tuple((f.name, f.default is None)
                                     for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    return shape


def decision_of(pending: Mapping[str, Any]) -> Decision | None:
    """The typed decision of a pending dict (None: the game waits for nothing)."""
    if not pending:
        return None
    kind = str(pending.get("kind", ""))
    rest = {k: v for k, v in pending.items() if k != "kind"}
    cls = Decision.registry.get(kind)
    if cls is not None:
        try:
            return cls(**rest)
        except TypeError:
            pass
    return UntypedDecision(kind, rest)


def kind_of(decision: Decision | None) -> str:
    """A decision's kind ("" for none)."""
    if decision is None:
        return ""
    return decision.name if isinstance(decision, UntypedDecision) else decision.kind
