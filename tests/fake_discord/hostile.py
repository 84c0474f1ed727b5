"""Hostile values for every text option of `/ttr`, and a flood of them through the fake.

Used by tests/bot_app/test_bot_hostile_input.py (which asserts) and bench/bench_hostile.py (which
prints figures)."""

from __future__ import annotations

import logging
import random
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot_app.presentation.inputs import limit_of

from .server import FakeDiscord, Interaction, User
from .steps import LoopSteps

DISCORD_MAX = 6000  # the longest text Discord lets a user send in an option

# What goes in a command's other required options while one of its text options is flooded.
REQUIRED_VALUES = {"route": "Paris - Wien", "city": "Paris"}
PIECES = ["1", "2 ", "red ", "blue ", "loco", "3 locomotives ", "track 2 ", "tunnel ", "ferry ", "to ", " - ", "–",
          "—", "(", ")", ", ", "Paris", " Wien", "München", "Sault St. Marie", "#1", "#", "9" * 12, "é", "ü",
          "\u0301", "🚂", "\u200b", "\n", "\t", "loco1.red3", ".", "x" * 7, "'; DROP TABLE games;--"]


def hostile(rng: random.Random, limit: int) -> str:
    """A value within the option's limit (half the time) or up to Discord's maximum: the
    name matcher's worst cases (numbers, colours, separators), a mix of everything, or noise."""
    length = rng.randint(1, limit) if rng.random() < 0.5 else rng.randint(limit + 1, DISCORD_MAX)
    style = rng.random()
    if style < 0.8:
        pieces = PIECES[:16] if style < 0.5 else PIECES
        out: list[str] = []
        size = 0
        while size < length:
            piece = rng.choice(pieces)
            out.append(piece)
            size += len(piece)
        return "".join(out)[:length]
    return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(length))


# Every character Unicode counts as a digit or a number (categories Nd, No and Nl, about 1,800):
# str.isdigit and str.isnumeric accept many that int() refuses ("²", "½", "Ⅻ"), and int()
# accepts every Nd digit ("٣" is 3).
NUMBER_CHARACTERS = tuple(chr(i) for i in range(sys.maxunicode + 1)
                          if unicodedata.category(chr(i)) in ("Nd", "No", "Nl"))
# The ones int() refuses although str.isdigit accepts them: each leads a value of its own.
DIGITS_INT_REFUSES = tuple(c for c in NUMBER_CHARACTERS if c.isdigit() and not c.isdecimal())
# Where a number stands in what players type: (text before the words, each word's shape).
NUMBER_SHAPES = [("Paris - Wien ", "{}"), ("", "{}"), ("", "#{}"), ("Paris - Wien track ", "{} loco"), ("", "red{}"),
                 ("", "{}:00-7"), ("#", "{}")]

# A number as the whole of what was typed.
WHOLE_SHAPES = ["{}", "#{}", "{}:00", "1{}"]


