"""The words drawn inside pictures, in the picture's language (issue 28, docs/languages.md).

render/ has no catalogue of its own and does not import bot_app: the caller resolves the
`picture.` entries of the picture's language into a `PictureWords` (bot_app/lang/pictures.py)
and passes it with the render job; the job draws inside `use(words)`. A drawing function asks
`tr("picture.key.tunnel", "tunnel")`: the English words are written where they are drawn, so
an English picture (no words passed) is drawn exactly as before, and a key a language lacks
reads in English. A plural entry arrives as its forms and the language's rule as a table of
which form each count takes (`tr_n`).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

PLURAL_TABLE = 200  # counts 0..199 have their form in `PictureWords.forms`; more go by n % 100


@dataclass(frozen=True)
class PictureWords:
    """One language's picture words: `code` (part of every cache key where words are drawn
    into a base), the entries by key, the plural entries' forms by key (`plurals`), and which
    form each count takes (`forms[n]`, the language's plural rule as a table)."""

    code: str = "en"
    entries: Mapping[str, str] = field(default_factory=dict)
    plurals: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    forms: bytes = b""


def form_index(n: int) -> int:
    """Where a count's form is in `PictureWords.forms`: plural rules look at n % 100 (and
    n % 10) past the first hundred."""
    n = abs(n)
    return n if n < PLURAL_TABLE else 100 + n % 100


ENGLISH = PictureWords()
_WORDS: contextvars.ContextVar[PictureWords] = contextvars.ContextVar("picture_words", default=ENGLISH)


@contextlib.contextmanager
def use(words: PictureWords | None) -> Iterator[PictureWords]:
    """Draw in `words` within the block (English for None)."""
    token = _WORDS.set(words or ENGLISH)
    try:
        yield words or ENGLISH
    finally:
        _WORDS.reset(token)


def current() -> PictureWords:
    """The words pictures are drawn in now."""
    return _WORDS.get()


def tr(key: str, english: str, **values: Any) -> str:
    """The entry `key` of the current language with `values` filled, else `english` filled
    (a translator's slip, a placeholder the entry does not know, reads in English too)."""
    text = _WORDS.get().entries.get(key)
    if text:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            pass
    return english.format(**values) if values else english


def tr_n(key: str, n: int, one: str, other: str, **values: Any) -> str:
    """A count's plural form of `key` ("{n}" is the count); `one`/`other` the English forms."""
    words = _WORDS.get()
    forms = words.plurals.get(key)
    if forms and words.forms:
        i = words.forms[form_index(n)]
        if i < len(forms) and forms[i]:
            try:
                return forms[i].format(n=n, **values)
            except (KeyError, IndexError, ValueError):
                pass
    return (one if abs(n) == 1 else other).format(n=n, **values)


def slug(text: str) -> str:
    """A key part from English words ("Longest Path" -> "longest_path"): a bonus's line id and a
    tie-break's label are their printed English names."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
