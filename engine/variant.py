"""What a rule set is to the world: its record, `Variant` (id, title, board, player counts,
table options with their descriptions, and how to build its `RuleSet`).

Each module of engine/rulesets/ declares one `VARIANT`; the registry (engine/rulesets/__init__.py)
collects them. A variant's id, title and board are written there and nowhere else: the bot's
lists, choices, titles and option catalogue read them from the record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.options import TableOption
from engine.ruleset import RuleSet


@dataclass(frozen=True)
class Variant:
    """One rule set as players know it.

    `build(players, options)` makes its `RuleSet`; `options` are the table options of this
    rule set alone (those every rule set has, and the Dice Expansion's, are the registry's and
    the dice rules'). `order` places it in lists: the base game first, the fan boards last."""

    id: str
    title: str
    map_id: str
    min_players: int
    max_players: int
    build: Callable[[int, Mapping[str, Any]], RuleSet] = field(repr=False)
    order: int
    options: tuple[TableOption, ...] = ()

    def rules(self, **settings: Any) -> RuleSet:
        """A `RuleSet` with this record's name, board and player counts and the given settings
        (trains, stations, modules, payment, …): what `build` returns."""
        return RuleSet(name=self.id, map_id=self.map_id, min_players=self.min_players,
                       max_players=self.max_players, **settings)

    def defaults(self) -> dict[str, Any]:
        """This rule set's own options with their defaults."""
        return {option.key: option.default for option in self.options}
