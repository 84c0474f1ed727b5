"""Hostile values for every text option of `/ttr`, and a flood of them through the fake.

Used by tests/test_bot_hostile_input.py (which asserts) and bench/bench_hostile.py (which
prints figures)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bot_app.inputs import limit_of

from .server import FakeDiscord, Interaction, User
from .steps import LoopSteps

DISCORD_MAX = 6000  # the longest text Discord lets a user send in an option

# (command, text option, has autocomplete): every text option of /ttr.
TEXT_OPTIONS = [
    ("new", "variant", True), ("admin addai", "level", True), ("draw", "card", True), ("claim", "route", True),
    ("claim", "payment", True), ("station", "city", True), ("station", "payment", True),
    ("move", "action", True), ("rules", "topic", True), ("hand", "game", True), ("status", "game", True),
    ("join", "game", True), ("claim", "game", True), ("log", "game", True), ("admin kick", "game", True),
]
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


@dataclass
class Sent:
    option: str
    value: str
    autocomplete: bool
    interaction: Interaction


async def send(fake: FakeDiscord, user: User, sub: str, option: str, value: str, autocomplete: bool,
               channel: int) -> Interaction:
    """`/ttr sub option:value` (with the other options it requires), or its autocomplete."""
    if autocomplete:
        return await fake.autocomplete(user, sub, option, channel_id=channel, **{option: value})
    opts: dict[str, Any] = {option: value}
    if sub == "admin kick":
        opts["player"] = user
    if sub == "claim" and option != "route":
        opts["route"] = "Paris - Wien"
    if sub == "station" and option != "city":
        opts["city"] = "Paris"
    return await fake.slash(user, sub, channel_id=channel, **opts)


async def flood(fake: FakeDiscord, desk: Any, users: list[User], channels: list[int], n: int,
                rng: random.Random, steps: LoopSteps) -> list[Sent]:
    """Send `n` hostile values, one at a time, each answered and its work finished before the
    next; the caller holds `steps` open around it."""
    out = []
    for _ in range(n):
        sub, option, has_ac = rng.choice(TEXT_OPTIONS)
        value = hostile(rng, limit_of(option))
        autocomplete = has_ac and rng.random() < 0.5
        it = await send(fake, rng.choice(users), sub, option, value, autocomplete, rng.choice(channels))
        await fake.answered(it, timeout=10)
        await fake.wait_until(lambda: desk.busy == 0)
        out.append(Sent(option, value, autocomplete, it))
    return out


async def warm_up(fake: FakeDiscord, desk: Any, user: User, channel: int) -> None:
    """Every path once with an ordinary value (first imports, first map indexes)."""
    for sub, option, has_ac in TEXT_OPTIONS:
        for ac in (False, True) if has_ac else (False,):
            await fake.answered(await send(fake, user, sub, option, "1", ac, channel))
            await fake.wait_until(lambda: desk.busy == 0)
