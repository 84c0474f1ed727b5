"""The words inside pictures: a language's `picture.` entries resolved for render/ (which has
no catalogue and does not import bot_app), passed with the render job (render/words.py)."""

from __future__ import annotations

from functools import cache

from bot_app.lang import ENGLISH, _compiled, language
from render.words import ENGLISH as ENGLISH_WORDS
from render.words import PLURAL_TABLE, PictureWords

PREFIX = "picture."


@cache
def picture_words(code: str) -> PictureWords:
    """The picture words of the catalogue `code` (English: none, so that English pictures are
    drawn from the words in render/ itself, exactly as before). A plural entry is passed as
    its forms, with the language's plural rule as a table of counts (render/words.py)."""
    lang = language(code)
    if lang.code == ENGLISH:
        return ENGLISH_WORDS
    own = _compiled(lang.code)._catalog  # type: ignore[attr-defined]
    entries: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for key in _picture_keys():
        if isinstance(key, tuple):  # a plural entry: (key, form index)
            if key[1] == 0:
                forms: list[str] = []
                while (key[0], len(forms)) in own:
                    forms.append(own[(key[0], len(forms))])
                if forms and all(forms):  # an untranslated one reads in English
                    plurals[key[0]] = tuple(forms)
        else:
            entries[key] = lang.raw(key)
    rule = _compiled(lang.code).plural  # type: ignore[attr-defined]  # the Plural-Forms, compiled by gettext
    table = bytes(rule(n) for n in range(PLURAL_TABLE))
    return PictureWords(lang.code, entries, plurals, table)


def _picture_keys() -> list[str | tuple[str, int]]:
    """The `picture.` keys of English's catalogue (every catalogue has the same keys)."""
    catalog = _compiled(ENGLISH)._catalog  # type: ignore[attr-defined]
    return [k for k in catalog if (k[0] if isinstance(k, tuple) else k).startswith(PREFIX)]
