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

# The verbs of the private panels' choices, named for what they do.
KEEP_PICK = "keeppick"  # the menu of tickets to keep: which ones
KEEP_CONFIRM = "keepok"  # its Confirm: keep those (the arg: which, as a mask)
GROUP_PICK = "grouppick"  # a panel's menu of one group of moves (routes, cities): which one
ACTION_PICK = "actionpick"  # a panel's menu of moves (payments, …): which one
RULE_MOVE = "rulemove"  # a turn panel's button of a rule's own move (the arg: its type)
# The short verbs that components posted before these names carry. Discord keeps a thread's old
# posts and their buttons, so a click on one is read as its verb's new name and still works.
FORMER: dict[str, str] = {"ksel": KEEP_PICK, "kdo": KEEP_CONFIRM, "gsel": GROUP_PICK, "asel": ACTION_PICK,
                          "xt": RULE_MOVE}


def template(verbs: tuple[str, ...]) -> str:
    """The DynamicItem template of one family of components: the ids with these verbs (and
    their former names, FORMER)."""
    read = verbs + tuple(old for old, new in FORMER.items() if new in verbs)
    return TEMPLATE.replace(r"(?P<verb>[a-z]{1,10})", "(?P<verb>" + "|".join(map(re.escape, read)) + ")")


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
    return from_match(m)


def from_match(m: re.Match[str]) -> Cid:
    """The id a template matched, its verb by its present name (a former one is read as it)."""
    seq = None if m["seq"] == ANY_SEQ else int(m["seq"])
    return Cid(int(m["game"]), seq, FORMER.get(m["verb"], m["verb"]), m["arg"] or "")
