"""A rule set: the settings of one variant and the rule modules that make it up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.actions import Action

if TYPE_CHECKING:
    from engine.maps import Route
    from engine.rules.module import RuleModule
    from engine.rules.payment import PaymentRule
    from engine.rules.tie_breaks import TieBreak


@dataclass(frozen=True)
class RuleSet:
    """Everything that makes one variant what it is.

    `modules` run in order for every hook (setup, turn start and end, claims, scoring);
    `payment` decides which cards may pay for a route or a tunnel; `tie_breaks` settle equal
    totals, in order, and players still tied share the win.
    """

    name: str
    map_id: str
    min_players: int
    max_players: int
    trains: int
    stations: int
    doubles_from_players: int
    modules: tuple[RuleModule, ...]
    payment: PaymentRule
    tie_breaks: tuple[TieBreak, ...]
    options: dict[str, Any] = field(default_factory=dict)
    # Routes that count as another length than the map prints (Nordic's 9-route as 8 under
    # dice, D13): their trains, their score and their place in the longest path.
    route_lengths: dict[str, int] = field(default_factory=dict)
    _handlers: dict[tuple[str, type[Action]], RuleModule] = field(default_factory=dict, repr=False)
    _by_kind: dict[str, tuple[RuleModule, ...]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for module in self.modules:
            for kind, types in module.actions.items():
                for action_type in types:
                    key = (kind, action_type)
                    if key in self._handlers:
                        raise ValueError(f"{action_type.TYPE} in {kind!r} handled twice")
                    self._handlers[key] = module
        kinds = {kind for module in self.modules for kind in module.actions}
        for kind in kinds:
            self._by_kind[kind] = tuple(m for m in self.modules if kind in m.actions)

    def length(self, route: Route) -> int:
        """The route's length under these rules."""
        return self.route_lengths.get(route.id, route.length)

    def handler(self, kind: str, action: Action) -> RuleModule | None:
        """The module that handles `action` while the game waits for a `kind` decision."""
        return self._handlers.get((kind, type(action)))

    def knows(self, action_type: type[Action]) -> bool:
        """Whether any module of this rule set handles `action_type` at some point."""
        return any(t is action_type for _, t in self._handlers)

    def modules_for(self, kind: str) -> tuple[RuleModule, ...]:
        return self._by_kind.get(kind, ())

    def prompt(self, kind: str) -> str:
        for module in self.modules:
            if kind in module.prompts:
                return module.prompts[kind]
        return "take your turn"

    def module(self, name: str) -> RuleModule | None:
        for module in self.modules:
            if module.name == name:
                return module
        return None
