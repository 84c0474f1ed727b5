"""Bounds on what a user can type, checked before anything is parsed.

Every text option of `/ttr` declares its longest accepted length to Discord (`max_length`, via
the `app_commands.Range` aliases below), and `too_long` checks it again on arrival — for
commands and for autocomplete, whose focused value Discord does not bound — so that no input
costs more than a bounded amount of work whatever a client sends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from discord import app_commands

# Longest text accepted per option name. 100 is Discord's limit for an autocomplete value, so
# nothing chosen from a list is ever longer; names not listed get DEFAULT_CHARS.
DEFAULT_CHARS = 100
OPTION_CHARS: dict[str, int] = {
    "variant": 20,
    "level": 20,
    "lesson": 20,  # a lesson of /ttr rules lesson: "usa-dice"
    "card": 20,
    "topic": 40,
    "timezone": 40,  # the longest IANA name is 32 characters
    "quiet_hours": 20,
    "plan": 1500,  # a typed plan (bot_app/presentation/plan_syntax.py): five steps with long route names
}

# Option types, as Discord numbers them.
_SUBCOMMAND, _GROUP, _STRING = 1, 2, 3

ShortText = app_commands.Range[str, None, 20]
MediumText = app_commands.Range[str, None, 40]
Text = app_commands.Range[str, None, DEFAULT_CHARS]
PlanText = app_commands.Range[str, None, 1500]

_NUMBER = re.compile(r"[0-9]{1,9}")


def limit_of(name: str) -> int:
    """The longest text the option `name` accepts."""
    return OPTION_CHARS.get(name, DEFAULT_CHARS)


def too_long(options: object) -> tuple[str, int, int] | None:
    """The first text option (in sub-commands too) longer than its limit, as (name, length,
    limit); None when every option fits. Looks at each option once."""
    stack = list(options) if isinstance(options, list | tuple) else []
    seen = 0
    while stack and seen < 64:  # a command has a handful of options; never walk a flood
        seen += 1
        opt = stack.pop()
        if not isinstance(opt, Mapping):
            continue
        if opt.get("type") in (_SUBCOMMAND, _GROUP):
            stack.extend(opt.get("options") or ())
            continue
        value = opt.get("value")
        if isinstance(value, str):
            name = str(opt.get("name", ""))[:32]
            if len(value) > limit_of(name):
                return name, len(value), limit_of(name)
    return None


def is_number(text: str) -> bool:
    """ASCII digits only (str.isdigit also accepts "²", which int() refuses)."""
    return _NUMBER.fullmatch(text) is not None


def excerpt(text: object, n: int = 40) -> str:
    """What someone typed, quoted short enough to repeat back in a refusal."""
    s = " ".join(str(text).split())
    return f"“{s}”" if len(s) <= n else f"“{s[:n - 1]}…”"
