"""English words left in a text meant for another language (issue 28: "a whole demo game in
each language produces no English word outside city names and player names").

The English words are the words of the English catalogue's msgstr (letters only, at least three
letters, case-folded), minus the words the target language's catalogue also uses ("Tunnel" and
"Bonus" in German, "Express" in French), minus the map's city and region names in every spelling
(printed name, id, aliases, maps/<id>/aliases.json; not the map's title, which is translated)
and the names passed in (players, tourist attractions). `english_leftovers(text, "de",
"germany", names)` returns each word left with the number and text of its line; an empty list
is the check passing.

Both word sets are built once per language and per map (a few ms); a check is one regex pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from bot_app.lang import ENGLISH, _compiled

# A word: a run of letters (no digits, no underscore), as any script writes it.
_WORD_RE = re.compile(r"[^\W\d_]+")
# A placeholder of a catalogue entry ("{who}", "{n}"): not words anybody reads.
_FIELD_RE = re.compile(r"\{[^{}]*\}")
# Command syntax, the same in every language: a `code span` ("`cards red >=3`", "`/ttr hand`")
# and a slash command with its subcommand ("/ttr new", "/ttr admin pause").
_SYNTAX_RE = re.compile(r"`[^`\n]*`|/ttr(?: [a-z_]+){0,2}")
MIN_LETTERS = 3


@dataclass(frozen=True)
class Leftover:
    """An English word found in a text: the 1-based line number, the word as written, the line."""

    line_no: int
    word: str
    line: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.word!r} in {self.line.strip()!r}"


def words(text: str) -> set[str]:
    """The case-folded words of at least MIN_LETTERS letters in `text`."""
    return {w.casefold() for w in _WORD_RE.findall(text) if len(w) >= MIN_LETTERS}


def _messages(code: str) -> Iterable[str]:
    """Every msgstr of a language's own catalogue (plural forms included, header left out)."""
    catalog = _compiled(code)._catalog  # type: ignore[attr-defined]
    return (prose(_FIELD_RE.sub(" ", text)) for key, text in catalog.items() if key not in ("", ("", 0)))


def prose(text: str) -> str:
    """`text` without its command syntax (code spans, slash commands), which is no language's words."""
    return _SYNTAX_RE.sub(" ", text)


@functools.cache
def catalogue_words(code: str) -> frozenset[str]:
    """The words a language's catalogue uses."""
    found: set[str] = set()
    for message in _messages(code):
        found |= words(message)
    return frozenset(found)


@functools.cache
def english_only(code: str) -> frozenset[str]:
    """The English catalogue's words that `code`'s catalogue does not use."""
    return catalogue_words(ENGLISH) - catalogue_words(code)


@functools.cache
def map_words(map_id: str) -> frozenset[str]:
    """Every word of a shipped map's city and region names, in every spelling."""
    from engine.maps import load_map
    from engine.maps.spellings import spellings

    game_map = load_map(map_id)
    others = spellings(game_map)
    # Not the map's title ("Ticket to Ride Germany"): a title is translated (ruleset.<id>.title).
    found: set[str] = set()
    for city in game_map.cities.values():
        for name in (city.id.replace("_", " "), city.name, *city.aliases, *others.get(city.id, ())):
            found |= words(name)
    return frozenset(found)


def english_leftovers(text: str, code: str, map_id: str | None = None,
                      names: Iterable[str] = ()) -> list[Leftover]:
    """The English words in `text` (for a reader of `code`): words of the English catalogue
    that `code`'s catalogue does not use, and that are not part of a city or region name of
    `map_id` nor of `names` (players, anything else printed as it is)."""
    english = english_only(code)
    allowed = set(map_words(map_id)) if map_id else set()
    for name in names:
        allowed |= words(name)
    out: list[Leftover] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for word in _WORD_RE.findall(prose(line)):
            folded = word.casefold()
            if len(word) >= MIN_LETTERS and folded in english and folded not in allowed:
                out.append(Leftover(number, word, line))
    return out
