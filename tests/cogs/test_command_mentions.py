"""Commands by the names each Discord shows: a player's Discord lists /ttr's commands, groups and
options under their names in the player's language, so (1) no two of one level share a name in
any language (Discord refuses such a tree), and (2) every `/ttr …` a text of a language names —
in its catalogue or a lesson file of that language — is spelt with that language's names
("`/ttr regeln thema:`", not "`/ttr rules topic:`")."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot_app.lang import catalogue_path, codes

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [c for c in codes() if c != "en"]
MENTION = re.compile(r"/ttr ([^\W\d][\w-]*)(?: ([^\W\d][\w-]*))?")


@cache
def _entries(code: str) -> dict[str, str]:
    with catalogue_path(code).open("rb") as f:
        catalog = read_po(f, locale=code.replace("-", "_"))
    out: dict[str, str] = {}
    for message in catalog:
        if message.id and isinstance(message.id, str):
            out[message.id] = message.string if isinstance(message.string, str) else " ".join(message.string)
    return out


def _names(code: str) -> dict[tuple[str, ...], str]:
    """The tree's names in a language: (path in English) -> the name shown, English where the
    catalogue has none. A path of two is a group's command or a command's option."""
    english, own = _entries("en"), _entries(code)
    names = {}
    for key, name in english.items():
        if key.startswith("command.ttr.") and key.endswith(".name"):
            path = tuple(key[len("command.ttr."):-len(".name")].split("."))
            names[path] = own.get(key) or name
    return names


@pytest.mark.parametrize("code", codes())
def test_no_two_commands_or_options_of_one_level_share_a_name(code):
    levels: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for path, name in _names(code).items():
        levels[path[:-1]].append(name)
    for parent, names in levels.items():
        twice = sorted({n for n in names if names.count(n) > 1})
        assert not twice, f"{code}: under /ttr {' '.join(parent)} two share the name {twice}"


def _texts(code: str) -> list[tuple[str, str]]:
    """Every text of a language: its catalogue's entries and its lesson files' lines."""
    found = [(f"{code} catalogue {key}", text) for key, text in _entries(code).items()
             if not key.startswith("command.")]
    for lesson in sorted((ROOT / "app" / "tutorials").glob(f"*.{code}.toml")):
        found += [(f"{lesson.name}:{n}", line) for n, line in enumerate(lesson.read_text().splitlines(), 1)
                  if not line.startswith("#")]
    return found


@pytest.mark.parametrize("code", OTHERS)
def test_every_command_a_text_names_is_spelt_as_that_languages_discord_shows_it(code):
    names = _names(code)
    top = {path[0]: name for path, name in names.items() if len(path) == 1}
    shown = set(top.values())
    groups = {path[0] for path in names if len(path) == 2}
    wrong = []
    for where, text in _texts(code):
        for m in MENTION.finditer(text):
            first, second = m.group(1), m.group(2)
            if first not in shown:
                wrong.append(f"{where}: {m.group(0)!r} (/ttr has no {first!r} in {code})")
                continue
            english = next(p for p, n in top.items() if n == first)
            subs = {path[1]: name for path, name in names.items() if len(path) == 2 and path[0] == english}
            if english in groups and second is not None and second in subs and subs[second] != second:
                wrong.append(f"{where}: {m.group(0)!r} ({second!r} is {subs[second]!r} in {code})")
    assert not wrong, "\n".join(wrong[:20])
