"""What every rule module's words are made of: the context a line is written in, how one event
kind reads (`Said`), how one action kind is offered (`Doing`), and the `Words` base class.

A rule module's words live in a file of this package named after the rule's own file
(`engine/rules/train_cards.py` → `bot_app/presentation/words/train_cards.py`) and are registered for the
rule's class with `@presents(TrainCardDraw)`. Lines are written in the past tense, with the
subject passed in: "Ann drew a card" for the thread, "You drew a card" for the player. English
past tense is the same for every person, but German, French, Russian and Swedish conjugate, so
a line converted to the catalogues (bot_app/lang, docs/languages.md) has two entries, the
"they" one with "{who}" and the "you" one (`Ctx.say`); lines not converted yet are English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot_app.lang import YOU, Language, english
from engine.actions import Action
from engine.cards import COLOURS, LOCO, card_word, describe
from engine.events import HIDDEN, PRIVATE, PUBLIC, Event
from engine.maps import GameMap
from engine.ruleset import RuleSet
from engine.view import View

CARD_EMOJI = {
    "red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦", "pink": "🩷",
    "white": "⬜", "black": "⬛", "loco": "🌈", "controller": "🛂",
}


# --- small words ------------------------------------------------------------------------------


def plural(n: int, one: str, many: str | None = None) -> str:
    """"1 train", "2 trains", "0 trains", "-1 point" (`many` for irregular plurals: "die" / "dice")."""
    return f"{n} {one if abs(n) == 1 else (many or one + 's')}"


def joined(parts: Iterable[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    items = [p for p in parts if p]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def signed(n: int) -> str:
    """A score line's points with their sign: "+12", "−4", "0"."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


def their(who: str) -> str:
    """The possessive that goes with a subject: "your" for You, else "their"."""
    return "your" if who == YOU else "their"