class ErrorRecords(logging.Handler):
    """The records logged at ERROR or above while it is installed on a logger."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass(frozen=True)
class TextOption:
    """A text option of a /ttr command, as it was registered with Discord."""

    command: str  # the sub-command: "claim", "admin kick"
    name: str
    autocomplete: bool
    required: bool


def text_options(commands: Sequence[Mapping[str, Any]]) -> list[TextOption]:
    """Every text option of /ttr, read from the commands registered with Discord (so that a new
    option is in)."""
    ttr = next(c for c in commands if c["name"] == "ttr")
    out: list[TextOption] = []

    def walk(prefix: str, options: Iterable[Mapping[str, Any]]) -> None:
        for o in options:
            if o["type"] in (1, 2):  # a sub-command, a group
                walk(f"{prefix} {o['name']}".strip(), o.get("options") or ())
            elif o["type"] == 3:  # a string
                out.append(TextOption(prefix, o["name"], bool(o.get("autocomplete")), bool(o.get("required"))))

    walk("", ttr["options"])
    return out


def number_values(limit: int, start: int = 0, whole: int = 6) -> list[str]:
    """Values of at most `limit` characters that between them hold every number character,
    each as a word of its own in one of NUMBER_SHAPES (the shape changes from value to value),
    each value beginning with one of DIGITS_INT_REFUSES, taken in turn from `start`; then
    `whole` of those alone, as the whole value, bare and in WHOLE_SHAPES (what a parser of
    the whole text reads: a game number, a seat, an hour)."""
    turn = start % len(DIGITS_INT_REFUSES)
    leaders = DIGITS_INT_REFUSES[turn:] + DIGITS_INT_REFUSES[:turn]
    rest = [c for c in NUMBER_CHARACTERS if c not in set(DIGITS_INT_REFUSES)]
    rest += list(leaders)  # every one of them in every option, even where fewer values lead
    # The shapes that hold two words within the limit (a leader and at least one more).
    shapes = [(p, w) for p, w in NUMBER_SHAPES if len(p) + 2 * len(w.format("x")) + 1 <= limit]
    values: list[str] = []
    i = 0
    while i < len(rest):
        prefix, shape = shapes[len(values) % len(shapes)]
        words = [shape.format(leaders[len(values) % len(leaders)])]
        while i < len(rest):
            word = shape.format(rest[i])
            if len(prefix) + len(" ".join([*words, word])) > limit:
                break
            words.append(word)
            i += 1
        values.append(prefix + " ".join(words))
    values += [shape.format(c) for c in leaders[-whole:] for shape in WHOLE_SHAPES]
    return values


@dataclass
class Sent:
    command: str
    option: str
    value: str
    autocomplete: bool
    interaction: Interaction


def sub_command(commands: Sequence[Mapping[str, Any]], sub: str) -> Mapping[str, Any]:
    """The registered `/ttr <sub>` ("claim", "admin kick")."""
    node: Mapping[str, Any] = next(c for c in commands if c["name"] == "ttr")
    for name in sub.split():
        node = next(o for o in node.get("options") or () if o["name"] == name)
    return node


async def send(fake: FakeDiscord, user: User, sub: str, option: str, value: str, autocomplete: bool,
               channel: int) -> Interaction:
    """`/ttr sub option:value` (with the other options it requires), or its autocomplete."""
    if autocomplete:
        return await fake.autocomplete(user, sub, option, channel_id=channel, **{option: value})
    opts: dict[str, Any] = {option: value}
    for other in sub_command(fake.commands, sub).get("options") or ():
        if other["name"] != option and other.get("required"):
            opts[other["name"]] = user if other["type"] == 6 else REQUIRED_VALUES.get(other["name"], "1")
    return await fake.slash(user, sub, channel_id=channel, **opts)


async def flood(fake: FakeDiscord, desk: Any, users: list[User], channels: list[int], n: int,
                rng: random.Random, steps: LoopSteps) -> list[Sent]:
    """Send `n` hostile values, one at a time, each answered and its work finished before the
    next; the caller holds `steps` open around it."""
    out = []
    options = text_options(fake.commands)
    for _ in range(n):
        o = rng.choice(options)
        value = hostile(rng, limit_of(o.name))
        autocomplete = o.autocomplete and rng.random() < 0.5
        it = await send(fake, rng.choice(users), o.command, o.name, value, autocomplete, rng.choice(channels))
        await fake.answered(it, timeout=10)
        await fake.wait_until(lambda: desk.busy == 0)
        out.append(Sent(o.command, o.name, value, autocomplete, it))
    return out


async def warm_up(fake: FakeDiscord, desk: Any, user: User, channel: int) -> None:
    """Every path once with an ordinary value (first imports, first map indexes)."""
    for o in text_options(fake.commands):
        for ac in (False, True) if o.autocomplete else (False,):
            await fake.answered(await send(fake, user, o.command, o.name, "1", ac, channel))
            await fake.wait_until(lambda: desk.busy == 0)
