"""Name keys: a city name folded so that case, accents, spaces and punctuation do not matter.

The validator uses `fold` to check that the names of a map tell its cities apart; the bot's
name index (bot_app/presentation/names.py) looks typed names up by both keys.
"""

from __future__ import annotations

import unicodedata

# Letters that Unicode does not decompose into a base letter plus an accent.
_PLAIN = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d",
                        "þ": "th", "ı": "i"})
# German / Scandinavian transliterations, so "Muenchen", "Koeln", "Aarhus", "Tromsoe" match.
_TRANSLIT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "å": "aa", "ø": "oe", "æ": "ae"})


def _strip(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(ch for ch in text if ch.isalnum() and not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Lookup key: case-, accent-, space- and punctuation-insensitive ("Sault St. Marie" ->
    "saultstmarie", "Tromsø" -> "tromso")."""
    return _strip(unicodedata.normalize("NFC", text).casefold())


def fold_transliterated(text: str) -> str:
    """The lookup key with German and Scandinavian letters spelled out ("München" ->
    "muenchen", "Århus" -> "aarhus"), for a second set of keys."""
    return _strip(unicodedata.normalize("NFC", text).casefold().translate(_TRANSLIT))
