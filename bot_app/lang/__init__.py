"""Languages: who reads which language, and the words of each (issue 28; docs/languages.md).

A language is one gettext catalogue, `locales/<code>/LC_MESSAGES/ttr.po`, read with Babel and
compiled in memory once (no `.mo` file in git); the languages are the folders found there, so a
sixth language is one more catalogue. Messages are keyed by stable ids ("cards.drew_deck"), and
a line with a subject has a second entry for "you" ("cards.drew_deck.you"): German, French,
Russian and Swedish conjugate per person, English does not. A key missing from a catalogue
falls back to English; a catalogue's plural formula (Russian has three forms) comes from its
header, which Babel writes from the CLDR rules.

Who reads which language:
- a game's public posts, in the table's language (`/ttr new language:`, kept with the table's
  options, so a restart keeps it: `table_language`);
- a private answer, in the reader's (their Discord locale or their `/ttr settings language:`),
  set for the interaction being answered with `reading` and read with `reader`.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import io
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).resolve().parents[2] / "locales"
DOMAIN = "ttr"
ENGLISH = "en"
LANGUAGE_OPTION = "language"  # the table option that holds a game's language (engine/rulesets COMMON_OPTIONS)
YOU_FORM = ".you"  # the suffix of a line's "you" entry
YOU = "You"  # the subject the words pass for the reader (bot_app.presentation.words.base.YOU)


def catalogue_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def codes() -> tuple[str, ...]:
    """Every language with a catalogue, English first."""
    found = sorted(p.name for p in LOCALES.iterdir() if catalogue_path(p.name).is_file())
    return (ENGLISH, *[c for c in found if c != ENGLISH])


@cache
def _compiled(code: str) -> gettext.GNUTranslations:
    """A catalogue compiled in memory (Babel writes the .mo bytes, gettext reads them)."""
    # Babel is imported when a language is first needed, not by bot.py's start.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalogue_path(code).open("rb") as f:
        catalog = read_po(f, locale=code.replace("-", "_"), domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class _Missing(gettext.NullTranslations):
    """Below English: a key no catalogue has reads as the key itself (tests/bot_app/test_languages.py
    checks there is none)."""


@lru_cache(maxsize=4096)
def _number(code: str, value: int | float) -> str:
    """A number as the language writes it ("1,234", "1.234", "1 234", "−4"); remembered, since
    Babel's formatting costs ~0.15 ms a number and a turn post writes dozens of the same few."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=code.replace("-", "_"))


def _fields(text: str) -> dict[str, Any]:
    return {name: None for _, name, _, _ in string.Formatter().parse(text) if name}


@dataclass(frozen=True, eq=False)
class Language:
    """One language's words: `t` for a message, `n` for a count's plural form, `say` for a line
    with a subject ("You drew…" / "Ann drew…"), `number` for a number as the language writes it."""

    code: str
    _tr: gettext.GNUTranslations | gettext.NullTranslations

    def has(self, key: str) -> bool:
        """Whether this language's own catalogue has `key` (not through English)."""
        own = _compiled(self.code)._catalog  # type: ignore[attr-defined]
        return key in own or (key, 0) in own

    def raw(self, key: str) -> str:
        """The message `key` as its catalogue writes it (placeholders unfilled)."""
        return self._tr.gettext(key)

    def fields(self, key: str) -> set[str]:
        """The placeholders the message `key` needs."""
        return placeholders(self.raw(key))

    def t(self, key: str, **values: Any) -> str:
        """The message `key` with its placeholders filled (numbers written the language's way)."""
        return self._fill(self._tr.gettext(key), values, lambda: english().t(key, **values))

    def n(self, key: str, count: int, **values: Any) -> str:
        """The plural form of `key` for `count` (its "{n}" is the count)."""
        # The form goes by the size: "-1 point" as "1 point".
        return self._fill(self._tr.ngettext(key, key, abs(count)), {"n": count, **values},
                          lambda: english().n(key, count, **values))

    def say(self, key: str, who: str, **values: Any) -> str:
        """A line with a subject: its "you" entry when `who` is the reader, else its "they"
        entry with "{who}" the player's name."""
        if who == YOU:
            return self.t(key + YOU_FORM, **values)
        return self.t(key, who=who, **values)

    def number(self, value: int | float) -> str:
        return _number(self.code, value)

    def _fill(self, text: str, values: Mapping[str, Any], instead: Callable[[], str]) -> str:
        shown = {k: self.number(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                 for k, v in values.items()}
        try:
            return text.format(**shown)
        except (KeyError, IndexError, ValueError):
            if self.code == ENGLISH:
                raise
            return instead()  # a translator's slip: the English words rather than none


@cache
def language(code: str) -> Language:
    """The language of a catalogue code; English (with the key itself as the last resort) for a
    code without one."""
    english_tr = _compiled(ENGLISH)
    if code == ENGLISH or code not in codes():
        english_tr.add_fallback(_Missing())
        return Language(ENGLISH, english_tr)
    tr = _compiled(code)
    tr.add_fallback(english_tr)
    return Language(code, tr)


def english() -> Language:
    return language(ENGLISH)


def code_for(locale: Any) -> str:
    """The catalogue for a Discord locale ("de", "sv-SE", "en-GB", a `discord.Locale`): the
    locale itself, else its language, else English."""
    value = str(getattr(locale, "value", locale) or "")
    if value in codes():
        return value
    base = value.split("-")[0].lower()
    return base if base in codes() else ENGLISH


def for_locale(locale: Any) -> Language:
    return language(code_for(locale))


def table_language(options: Mapping[str, Any] | None) -> Language:
    """The language of a table's public posts (English for a table that never chose one)."""
    return for_locale((options or {}).get(LANGUAGE_OPTION) or ENGLISH)


_READER: contextvars.ContextVar[Language | None] = contextvars.ContextVar("ttr_reader", default=None)


def reader(fallback: Language | None = None) -> Language:
    """The language of whoever is being answered now, else `fallback` (a game's table
    language for its DMs), else English."""
    return _READER.get() or fallback or english()


def hear(locale: Any, chosen: str | None = None) -> None:
    """The interaction being answered in this task is read in `chosen` (the user's
    `/ttr settings language:`) or else its Discord `locale`."""
    _READER.set(language(chosen) if chosen in codes() else for_locale(locale))


async def hear_user(service: Any, interaction: Any) -> None:
    """`hear` for an interaction: its user's stored choice, else their client's locale (a
    choice that cannot be read now does not stop the answer)."""
    try:
        chosen = await service.settings.user_language(interaction.user.id)
    except Exception:  # the database: the client's language will do for this answer
        chosen = None
    hear(interaction.locale, chosen)


def for_reader(chosen: str | None, fallback: Language) -> Language:
    """A DM's language: the player's own choice, else `fallback` (the table's)."""
    return language(chosen) if chosen in codes() else fallback


@contextlib.contextmanager
def reading(lang: Language) -> Iterator[Language]:
    """Write for a reader of `lang` within the block (a DM to a player)."""
    token = _READER.set(lang)
    try:
        yield lang
    finally:
        _READER.reset(token)


def language_choices() -> list[Any]:
    """`/ttr new language:`'s choices: every catalogue, named in its own language."""
    from discord import app_commands

    return [app_commands.Choice(name=language(c).t(f"language.{c}"), value=c) for c in codes()]


def placeholders(text: str) -> set[str]:
    """The "{name}" placeholders of a message."""
    return set(_fields(text))
