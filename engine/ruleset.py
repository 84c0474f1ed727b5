"""A rule set: the settings of one variant and the rule modules that make it up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.maps import load_map
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.maps import GameMap, Route
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
    # Indexes built from `modules` (never passed in; `dataclasses.replace` rebuilds them).
    _handlers: dict[tuple[str, type[Action]], RuleModule] = field(init=False, repr=False, compare=False)
    _by_kind: dict[str, tuple[RuleModule, ...]] = field(init=False, repr=False, compare=False)
    _hooks: dict[str, tuple[RuleModule, ...]] = field(init=False, repr=False, compare=False)
    # The board, loaded once when the rule set is built (rule sets are built once per table
    # shape and kept): `apply` never reads a map from disk.
    _map: GameMap = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        handlers: dict[tuple[str, type[Action]], RuleModule] = {}
        for module in self.modules:
            for kind, types in module.actions.items():
                for action_type in types:
                    key = (kind, action_type)
                    if key in handlers:
                        raise ValueError(f"{action_type.TYPE} in {kind!r} handled twice")
                    handlers[key] = module
        # The modules that do something in each hook, in order: the core calls hooks on every
        # turn of every game, and most modules leave most hooks empty.
        hooks = {
            hook: tuple(m for m in self.modules if getattr(type(m), hook) is not getattr(RuleModule, hook))
            for hook in ("on_turn_start", "before_turn_end", "on_turn_end", "on_route_claimed")
        }
        kinds = {kind for module in self.modules for kind in module.actions}
        by_kind = {kind: tuple(m for m in self.modules if kind in m.actions) for kind in kinds}
        object.__setattr__(self, "_handlers", handlers)
        object.__setattr__(self, "_by_kind", by_kind)
        object.__setattr__(self, "_hooks", hooks)
        object.__setattr__(self, "_map", load_map(self.map_id))

    @property
    def game_map(self) -> GameMap:
        """The board these rules are played on."""
        return self._map

    def length(self, route: Route) -> int:
        """The route's length under these rules."""
        return self.route_lengths.get(route.id, route.length)

    def handler(self, kind: str, action: Action) -> RuleModule | None:
        """The module that handles `action` while the game waits for a `kind` decision."""
        return self._handlers.get((kind, type(action)))

    def knows(self, action_type: type[Action]) -> bool:
        """Whether any module of this rule set handles `action_type` at some point."""
        return any(t is action_type for _, t in self._handlers)

    def hooked(self, hook: str) -> tuple[RuleModule, ...]:
        """The modules that implement `hook`, in rule-set order."""
        return self._hooks[hook]

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
