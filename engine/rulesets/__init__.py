"""The rule sets, by the names players use (usa, europe, nordic, germany, ussr, alsace).

Each builder returns a RuleSet: settings plus the rule modules that make up the variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from types import ModuleType
from typing import Any

from engine.errors import IllegalAction
from engine.rules.dice import DICE_OPTIONS, with_dice
from engine.ruleset import RuleSet
from engine.rulesets import alsace, europe, germany, nordic, usa, ussr
from engine.state import GameState, canonical_json

# Each rule set module has `build(players, options)` and may declare `OPTIONS`, its own table
# options with their defaults (e.g. a rule with two readings, AMBIGUITIES "make it an option").
MODULES: dict[str, ModuleType] = {
    "usa": usa,
    "europe": europe,
    "nordic": nordic,
    "germany": germany,
    "ussr": ussr,
    "alsace": alsace,
}
BUILDERS: dict[str, Callable[[int, Mapping[str, Any]], RuleSet]] = {name: m.build for name, m in MODULES.items()}

# Options every rule set understands, with their defaults. `first_player`: the seat (0-based)
# the host chose to begin; None draws it with the game's generator (README "First player",
# U14, A26). `undo`: the mover may take back a move that revealed nothing (engine/undo.py); the
# bot turns it on for its tables, self-play and search leave it off (keeping the state to come
# back to costs a copy per claim).
# `stand_in_level` is not a rule: it is the AI level the host chose to play for absent players
# (app/moves.py), kept with the table's other options; no rule reads it.
COMMON_OPTIONS: dict[str, Any] = {"dice": False, "first_player": None, "undo": False, "stand_in_level": "greedy"}


def available_variants() -> list[str]:
    """The variant names that can be played now."""
    return list(BUILDERS)


def build_ruleset(variant: str, players: int, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set for a table; a clear sentence if the table is not playable."""
    return _cached_ruleset(variant, players, canonical_json(dict(options or {})))


@lru_cache(maxsize=256)
def _cached_ruleset(variant: str, players: int, options_json: str) -> RuleSet:
    import json

    options = json.loads(options_json)
    builder = BUILDERS.get(variant)
    if builder is None:
        raise IllegalAction(
            f"There is no variant called {variant!r}; choose one of {', '.join(available_variants())}.",
            "unknown_variant",
        )
    unknown = sorted(
        set(options) - set(COMMON_OPTIONS) - set(DICE_OPTIONS) - set(getattr(MODULES[variant], "OPTIONS", {}))
    )
    if unknown:
        raise IllegalAction(f"The {variant} rules have no option {unknown[0]!r}.", "unknown_option")
    unknown_dice = sorted(set(options) & set(DICE_OPTIONS))
    if unknown_dice and not options.get("dice"):
        raise IllegalAction(f"The option {unknown_dice[0]!r} needs the Dice Expansion (dice: true).", "unknown_option")
    first = options.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players):
        seat = f"seat {first + 1}" if isinstance(first, int) and not isinstance(first, bool) else repr(first)
        raise IllegalAction(f"The first player must be one of seats 1 to {players}, not {seat}.", "bad_option")
    rules = builder(players, options)
    if options.get("dice"):
        rules = with_dice(rules, options)
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(
            f"{variant} is played by {rules.min_players} to {rules.max_players} players, not {players}.",
            "bad_player_count",
        )
    return rules


def ruleset_for(state: GameState) -> RuleSet:
    """The rule set a saved game was started with."""
    try:
        key = (state.variant, len(state.players), tuple(state.options.items()))
        return _BY_KEY[key]
    except KeyError:
        rules = build_ruleset(state.variant, len(state.players), state.options)
        _BY_KEY[key] = rules
        return rules
    except TypeError:  # an option value that cannot be a dict key
        return build_ruleset(state.variant, len(state.players), state.options)


_BY_KEY: dict[tuple[Any, ...], RuleSet] = {}