def cards_text(payment: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
    """Train cards in words: "3 red and 1 locomotive" (a Controller card by name)."""
    items = dict(payment.items() if isinstance(payment, Mapping) else payment)
    if items.get("controller"):
        rest = {k: v for k, v in items.items() if k != "controller"}
        word = "a Controller card" if items["controller"] == 1 else f"{items['controller']} Controller cards"
        return word if not rest else f"{describe(rest)} and {word}"
    return describe(items)


def card_with_article(card: str | None) -> str:
    if card is None:
        return "a card"
    if card == "loco":
        return "a locomotive"
    if card == "controller":
        return "a Controller card"
    return f"a{'n' if card[:1] in 'aeiou' else ''} {card_word(card)} card"


# --- the context ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ctx:
    """What a line is written with: the rule set, and the view it is shown with (None for the
    rules text, which speaks of no game in particular)."""

    rules: RuleSet
    view: View | None = None
    lang: Language = field(default_factory=english)

    # --- words in the reader's language (bot_app/lang) -------------------------------------------

    def t(self, key: str, **values: Any) -> str:
        return self.lang.t(key, **values)

    def n(self, key: str, count: int, **values: Any) -> str:
        return self.lang.n(key, count, **values)

    def say(self, key: str, who: str, **values: Any) -> str:
        """A line with a subject: "You drew …" / "Ann drew …" (two entries per language)."""
        return self.lang.say(key, who, **values)

    def joined(self, parts: Iterable[str]) -> str:
        """"a, b and c" with the language's "and"."""
        return joined(parts, self.t("word.and"))

    def card(self, name: Any, n: int = 1) -> str:
        """A card's name for a count of `n` ("red", "locomotives"); a name no card has, quoted."""
        if isinstance(name, str) and (name in COLOURS or name == LOCO):
            return self.n(f"card.{name}", n)
        return card_word(name, n)

    def card_a(self, name: Any) -> str:
        """One card with its article: "a red card", "a locomotive" ("a card" when unknown)."""
        if name is None or isinstance(name, str) and (name in COLOURS or name in (LOCO, "controller")):
            return self.t(f"card.a.{name or 'card'}")
        return card_with_article(name)

    def cards(self, payment: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
        """Train cards in words: "3 red and 1 locomotive" (engine.cards.describe, translated)."""
        items = dict(payment.items() if isinstance(payment, Mapping) else payment)
        if self.lang.code == "en":
            return cards_text(items)
        order = [*COLOURS, LOCO]
        parts = [f"{self.lang.number(n)} {self.card(k, n)}" for k, n in
                 sorted(items.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0]))
                 if n and k != "controller"]
        if items.get("controller"):
            parts.append(self.n("card.controller", items["controller"]))
        return self.joined(parts) if parts else self.t("cards.none")

    @property
    def gmap(self) -> GameMap:
        return self.rules.game_map

    @property
    def dice(self) -> bool:
        return bool(self.rules.options.get("dice"))

    @property
    def v(self) -> View:
        """The view (words that need one are only ever asked with one)."""
        assert self.view is not None, "these words need a game"
        return self.view

    def name(self, seat: Any) -> str:
        if self.view is None or not isinstance(seat, int):
            return "someone"
        return self.view.name(seat)

    def city(self, city_id: Any) -> str:
        gmap = self.gmap
        return gmap.city_label(city_id) if isinstance(city_id, str) and city_id in gmap.cities else "a city"

    def route(self, route_id: Any) -> str:
        """A route as players read it: its cities and what it takes — colour and length with
        cards, its length and type (single or double) with dice."""
        gmap = self.gmap
        if not isinstance(route_id, str) or route_id not in gmap.routes:
            return "a route"
        if not self.dice:
            return gmap.route_label(route_id) if self.lang.code == "en" else self._route_in_words(route_id)
        r = gmap.routes[route_id]
        kind = self.t("dice.kind.double" if r.parallel_group else "dice.kind.single")
        detail = f"{self.lang.number(self.rules.length(r))} {kind}"
        # English runs the words together ("2 single tunnel"); the others list them ("2 einfach, Tunnel").
        sep = " " if self.lang.code == "en" else ", "
        if r.tunnel:
            detail += sep + self.t("route.tunnel")
        if r.is_ferry:
            detail += sep + self.n("dice.route.ferry", r.ferry_locos)
        if r.parallel_group:
            detail += ", " + self.t("route.track", n=gmap.track_number(r.id))
        return f"{gmap.city_label(r.a)} – {gmap.city_label(r.b)} ({detail})"

    def _route_in_words(self, route_id: str) -> str:
        """`GameMap.route_label` in the reader's language: "Oslo – Stockholm (4 Gelb, Tunnel)"."""
        gmap = self.gmap
        r = gmap.routes[route_id]
        colour = self.t(f"route.colour.{r.color}") if self.lang.has(f"route.colour.{r.color}") else r.color
        detail = f"{self.lang.number(r.length)} {colour}"
        if r.tunnel:
            detail += " " + self.t("route.tunnel")
        if r.is_ferry:
            detail += " " + self.n("route.ferry", r.ferry_locos)
        if any(t.color == r.color for t in gmap.parallel_tracks(r.id)):
            detail += ", " + self.t("route.track", n=gmap.track_number(r.id))
        return f"{gmap.city_label(r.a)} – {gmap.city_label(r.b)} ({detail})"

    def ticket(self, ticket_id: Any) -> str:
        """A destination ticket ("Paris – Wien (8)"), or a tourist card (Alsace)."""
        gmap = self.gmap
        if isinstance(ticket_id, str) and ticket_id in gmap.tickets:
            t = gmap.tickets[ticket_id]
            return f"{gmap.city_label(t.a)} – {gmap.city_label(t.b)} ({t.points})"
        card = tourist_card(gmap, ticket_id)
        if card is None:
            return self.t("card.a.card")
        if card.get("kind") == "visitor_pass":  # the other cards are named as the board prints them
            return self.t("tourist.pass_label", points=int(card.get("points", 10)))
        if card.get("kind") == "lucky_devil":
            return self.t("tourist.devil")
        return tourist_label(gmap, card)


def tourist_card(gmap: GameMap, card_id: Any) -> Mapping[str, Any] | None:
    """The tourist card with this id, if the map has a tourist deck."""
    for card in gmap.extras.get("tourist_cards", ()):
        if card.get("id") == card_id:
            return card
    return None


def tourist_label(gmap: GameMap, card: Mapping[str, Any]) -> str:
    if card.get("kind") == "attraction":
        city = gmap.city_label(card["city"]) if card.get("city") in gmap.cities else "?"
        return f"{card['name']}, {city} ({card['points']})"
    if card.get("kind") == "visitor_pass":
        return f"Visitor Pass ({card.get('points', 10)})"
    return "Lucky Devil"


# --- how an event reads, how an action is offered ---------------------------------------------

# A line: (event, context, subject) -> the sentence, or None when there is nothing to say.
Line = Callable[[Event, Ctx, str], "str | None"]
# Two events that read better as one sentence: (first, second, context, subject) -> the
# sentence, or None to read them one by one.
Fold = Callable[[Event, Event, Ctx, str], "str | None"]
# The same for three or more events in a row: (events, context, subject).
Chain = Callable[[Sequence[Event], Ctx, str], "str | None"]


@dataclass(frozen=True)
class Said:
    """How one kind of event reads. `audience` is who ever sees it (public, private to one
    player, hidden from everyone); `line` is None for a public event that is bookkeeping
    nobody needs to read (a refilled slot), and for hidden ones. `deferred`: the module emits
    the kind through another module's rule and leaves its words to that module's words (the
    Dice Expansion's ticket draw offers tickets the way the board's tickets module does)."""

    audience: str
    line: Line | None = None
    deferred: bool = False


