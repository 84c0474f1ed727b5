"""The rule-set registry: every module of this package declares one rule set's record
(`VARIANT`, an `engine.variant.Variant`), and the registry collects them all.

A rule set is added by adding its module here (and its board to maps/): no list names the
rule sets. The registry finds the modules with `pkgutil` the first time it is asked, checks
that each declares a record and that no id is taken twice, and orders them by the records'
`order` (the order players see them in).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from engine.errors import IllegalAction
from engine.options import TableOption
from engine.rules.dice import DICE_OPTIONS, DICE_TABLE_OPTIONS, with_dice
from engine.ruleset import RuleSet
from engine.state import GameState, canonical_json
from engine.variant import Variant

# Options every rule set understands, with their defaults. `first_player`: the seat (0-based)
# the host chose to begin; None draws it with the game's generator (README "First player",
# U14, A26). `undo`: the mover may take back a move that revealed nothing (engine/undo.py); the
# bot turns it on for its tables, self-play and search leave it off (keeping the state to come
# back to costs a copy per claim).
# `stand_in_level` is not a rule: it is the AI level the host chose to play for absent players
# (app/moves.py), kept with the table's other options; no rule reads it. Nor is `plans_ahead`:
# how many turns ahead a player may plan their moves (1, or 2; app/plan_ops.py). Nor is
# `language`: the catalogue the table's public posts are written in (bot_app/lang; the engine
# has no words, only events). Nor are `tutorial` (the lesson a guided game teaches,
# app/tutorial.py) and `hints` (a player may ask what the normal AI would do, app/tutorial_ops.py).
COMMON_OPTIONS: dict[str, Any] = {"dice": False, "first_player": None, "undo": False, "stand_in_level": "greedy",
                                  "plans_ahead": 1, "language": "en", "tutorial": None, "hints": False}


@cache
def _records() -> dict[str, Variant]:
    found: dict[str, Variant] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        record = getattr(module, "VARIANT", None)
        if not isinstance(record, Variant):
            raise TypeError(f"{module.__name__} declares no VARIANT (an engine.variant.Variant)")
        if record.id in found:
            raise ValueError(f"the rule-set id {record.id!r} is declared by two modules")
        found[record.id] = record
    return {r.id: r for r in sorted(found.values(), key=lambda r: (r.order, r.id))}


def variants() -> list[Variant]:
    """Every rule set's record, in the order players see them."""
    return list(_records().values())


def available_variants() -> list[str]:
    """The variant names that can be played now."""
    return list(_records())


def variant(name: str) -> Variant:
    """The record of the rule set called `name`; a clear sentence if there is none."""
    record = _records().get(name)
    if record is None:
        raise IllegalAction(
            f"There is no variant called {name!r}; choose one of {', '.join(available_variants())}.",
            "unknown_variant",
        )
    return record


def table_options() -> tuple[TableOption, ...]:
    """Every table option a host may set: each rule set's own, then the Dice Expansion's."""
    return (*(o for r in variants() for o in r.options), *DICE_TABLE_OPTIONS)


def option_keys() -> set[str]:
    """Every option the engine accepts, for any table."""
    return set(COMMON_OPTIONS) | set(DICE_OPTIONS) | {o.key for r in variants() for o in r.options}


def build_ruleset(variant: str, players: int, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set for a table; a clear sentence if the table is not playable."""
    return _cached_ruleset(variant, players, canonical_json(dict(options or {})))


@lru_cache(maxsize=256)
def _cached_ruleset(name: str, players: int, options_json: str) -> RuleSet:
    options = json.loads(options_json)
    record = variant(name)
    unknown = sorted(set(options) - set(COMMON_OPTIONS) - set(DICE_OPTIONS) - set(record.defaults()))
    if unknown:
        raise IllegalAction(f"The {name} rules have no option {unknown[0]!r}.", "unknown_option")
    unknown_dice = sorted(set(options) & set(DICE_OPTIONS))
    if unknown_dice and not options.get("dice"):
        raise IllegalAction(f"The option {unknown_dice[0]!r} needs the Dice Expansion (dice: true).", "unknown_option")
    first = options.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players):
        seat = f"seat {first + 1}" if isinstance(first, int) and not isinstance(first, bool) else repr(first)
        raise IllegalAction(f"The first player must be one of seats 1 to {players}, not {seat}.", "bad_option")
    rules = record.build(players, options)
    if options.get("dice"):
        rules = with_dice(rules, options)
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(
            f"{name} is played by {rules.min_players} to {rules.max_players} players, not {players}.",
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
