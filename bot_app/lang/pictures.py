"""The words inside pictures: a language's `picture.` entries resolved for render/ (which has
no catalogue and does not import bot_app), passed with the render job (render/words.py)."""

from __future__ import annotations

from functools import cache

from bot_app.lang import ENGLISH, Language, _compiled, language
from render.words import ENGLISH as ENGLISH_WORDS
from render.words import PLURAL, PLURAL_COUNTS, PictureWords

PREFIX = "picture."


@cache
def picture_words(code: str) -> PictureWords:
    """The picture words of the catalogue `code` (English: none, so that English pictures are
    drawn from the words in render/ itself, exactly as before). Plural entries are resolved
    for each count a picture shows ("picture.status.last_round#3")."""
    lang = language(code)
    if lang.code == ENGLISH:
        return ENGLISH_WORDS
    entries: dict[str, str] = {}
    for key in _picture_keys(lang):
        if isinstance(key, tuple):  # a plural entry: (key, form index)
            if key[1] == 0:
                for n in PLURAL_COUNTS:
                    entries[f"{key[0]}{PLURAL}{n}"] = lang._tr.ngettext(key[0], key[0], n).replace("{n}", str(n))
        else:
            entries[key] = lang.raw(key)
    return PictureWords(lang.code, entries)


def _picture_keys(lang: Language) -> list[str | tuple[str, int]]:
    """The `picture.` keys of English's catalogue (every catalogue has the same keys)."""
    catalog = _compiled(ENGLISH)._catalog  # type: ignore[attr-defined]
    return [k for k in catalog if (k[0] if isinstance(k, tuple) else k).startswith(PREFIX)]


def words_for(lang: Language) -> PictureWords:
    """`picture_words` of a Language."""
    return picture_words(lang.code)
