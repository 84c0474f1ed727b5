"""Custom ids for buttons and select menus.

    ttr:v1:<game>:<seq>:<verb>[:<arg>]

`seq` is the game's seq when the component was made (the service's `expected_seq`), or `x`
for components that do not move the game (My hand, the lobby, choosing opening tickets, whose
moves carry their own check). Everything a click needs is in the id, so a button posted before
a restart still works, and one from an older point of the game is refused ("that already
happened"). Ids are at most 100 characters (Discord's limit); `make` checks it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ttr:v1"
ANY_SEQ = "x"
MAX_LEN = 100
ARG_CHARS = r"A-Za-z0-9_.\-"
# The DynamicItem template (also used to parse).
TEMPLATE = (
    r"ttr:v1:(?P<game>[0-9]{1,15}):(?P<seq>[0-9]{1,9}|x):(?P<verb>[a-z]{1,10})"
    rf"(?::(?P<arg>[{ARG_CHARS}]{{0,60}}))?"
)
_RE = re.compile(TEMPLATE + r"\Z")


def template(verbs: tuple[str, ...]) -> str:
    """The DynamicItem template of one family of components: the ids with these verbs."""
    return TEMPLATE.replace(r"(?P<verb>[a-z]{1,10})", "(?P<verb>" + "|".join(map(re.escape, verbs)) + ")")


@dataclass(frozen=True, slots=True)
class Cid:
    game: int
    seq: int | None  # None: not bound to a point of the game
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return make(self.game, self.seq, self.verb, self.arg)


def make(game: int, seq: int | None, verb: str, arg: str = "") -> str:
    text = f"{PREFIX}:{game}:{ANY_SEQ if seq is None else seq}:{verb}" + (f":{arg}" if arg else "")
    if len(text) > MAX_LEN or not _RE.match(text):
        raise ValueError(f"bad custom id {text!r}")
    return text


def parse(text: str) -> Cid | None:
    m = _RE.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    seq = None if m["seq"] == ANY_SEQ else int(m["seq"])
    return Cid(int(m["game"]), seq, m["verb"], m["arg"] or "")


def from_match(m: re.Match[str]) -> Cid:
    seq = None if m["seq"] == ANY_SEQ else int(m["seq"])
    return Cid(int(m["game"]), seq, m["verb"], m["arg"] or "")
