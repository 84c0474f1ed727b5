"""A plan as values: conditions, moves, steps, a turn's plan and a seat's book of plans.

Every value is a frozen dataclass with a JSON form (`to_json` / `from_json`), so a plan is
stored as text with the game (store/plans.py) and read back the same. `from_json` checks the
shape and the bounds only (at most MAX_STEPS steps of at most MAX_MOVES moves, texts of at most
MAX_TEXT characters, at most MAX_PLANS turns ahead) and says what is wrong in one sentence; what
a plan means in a given game (its routes, its rule set's actions) is checked by
`app.plans.run.check_plan`.

JSON form of a turn's plan:

    {"steps": [{"if": {"kind": "route_free", "route": "berlin-wien-1"},
                "then": [{"type": "claim_route", "route": "berlin-wien-1", "payment": {"red": 4}}]}],
     "else": [{"type": "draw_card"}, {"type": "draw_card"}]}

A move is an engine action's JSON without its "player" (the plan's seat plays it), except that
a face-up card is named by its colour, not its slot — `{"type": "draw_card", "colour": "red"}`
— since the slots change between now and the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.errors import ServiceError

MAX_STEPS = 5
# Decisions of one step: two card draws; a claim and a tunnel's extra; with dice a re-roll, a
# claim and the token question.
MAX_MOVES = 4
MAX_PLANS = 2  # the next turn's plan and, where the table allows it, the one after
MAX_TEXT = 100
MAX_COUNT = 1000


class PlanError(ServiceError):
    """A plan that cannot be stored or run, in one plain sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "bad_plan")


@dataclass(frozen=True, slots=True)
class Condition:
    """A fact of the player's own view (app/plans/conditions.py lists the kinds).

    `at_least` / `at_most` bound a count (cards, tickets left, trains left, face-up cards of a
    colour); `negate` turns the fact around ("route taken" is `route_free` negated)."""

    kind: str = "always"
    route: str = ""
    colour: str = ""
    deck: str = ""
    whose: str = "me"  # trains_left: "me", or "anyone" (the fewest trains any player has)
    at_least: int | None = None
    at_most: int | None = None
    negate: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, default in _CONDITION_DEFAULTS.items():
            value = getattr(self, name)
            if value != default:
                out[name] = value
        return out

    @classmethod
    def from_json(cls, data: Any) -> Condition:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise PlanError("A step's condition must be written as a set of named fields.")
        unknown = sorted(set(data) - {"kind", *_CONDITION_DEFAULTS})
        if unknown:
            raise PlanError(f"A condition has no field {_excerpt(unknown[0])!r}.")
        kind = _text(data.get("kind", "always"), "a condition's kind")
        values: dict[str, Any] = {}
        for name in ("route", "colour", "deck", "whose"):
            if name in data:
                values[name] = _text(data[name], f"a condition's {name}")
        for name in ("at_least", "at_most"):
            if data.get(name) is not None:
                values[name] = _count(data[name], f"a condition's {name}")
        if "negate" in data:
            if not isinstance(data["negate"], bool):
                raise PlanError("A condition's negate must be true or false.")
            values["negate"] = data["negate"]
        return cls(kind=kind, **values)


_CONDITION_DEFAULTS: dict[str, Any] = {"route": "", "colour": "", "deck": "", "whose": "me", "at_least": None,
                                       "at_most": None, "negate": False}


@dataclass(frozen=True, slots=True)
class PlanMove:
    """One decision of a step: an engine action's JSON without "player" (see the module's
    docstring for the face-up card by colour)."""

    action: Mapping[str, Any]

    @property
    def type(self) -> str:
        return str(self.action.get("type", ""))

    def to_json(self) -> dict[str, Any]:
        return dict(self.action)

    @classmethod
    def from_json(cls, data: Any) -> PlanMove:
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise PlanError("Each move of a plan must name its type.")
        if "player" in data:
            raise PlanError("A plan's move cannot name a player: it is always the plan's own.")
        if len(data) > 8 or len(_plain(data)) > 2000:
            raise PlanError("A move of the plan is too long.")
        _text(data["type"], "a move's type")
        return cls(dict(data))


@dataclass(frozen=True, slots=True)
class Step:
    """If `condition` holds (and the first move is legal), play `moves` in order."""

    condition: Condition
    moves: tuple[PlanMove, ...]

    def to_json(self) -> dict[str, Any]:
        return {"if": self.condition.to_json(), "then": [m.to_json() for m in self.moves]}

    @classmethod
    def from_json(cls, data: Any) -> Step:
        if not isinstance(data, Mapping):
            raise PlanError("Each step must be written as \"if\" and \"then\".")
        return cls(Condition.from_json(data.get("if")), _moves(data.get("then"), "A step"))


@dataclass(frozen=True, slots=True)
class Plan:
    """One turn's plan: the steps in order and the fallback (empty: none; then a turn where no
    step applies drops the plan and the player is asked as usual)."""

    steps: tuple[Step, ...] = ()
    fallback: tuple[PlanMove, ...] = ()

    def options(self) -> tuple[Step, ...]:
        """The steps to try in order, the fallback last (as a step whose condition always holds)."""
        return self.steps + ((Step(Condition(), self.fallback),) if self.fallback else ())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"steps": [s.to_json() for s in self.steps]}
        if self.fallback:
            out["else"] = [m.to_json() for m in self.fallback]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Plan:
        if not isinstance(data, Mapping):
            raise PlanError("A plan must be written as its steps and a fallback.")
        steps = data.get("steps", [])
        if not isinstance(steps, list | tuple):
            raise PlanError("A plan's steps must be a list.")
        if len(steps) > MAX_STEPS:
            raise PlanError(f"A plan has at most {MAX_STEPS} steps (and a fallback).")
        fallback = _moves(data["else"], "The fallback") if data.get("else") else ()
        plan = cls(tuple(Step.from_json(s) for s in steps), fallback)
        if not plan.options():
            raise PlanError("That plan has no step and no fallback.")
        return plan


@dataclass(frozen=True, slots=True)
class PlanBook:
    """A seat's plans: for its next turn first, then (where the table allows it) the one after."""

    plans: tuple[Plan, ...] = field(default_factory=tuple)

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.plans]

    @classmethod
    def from_json(cls, data: Any) -> PlanBook:
        if not isinstance(data, list | tuple):
            raise PlanError("The plans must be a list, one per turn.")
        if len(data) > MAX_PLANS:
            raise PlanError(f"At most {MAX_PLANS} turns can be planned ahead.")
        return cls(tuple(Plan.from_json(p) for p in data))

    def after_next(self) -> PlanBook:
        """The book once its next turn's plan has run (or was dropped)."""
        return PlanBook(self.plans[1:])


def _moves(data: Any, what: str) -> tuple[PlanMove, ...]:
    if not isinstance(data, list | tuple) or not data:
        raise PlanError(f"{what} must list at least one move.")
    if len(data) > MAX_MOVES:
        raise PlanError(f"{what} has at most {MAX_MOVES} moves.")
    return tuple(PlanMove.from_json(m) for m in data)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise PlanError(f"{what[0].upper()}{what[1:]} must be a text of at most {MAX_TEXT} characters.")
    return value


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
        raise PlanError(f"{what[0].upper()}{what[1:]} must be a whole number from 0 to {MAX_COUNT}.")
    return value


def _plain(data: Any) -> str:
    return repr(data)


def _excerpt(text: str) -> str:
    return text if len(text) <= 30 else text[:29] + "…"
