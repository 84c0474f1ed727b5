"""The table options a host may choose with `/ttr new`, checked in words before the engine
checks them again.

The options are the engine's (`engine.rulesets.table_options()`: each rule set's own, declared
in its record, then the Dice Expansion's), each with its values in words. An option is offered
where it means something: an option of a rule set only for that rule set, a dice option only
with the Dice Expansion and, where it concerns part of a board (tunnels, a route too long for
the dice), only on a map that has it. Every option has a small set of values, so Discord shows
them as choices; a value that is not one of them, or an option that does not apply to the
table, is refused with one sentence and opens nothing.

The first player is the one option that depends on the seats: "random" (the default: drawn
with the game's seed) or a seat number of the lobby's list (seat 1 is the host).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from discord import app_commands

from bot_app import lang
from bot_app.lang import LANGUAGE_OPTION, table_language
from bot_app.presentation import text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import excerpt, is_number
from engine import rulesets
from engine.options import LONG_ROUTE, TUNNELS
from engine.rules.dice import DICE_OPTIONS
from engine.rules.dice.faces import MAX_LENGTH
from engine.rulesets import available_variants, build_ruleset, option_keys, variants

FIRST_PLAYER = "first_player"  # the engine option (a 0-based seat); /ttr new calls it `first`
UNDO = "undo"  # the engine option (engine/undo.py); /ttr new calls it `undo` too, on by default
# Not a rule: the AI level that plays for absent players (app/moves.py); /ttr new calls it
# `stand_in`, the service refuses a level it does not know.
STAND_IN = "stand_in_level"
# Not a rule either: how many turns ahead a player may plan their moves (app/plan_ops.py);
# /ttr new's `plan_ahead` (off: the next turn only; on: two turns).
PLANS_AHEAD = "plans_ahead"
# Not rules: a player may ask for a hint (app/tutorial_ops.py; /ttr new's `hints`, off — on
# for tutorials), and the lesson a tutorial teaches (set by /ttr rules lesson: only).
HINTS = "hints"
TUTORIAL = "tutorial"
RANDOM = "random"
MOST_SEATS = 5


@dataclass(frozen=True)
class TableOption:
    """One option of `/ttr new`."""

    name: str  # the option of /ttr new
    key: str  # the engine option it sets
    title: str  # how the lobby post names it
    describe: str  # Discord's description of the option (100 characters at most)
    values: tuple[tuple[Any, str], ...]  # each allowed value, in words
    default: Any  # the engine's default
    dice: bool = False  # only with the Dice Expansion
    cards: bool = False  # only with train cards: the Dice Expansion sets them aside, and this rule with them
    needs: str | None = None  # only on a board with TUNNELS or a LONG_ROUTE

    def words(self, value: Any) -> str:
        """A value as the choices show it (English: Discord's Translator gives the rest)."""
        return next((w for v, w in self.values if v == value and type(v) is type(value)), str(value))

    def said(self, value: Any, words: lang.Language) -> str:
        """A value as the lobby post shows it, in `words`' language."""
        key = f"table_option.value.{self.key}.{str(value).lower()}"
        return words.t(key) if lang.english().has(key) else self.words(value)


def _catalogue() -> tuple[TableOption, ...]:
    """The engine's table options, each described after the rule set it belongs to ("Alsace:
    …") or the Dice Expansion ("Dice: …")."""
    owner = {o.key: r.title for r in variants() for o in r.options}
    return tuple(
        TableOption(o.name, o.key, o.title, f"{owner.get(o.key, 'Dice')}: {o.describe}", o.values, o.default,
                    dice=o.key in DICE_OPTIONS, cards=o.cards, needs=o.needs)
        for o in rulesets.table_options())


OPTIONS: tuple[TableOption, ...] = _catalogue()
BY_NAME = {o.name: o for o in OPTIONS}
BY_KEY = {o.key: o for o in OPTIONS}


def engine_options() -> set[str]:
    """Every option the engine accepts, for any table (the catalogue must offer each)."""
    return option_keys()


def _has(variant: str, needs: str) -> bool:
    routes = build_ruleset(variant, 2).game_map.routes.values()
    if needs == TUNNELS:
        return any(r.tunnel for r in routes)
    return any(r.length > MAX_LENGTH for r in routes)


def _variants_with(option: TableOption) -> list[str]:
    return [v for v in available_variants() if any(applies(option, v, dice=d) for d in (False, True))]


def applies(option: TableOption, variant: str, *, dice: bool) -> bool:
    """Whether `option` means something at a table of `variant` (with or without dice)."""
    if option.dice:
        return dice and (option.needs is None or _has(variant, option.needs))
    if option.cards and dice:
        return False
    return any(option.key == o.key for r in variants() if r.id == variant for o in r.options)


def _why_not(option: TableOption, variant: str, dice: bool) -> str:
    words = lang.reader()
    title = text.variant_title(variant)
    name = f"`{option.name}`"
    if option.dice and not dice:
        return words.t("table_option.refusal.dice_only", name=name)
    if option.cards and dice and applies(option, variant, dice=False):
        return words.t("table_option.refusal.cards_only", name=name)
    if option.needs == TUNNELS:
        return words.t("table_option.refusal.tunnels_only", name=name, title=title)
    if option.needs == LONG_ROUTE:
        return words.t("table_option.refusal.long_route_only", name=name, length=MAX_LENGTH, title=title)
    where = words.t("word.and").join(f" {text.variant_title(v)} " for v in _variants_with(option)).strip()
    return words.t("table_option.refusal.variants_only", name=name, where=where, title=title)


def _value(option: TableOption, given: object) -> Any:
    for value, _ in option.values:
        if given == value and type(given) is type(value):
            return value
    words = lang.reader()
    allowed = ", ".join(f"`{str(v).lower() if isinstance(v, bool) else v}` ({option.said(v, words)})"
                        for v, _ in option.values)
    raise Refusal(words.t("table_option.refusal.value", name=f"`{option.name}`", allowed=allowed,
                          given=excerpt(given, 20)))


def first_seat(first: object, seats: int) -> int | None:
    """The 0-based seat the host chose to begin (None: random), checked against the table."""
    if first is None or first == RANDOM:
        return None
    if isinstance(first, str) and is_number(first) and len(first) <= 2:
        n = int(first)
        if 1 <= n <= seats:
            return n - 1
        if 1 <= n <= MOST_SEATS:
            raise Refusal(lang.reader().t("table_option.refusal.first_seat", seat=n, seats=seats))
    raise Refusal(lang.reader().t("table_option.refusal.first", seats=seats, given=excerpt(first, 20)))


def table_options(variant: str, dice: bool, seats: int, chosen: Mapping[str, object],
                  first: object = None, undo: bool = True, stand_in: str | None = None,
                  plan_ahead: bool = False, hints: bool = False) -> dict[str, Any]:
    """The engine options for a new table from what the host chose in `/ttr new` (`chosen`:
    option name → value, the options left out absent or None; `undo`: whether a mover may take
    back a move that revealed nothing; `stand_in`: the AI level for absent players;
    `plan_ahead`: players may plan two turns ahead, not only their next; `hints`: a player may
    ask what the normal AI would do). Refusal:
    an option that does not apply to this table, or a value that is not one of the option's."""
    options: dict[str, Any] = {"dice": True} if dice else {}
    if not undo:  # on unless turned off (the service opens every table with it)
        options[UNDO] = False
    for name, given in chosen.items():
        if given is None:
            continue
        option = BY_NAME.get(name)
        if option is None:
            raise Refusal(lang.reader().t("table_option.refusal.unknown", name=excerpt(name, 20)))
        if not applies(option, variant, dice=dice):
            raise Refusal(_why_not(option, variant, dice))
        options[option.key] = _value(option, given)
    seat = first_seat(first, seats)
    if seat is not None:
        options[FIRST_PLAYER] = seat
    if stand_in:
        options[STAND_IN] = stand_in
    if plan_ahead:
        options[PLANS_AHEAD] = 2
    if hints:
        options[HINTS] = True
    return options


def option_lines(options: Mapping[str, Any], names: list[str] | None = None) -> list[str]:
    """The options of a table in words, for the lobby post, in the table's language: the dice,
    each option chosen, and who plays first (`names`: the seats taken so far, to name the
    chosen one)."""
    words = table_language(options)
    out = []
    if options.get("dice"):
        out.append(words.t("table_option.dice"))
    if options.get(UNDO) is False:
        out.append(words.t("table_option.no_undo"))
    if options.get(PLANS_AHEAD) == 2:
        out.append(words.t("table_option.plans_two"))
    if options.get(HINTS):
        out.append(words.t("table_option.hints"))
    for key, value in options.items():
        option = BY_KEY.get(key)
        if option is not None:
            out.append(words.t("table_option.chosen", title=words.t(f"table_option.title.{option.key}"),
                               value=option.said(value, words)))
    seat = options.get(FIRST_PLAYER)
    if isinstance(seat, int) and not isinstance(seat, bool):
        if names is not None and 0 <= seat < len(names):
            out.append(words.t("table_option.first_seat_named", seat=seat + 1, who=names[seat]))
        else:
            out.append(words.t("table_option.first_seat", seat=seat + 1))
    else:
        out.append(words.t("table_option.first_random"))
    if isinstance(options.get(STAND_IN), str):
        level = options[STAND_IN]
        said = words.t(f"choice.{level}") if lang.english().has(f"choice.{level}") else level
        out.append(words.t("table_option.stand_in", level=said))
    if isinstance(options.get(LANGUAGE_OPTION), str):
        out.append("🗣️ " + words.t(f"language.{words.code}"))
    return out


def choices() -> dict[str, list[app_commands.Choice[Any]]]:
    """The choices Discord shows for each option of `/ttr new` (the default marked)."""
    out: dict[str, list[app_commands.Choice[Any]]] = {}
    for option in OPTIONS:
        if isinstance(option.values[0][0], bool):
            continue  # a boolean: Discord shows True and False itself
        out[option.name] = [app_commands.Choice(name=f"{w} (default)" if v == option.default else w, value=v)
                            for v, w in option.values]
    out["first"] = [app_commands.Choice(name="drawn at random (default)", value=RANDOM),
                    app_commands.Choice(name="seat 1: you, the host", value="1"),
                    *(app_commands.Choice(name=f"seat {n} of the lobby's list", value=str(n))
                      for n in range(2, MOST_SEATS + 1))]
    return out


def descriptions() -> dict[str, str]:
    """Discord's description of each option of `/ttr new`."""
    return {"first": "who plays first: drawn at random, or a seat of the lobby's list",
            **{o.name: o.describe for o in OPTIONS}}