def public(line: Line) -> Said:
    return Said(PUBLIC, line)


def private(line: Line) -> Said:
    return Said(PRIVATE, line)


def quiet() -> Said:
    """A public event that the log leaves out."""
    return Said(PUBLIC, None)


def hidden() -> Said:
    return Said(HIDDEN, None)


def deferred(audience: str) -> Said:
    """Said by the words of another module of the rule set (see `Said.deferred`)."""
    return Said(audience, None, deferred=True)


# An action in words: (action, context) -> an imperative phrase ("claim Paris – Wien …").
Label = Callable[[Action, Ctx], str]


@dataclass(frozen=True)
class Doing:
    """How one kind of action is offered: `label` says one move in words (menus, Confirm,
    "You chose to …"); `button` and `emoji` make its button under the turn post. With `each`,
    every legal move of the kind gets a button of its own, named by `short` (for two or three
    moves such as "Call time" / "Play on")."""

    label: Label
    button: str
    emoji: str | None = None
    style: str = "secondary"
    each: bool = False
    short: Label | None = None
    key: str | None = None  # the button's name in the catalogues (bot_app/lang), where converted

    def button_in(self, c: Ctx) -> str:
        """The button's name in the reader's language (English where not converted yet)."""
        return c.t(self.key) if self.key else self.button


# --- the words of one rule module ----------------------------------------------------------------


class Words:
    """The words of one rule module: built with the module (its settings say how many cards,
    which points); everything is optional but what the module declares (its events and
    actions), which tests/bot_app/test_words.py checks.

    - `events`: kind → `Said`; `folds`: (kind, kind) → a sentence for the two together;
      `chains`: the same for three or more kinds in a row.
    - `actions`: action type → `Doing`, for the decisions this module handles.
    - `waiting`: decision kind → what the thread says to whoever must decide: a text with
      "{who}" in it, or a function of (context, who).
    - `status(c, seat)`: this module's public numbers for one player (the turn post).
    - `table(c)`: this module's public lines about the table (the face-up cards, the dice).
    - `hand(c)`: its part of a player's hand, for that player only (`c.view` is theirs);
      `at_hand(c)`: the part they pay with, shown above their private choices.
    - `turn_options(c)`: what a player may do on a turn with this module, for the rules;
      `turn_intro(c)`: what comes first, when the module changes how a turn starts (dice).
    - `topics(c)`: its paragraphs of `/ttr rules`, by topic.
    - `overview(c)`: a few words for the overview's list of what this game has.
    - `sheet(c, sheet)`: lines under a player's final score (revealed tickets, cards).
    """

    rule: ClassVar[type] = object
    events: ClassVar[Mapping[str, Said]] = {}
    folds: ClassVar[Mapping[tuple[str, str], Fold]] = {}
    chains: ClassVar[Mapping[tuple[str, ...], Chain]] = {}
    actions: ClassVar[Mapping[str, Doing]] = {}
    waiting: ClassVar[Mapping[str, str | Callable[[Ctx, str], str]]] = {}

    def __init__(self, module: Any) -> None:
        self.module = module

    def status(self, c: Ctx, seat: int) -> list[str]:
        return []

    def table(self, c: Ctx) -> list[str]:
        return []

    def hand(self, c: Ctx) -> list[str]:
        return []

    def at_hand(self, c: Ctx) -> list[str]:
        return []

    def turn_options(self, c: Ctx) -> list[str]:
        return []

    def turn_intro(self, c: Ctx) -> str | None:
        """What comes before the turn's options, when this module changes how a turn starts."""
        return None

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {}

    def overview(self, c: Ctx) -> list[str]:
        return []

    def sheet(self, c: Ctx, sheet: Mapping[str, Any]) -> list[str]:
        return []


_REGISTRY: dict[type, type[Words]] = {}


def presents(rule: type) -> Callable[[type[Words]], type[Words]]:
    """Class decorator: these words present `rule` (a rule module or payment rule class)."""

    def register(cls: type[Words]) -> type[Words]:
        if rule in _REGISTRY:
            raise ValueError(f"{rule.__name__} already has words ({_REGISTRY[rule].__name__})")
        cls.rule = rule
        _REGISTRY[rule] = cls
        return cls

    return register


def words_class(rule: type) -> type[Words]:
    """The words registered for exactly this rule class (a subclass needs its own)."""
    try:
        return _REGISTRY[rule]
    except KeyError:
        raise LookupError(f"{rule.__module__}.{rule.__name__} has no words in bot_app/presentation/words/") from None


def count_of(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0

