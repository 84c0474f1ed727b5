"""The shape of a table option: a setting of the rules a host may choose for a table, with
its values in words. Rule-set records (engine/rulesets/) and the Dice Expansion declare theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

# What part of a board an option is about, when it means something only on a board that has it.
TUNNELS = "tunnels"
LONG_ROUTE = "long_route"  # a route longer than the Dice Expansion's dice and tokens can pay


# A value a table option may take (a JSON scalar, as the state's options hold it).
OptionValue: TypeAlias = bool | int | str


@dataclass(frozen=True)
class TableOption:
    """One option a host may set for a table: a setting of the rules, with a small set of
    values so that the bot can offer them as choices."""

    key: str  # the engine option (a key of the state's options)
    default: OptionValue
    values: tuple[tuple[OptionValue, str], ...]  # each allowed value, with its words
    name: str  # how a host names it (`/ttr new`'s option)
    title: str  # how a table's summary names it
    describe: str  # what it decides, in one line (the bot puts the rule set's title before it)
    needs: str | None = None  # only on a board with TUNNELS or a LONG_ROUTE (None: every board)
    cards: bool = False  # only with train cards: the Dice Expansion sets them aside, and this rule with them
