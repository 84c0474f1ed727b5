"""The shape of a picture part, and the registry that finds one for each rule module.

A rule module that adds state, pieces or score lines shows them in the pictures through its
picture part: badges in each player's legend cell (cards, tickets, tokens, stations), items in
the legend's status box (the current roll), symbols in the key, marks on the map (stations,
passengers), blocks of the hand picture (the cards, the tickets, the tourist cards), marks on
the hand's small map, and whether its score lines are bonuses. Every method does nothing by
default; a module with nothing to show registers a part that says so.

Parts are registered under the rule module's `name` (`RuleModule.name`). A module that shares
its name with the module it extends (Alsace's tourist cards are the "tickets" module) may
register a part for its class as well; the most specific registration wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import IllegalAction
from engine.view import View
from render import palette as P

if TYPE_CHECKING:
    from PIL import Image

    from engine.maps import GameMap
    from engine.rules.module import RuleModule
    from render.base_cache import BoardBase
    from render.text import Font, Writer


@dataclass(frozen=True)
class Badge:
    """A small icon with a count in a player's legend cell and hand header ("6 cards").

    `icon` is a kind of `render.icons`; `what` says it in words (tests, alt text); `colour`
    fills icons drawn in a colour (a station in the player's colour, a passenger's colour)."""

    icon: str
    count: int
    what: str
    colour: P.RGB | None = None


@dataclass(frozen=True)
class KeyEntry:
    """One symbol of the board's key: `kind` is "tunnel", "ferry", "country", "closed" or "glow"."""

    kind: str
    text: str


@dataclass(frozen=True)
class DiceRoll:
    """Dice shown in the legend's status box: whose, and their faces."""

    seat: int
    faces: tuple[str, ...]
    label: str = "Roll"


@dataclass
class HandContext:
    """What a hand block draws with: the picture, its writer and fonts, and the view."""

    img: Image.Image
    writer: Writer
    view: View
    seat: int
    game_map: GameMap
    text_px: int  # the smallest text size (legible at Discord's preview)
    head: Font
    body: Font
    bold: Font
    big: Font
    shared: dict[str, Any] = field(default_factory=dict)  # between blocks and the small map


class HandBlock:
    """A block of the hand picture: a heading, a note at the right, and a body."""

    title: str = ""
    note: str = ""

    def height(self, ctx: HandContext, width: int) -> int:
        """The body's height in pixels (without the heading)."""
        return 0

    def draw(self, ctx: HandContext, x: int, y: int, width: int) -> None:
        """Draw the body with its top-left at (x, y)."""


class PicturePart:
    """How one rule module shows itself in the pictures. Every method does nothing by default."""

    name: ClassVar[str] = ""
    bonus: ClassVar[bool] = False  # its score lines are bonuses (listed with who won them)

    def key(self, game_map: GameMap) -> list[KeyEntry]:
        """Symbols this module puts on the map that the key should explain."""
        return []

    def status(self, view: View) -> list[DiceRoll]:
        """Items for the legend's status box (e.g. the dice just rolled)."""
        return []

    def badges(self, view: View, seat: int) -> list[Badge]:
        """What this module adds to a player's legend cell: counts, never hidden contents."""
        return []

    def overlay(self, img: Image.Image, base: BoardBase, view: View) -> None:
        """Marks on the public map (stations, passengers waiting)."""

    def hand_blocks(self, ctx: HandContext) -> list[HandBlock]:
        """Blocks of the player's hand picture."""
        return []

    def mini_overlay(self, ctx: HandContext, img: Image.Image, base: BoardBase) -> list[tuple[str, P.RGB]]:
        """Marks on the hand's small map; returns (city, colour) pairs to ring and name."""
        return []


_BY_NAME: dict[str, PicturePart] = {}
_BY_CLASS: dict[type, PicturePart] = {}


def register(name: str, module_class: type | None = None) -> Callable[[type[PicturePart]], type[PicturePart]]:
    """Class decorator: the picture part of the rule module called `name` (or, more
    specifically, of `module_class` and its subclasses)."""

    def wrap(cls: type[PicturePart]) -> type[PicturePart]:
        part = cls()
        if module_class is not None:
            _BY_CLASS[module_class] = part
        else:
            if name in _BY_NAME:
                raise ValueError(f"two picture parts for the rule module {name!r}")
            _BY_NAME[name] = part
        return cls

    return wrap


def part_for(module: RuleModule) -> PicturePart | None:
    """The picture part of a rule module (None: nobody registered one)."""
    for cls in type(module).__mro__:
        part = _BY_CLASS.get(cls)
        if part is not None:
            return part
    return _BY_NAME.get(module.name)


def parts_for(modules: Iterable[RuleModule]) -> tuple[PicturePart, ...]:
    """The picture parts of a rule set's modules, in rule-set order, each once."""
    out: list[PicturePart] = []
    for module in modules:
        part = part_for(module)
        if part is not None and part not in out:
            out.append(part)
    return tuple(out)


def modules_of(view: View) -> tuple[RuleModule, ...]:
    """The rule modules of the view's game (`engine.rulesets.build_ruleset`), or () when the
    view is of no rule set that can be built (a made-up map in a test)."""
    return _modules(view.variant, len(view.players), json.dumps(dict(view.options), sort_keys=True, default=str))


@lru_cache(maxsize=128)
def _modules(variant: str, players: int, options_json: str) -> tuple[RuleModule, ...]:
    from engine.rulesets import build_ruleset

    options = json.loads(options_json)
    # A sample view may seat more players than the rules allow; the modules are the same.
    for n in (players, 2, 3, 4, 5):
        try:
            return build_ruleset(variant, n, options).modules
        except IllegalAction:
            continue
    return ()


# What a view of no known rule set is drawn with: the base game's parts, plus those of the
# module data the view carries.
FALLBACK = ("train_cards", "claim_route", "tunnels", "stations", "tickets", "end_trigger")


def picture_parts(view: View) -> tuple[PicturePart, ...]:
    """The picture parts of the view's game, in rule-set order."""
    modules = modules_of(view)
    if modules:
        return parts_for(modules)
    from engine.rules.dice import DiceView
    from engine.rules.passengers import PassengersView
    from engine.rules.tourist_cards import TouristCards, TouristView

    names = list(FALLBACK)
    if view.part(DiceView) is not None:
        names = ["dice_roll", *[n for n in names if n != "train_cards"]]
    if view.part(PassengersView) is not None:
        names.append("passengers")
    out = [_BY_NAME[n] for n in names if n in _BY_NAME]
    if view.part(TouristView) is not None:
        tourist = _BY_CLASS.get(TouristCards)
        out = [tourist if p is _BY_NAME.get("tickets") and tourist else p for p in out]
    return tuple(out)


def registered_names() -> set[str]:
    """Every rule module name with a picture part (tests check that none is missing)."""
    return set(_BY_NAME)
