"""Reading the route and city names players type, for the Discord layer: the engine takes
only ids, and this turns "Paris – Wien (2 red)", "koeln" or "St. Louis" into them.

Cities match by id, name, alias or another spelling (maps/<id>/aliases.json: Munich, Vienne,
Москва) ignoring case, accents, spaces and punctuation (and German and Scandinavian
transliterations); routes by id or by their two cities, with words that pick
one of parallel tracks. The work is linear in the length of the text, and text longer than
MAX_NAME_CHARS names nothing (tests/bot_app/test_map_names.py, bench/bench_names.py).
"""

from __future__ import annotations

import bisect
import difflib
import functools
import re
from collections.abc import Iterable
from typing import Any

from bot_app.presentation.inputs import is_number
from engine.errors import excerpt
from engine.maps import COLOR_SYNONYMS, COLORS, City, GameMap, Route, fold
from engine.maps.folding import fold_transliterated
from engine.maps.spellings import spellings

# Longer text is refused before any other work: the longest route label of a shipped map has
# 63 characters, and Discord lets an option carry 6,000.
MAX_NAME_CHARS = 200

_BRACKETED_RE = re.compile(r"\(([^()]*)\)")
# A separator between two city names: one of these inside or between words, or the word "to"
# between spaces. (The matching below reproduces the regex
# r"\s*(?:<->|->|[-–—‐‑−/↔→])\s*|\s+to\s+" run over the words joined by single spaces.)
_DASH_RE = re.compile(r"<->|->|[-–—‐‑−/↔→]")
_TO_RE = re.compile(r"to", re.IGNORECASE)


@functools.lru_cache(maxsize=32)
def names_of(game_map: GameMap) -> MapNames:
    """The name index of a map, built once per map."""
    return MapNames(game_map)


def find_city(game_map: GameMap, text: Any) -> City | None:
    """The city a player named by id, name or alias; None if none (or the text is no str)."""
    return names_of(game_map).find_city(text)


def suggest_cities(game_map: GameMap, text: Any, n: int = 3) -> list[str]:
    """Up to n city names close to the text, for "did you mean"."""
    return names_of(game_map).suggest_cities(text, n)


def find_route(game_map: GameMap, text: Any) -> Route | None:
    """The route a player named by id or by its cities (see `MapNames.find_route`)."""
    return names_of(game_map).find_route(text)


def unknown_route(game_map: GameMap, text: str) -> str:
    """The refusal for a route name that matches nothing, with a guess at a misspelt city."""
    hint = ""
    parts = [p.strip() for p in text.replace("–", "-").split("-") if p.strip()]
    unknown = [p for p in parts if find_city(game_map, p) is None]
    if unknown:
        guesses = suggest_cities(game_map, unknown[0])
        if guesses:
            hint = f" Did you mean {' or '.join(guesses)}?"
    return f"There is no route called {excerpt(text)} on this map.{hint}"


def unknown_city(game_map: GameMap, text: str) -> str:
    """The refusal for a city name that matches no city, with a guess."""
    guesses = suggest_cities(game_map, text)
    hint = f" Did you mean {' or '.join(guesses)}?" if guesses else ""
    return f"There is no city called {excerpt(text)} on this map.{hint}"


# ---------------------------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------------------------


class MapNames:
    """One map's names arranged for matching typed text in one pass: the folded city names
    (ids, names, aliases, transliterations), each found by extending a folded slice one
    character at a time while it is still the prefix (or, from the right, the suffix) of
    some name; and the route ids, ignoring case."""

    __slots__ = ("city_keys", "keys", "longest", "map", "other_names", "prefixes", "route_ids",
                 "suffixes", "suggest_longest")

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.route_ids = {rid.casefold(): rid for rid in game_map.routes}
        extra = spellings(game_map)
        # Every name of each city but the printed one: the map file's aliases, then the
        # other spellings (for autocomplete's "Wien (Vienna)").
        self.other_names = {cid: tuple(dict.fromkeys((*city.aliases, *extra.get(cid, ()))))
                            for cid, city in game_map.cities.items()}
        self.city_keys = _city_keys(game_map.cities.values(), self.other_names)
        # Keys shared by two cities (None) find nothing, as in find_city.
        self.keys = {key: cid for key, cid in self.city_keys.items() if cid is not None}
        self.prefixes = {key[:i] for key in self.keys for i in range(1, len(key) + 1)}
        self.suffixes = {key[i:] for key in self.keys for i in range(len(key))}
        self.longest = max(map(len, self.keys), default=0)
        # difflib's ratio is 2 * matches / (len(a) + len(b)) and matches <= len(b) <= longest,
        # so a key longer than this can never reach suggest_cities' cutoff of 0.6.
        self.suggest_longest = (7 * self.longest) // 3 + 1

    def cities_from(self, text: str, start: int) -> dict[int, str]:
        """{end: city id} for every name that text[start:end] spells."""
        found: dict[int, str] = {}
        for end in range(start + 1, min(len(text), start + self.longest) + 1):
            piece = text[start:end]
            if piece not in self.prefixes:
                break
            city_id = self.keys.get(piece)
            if city_id is not None:
                found[end] = city_id
        return found

    def cities_to(self, text: str, end: int) -> dict[int, str]:
        """{start: city id} for every name that text[start:end] spells."""
        found: dict[int, str] = {}
        for start in range(end - 1, max(0, end - self.longest) - 1, -1):
            piece = text[start:end]
            if piece not in self.suffixes:
                break
            city_id = self.keys.get(piece)
            if city_id is not None:
                found[start] = city_id
        return found

    def find_city(self, text: str) -> City | None:
        """Match an id, name or alias, ignoring case, accents, spaces and punctuation."""
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS:
            return None
        city_id = self.city_keys.get(fold(text))
        return self.map.cities[city_id] if city_id is not None else None

    def suggest_cities(self, text: str, n: int = 3) -> list[str]:
        """Up to n city names close to the text (prefix matches first), for "did you mean"."""
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS or n <= 0:
            return []
        key = fold(text)
        # Longer keys match no name, by prefix or by difflib: skip difflib's quadratic work.
        if not key or len(key) > self.suggest_longest:
            return []
        keys = self.keys
        found = [k for k in keys if k.startswith(key)] if len(key) >= 2 else []
        found += difflib.get_close_matches(key, list(keys), n=len(keys), cutoff=0.6)
        out: list[str] = []
        for k in found:
            name = self.map.cities[keys[k]].name
            if name not in out:
                out.append(name)
        return out[:n]

    def find_route(self, text: str) -> Route | None:
        """A route from its id or from "A - B", "A – B", "A-B", "A to B", "A B" (either order).

        Words such as a colour, "tunnel", "ferry", a length, "N locomotives" or "track N"
        (before/after the cities or in brackets, as in `GameMap.route_label`) pick one of several
        parallel tracks and must match the route. Returns None when nothing matches or the
        choice stays ambiguous — except between identical tracks (same length, colour and
        type), where the first in file order is returned: callers that need a free one use
        `GameMap.parallel_tracks`. Text longer than MAX_NAME_CHARS names nothing.

        The cities are the text left once qualifier words are peeled off its ends, fewest
        first (then fewest from the front); that core splits into two names at a separator
        or, failing that, at a space. The work is linear in the length of the text: see
        :func:`_first_pair`.
        """
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS or not text.strip():
            return None
        text = text.strip()
        routes = self.map.routes
        if text in routes:
            return routes[text]
        rid = self.route_ids.get(text.casefold())
        if rid is not None:
            return routes[rid]

        bracketed = " ".join(_BRACKETED_RE.findall(text))
        words = _BRACKETED_RE.sub(" ", text).replace(",", " ").split()
        found = _first_pair(self, words)
        if found is None:
            return None
        pairs, qualifiers = found
        if len(pairs) > 1:
            return None
        candidates = list(self.map.routes_between(*pairs.pop()))
        wanted = _parse_qualifiers(qualifiers + bracketed.replace(",", " ").split())
        if wanted is None:
            return None
        candidates = [r for r in candidates if self._matches(r, wanted)]
        if not candidates:
            return None
        first = candidates[0]
        same = (first.length, first.color, first.tunnel, first.ferry_locos)
        if all((r.length, r.color, r.tunnel, r.ferry_locos) == same for r in candidates):
            return first
        return None

    def _matches(self, r: Route, wanted: dict[str, Any]) -> bool:
        return ((wanted["color"] is None or r.color == wanted["color"])
                and (wanted["length"] is None or r.length == wanted["length"])
                and (not wanted["tunnel"] or r.tunnel)
                and (not wanted["ferry"] or r.is_ferry)
                and (wanted["locos"] is None or r.ferry_locos == wanted["locos"])
                and (wanted["track"] is None or self.map.track_number(r.id) == wanted["track"]))


def _city_keys(cities: Iterable[City], others: dict[str, tuple[str, ...]]) -> dict[str, str | None]:
    """Lookup key -> city id: the folded ids, names, aliases and other spellings (the map's and
    the spellings' validators make sure they tell cities apart), then their transliterations
    where no name has that key already (None where two cities share a transliteration: it
    finds neither)."""
    keys: dict[str, str | None] = {}
    cities = list(cities)
    for city in cities:
        for text in (city.id, city.name, *others[city.id]):
            key = fold(text)
            if key:
                keys.setdefault(key, city.id)
    derived: dict[str, set[str]] = {}
    for city in cities:
        for text in (city.name, *others[city.id]):
            key = fold_transliterated(text)
            if key and key not in keys:
                derived.setdefault(key, set()).add(city.id)
    for key, owners in derived.items():
        keys[key] = next(iter(owners)) if len(owners) == 1 else None
    return keys


def _fold_words(words: list[str]) -> tuple[str, list[int], set[int], dict[int, int], list[int], list[bool]]:
    """Fold `words` once into one string, with what `_first_pair` needs to know of its offsets:
    where each word starts (and the string's length last), where a dash splits the text, where a
    word "to" starts (-> its index), for each word "to" the first of the run of "to"s it is in,
    and whether each word ends in a dash (which takes the space after it)."""
    starts = [0]
    dashes: set[int] = set()
    to_at: dict[int, int] = {}
    to_run: list[int] = []
    ends_in_dash: list[bool] = []
    parts: list[str] = []
    offset = 0
    after_to = False
    for i, word in enumerate(words):
        pieces = _DASH_RE.split(word)
        for j, piece in enumerate(pieces):
            if j:
                dashes.add(offset)
            part = fold(piece)
            parts.append(part)
            offset += len(part)
        ends_in_dash.append(len(pieces) > 1 and not pieces[-1])
        is_to = _TO_RE.fullmatch(word) is not None
        if is_to:
            to_at[starts[i]] = i
        to_run.append(to_run[-1] if is_to and i and after_to else i)
        after_to = is_to
        starts.append(offset)
    return "".join(parts), starts, dashes, to_at, to_run, ends_in_dash


def _first_pair(names: MapNames,
                words: list[str]) -> tuple[set[frozenset[str]], list[str]] | None:
    """The city pairs named by the core of `words` and the qualifier words peeled off it, for
    the first core (fewest words peeled, then fewest from the front) that names any pair.

    A core words[lead:end] may drop only qualifier words from either end. It names a pair when
    it splits, at a separator, into two texts that fold to names of different cities; only if
    no separator does, at a space. Folding drops spaces and punctuation, so the words are folded
    once into one string, remembering the offsets where words begin and dashes stand. A name is
    at most `names.longest` characters, so from each start at most that many slices are looked
    up, and a core can only name a pair if it folds to at most two names and a "to": each end
    of the text is tried against a bounded number of others. Qualifier words never fold to
    nothing, which keeps the number of cores per start bounded too.
    """
    n = len(words)
    folded, starts, dashes, to_at, to_run, ends_in_dash = _fold_words(words)
    word_starts = set(starts[1:n])

    def to_separates(i: int, lead: int) -> bool:
        # The regex needs a space on both sides of "to", and each space goes to one match:
        # in a run of "to"s every other one separates, counting from the first whose space
        # before it is free (not the core's edge, not taken by a dash at the end of a word).
        first = max(to_run[i], lead)
        first_separates = first > lead and not ends_in_dash[first - 1]
        return (i - first) % 2 == (0 if first_separates else 1)

    def pairs_in(lead: int, end: int, left: dict[int, str]) -> set[frozenset[str]]:
        b = starts[end]
        right = right_names.get(b)
        if right is None:
            right = right_names[b] = names.cities_to(folded, b)
        pairs: set[frozenset[str]] = set()
        if not right:
            return pairs
        at_spaces: list[tuple[int, str]] = []
        for k, city in left.items():
            if k >= b:
                break
            if k in dashes:
                other = right.get(k)
                if other is not None and other != city:
                    pairs.add(frozenset((city, other)))
            i = to_at.get(k)
            if i is not None and lead < i < end - 1 and to_separates(i, lead):
                other = right.get(starts[i + 1])
                if other is not None and other != city:
                    pairs.add(frozenset((city, other)))
            if k in word_starts:
                at_spaces.append((k, city))
        if pairs:
            return pairs
        for k, city in at_spaces:
            other = right.get(k)
            if other is not None and other != city:
                pairs.add(frozenset((city, other)))
        return pairs

    max_lead = next((i for i, w in enumerate(words) if not _is_qualifier(w)), n)
    max_trail = next((i for i, w in enumerate(reversed(words)) if not _is_qualifier(w)), n)
    # Two names and the "to" between them: a longer core names no pair.
    widest = 2 * names.longest + 2
    right_names: dict[int, dict[int, str]] = {}
    best: tuple[int, int, int, set[frozenset[str]]] | None = None  # peeled, lead, end, pairs
    for lead in range(min(max_lead, n - 1) + 1):
        if best is not None and lead >= best[0]:
            break  # every core from here on peels more words, or as many from further in
        a = starts[lead]
        left = names.cities_from(folded, a)
        if not left:
            continue
        end = bisect.bisect_right(starts, a + widest) - 1
        lowest = max(lead + 1, n - max_trail)
        while end >= lowest and starts[end] - a >= 2:
            pairs = pairs_in(lead, end, left)
            if pairs:
                peeled = lead + n - end
                if best is None or peeled < best[0]:
                    best = (peeled, lead, end, pairs)
                break  # a shorter core from this lead peels more
            end -= 1
    if best is None:
        return None
    _, lead, end, pairs = best
    return pairs, words[:lead] + words[end:]


_QUALIFIER_WORDS = {*COLORS, *COLOR_SYNONYMS, "tunnel", "ferry", "track", "route",
                    "locomotive", "locomotives", "loco", "locos"}


def _is_qualifier(word: str) -> bool:
    w = word.strip(".,;:").casefold()
    return w in _QUALIFIER_WORDS or is_number(w.lstrip("#"))


def _parse_qualifiers(words: list[str]) -> dict[str, Any] | None:
    """Turn qualifier words into filters; None if they contradict each other."""
    wanted: dict[str, Any] = {"color": None, "length": None, "tunnel": False, "ferry": False,
                              "locos": None, "track": None}
    words = [w.strip(".,;:").casefold() for w in words]

    def put(key: str, value: Any) -> bool:
        if wanted[key] is not None and wanted[key] != value:
            return False
        wanted[key] = value
        return True

    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        ok = True
        if w in COLORS or w in COLOR_SYNONYMS:
            ok = put("color", COLOR_SYNONYMS.get(w, w))
        elif w == "tunnel":
            wanted["tunnel"] = True
        elif w == "ferry":
            wanted["ferry"] = True
        elif w == "track" and is_number(nxt.lstrip("#")):
            ok = put("track", int(nxt.lstrip("#")))
            i += 1
        elif w.startswith("#") and is_number(w[1:]):
            ok = put("track", int(w[1:]))
        elif is_number(w) and nxt in ("locomotive", "locomotives", "loco", "locos"):
            ok = put("locos", int(w))
            wanted["ferry"] = wanted["ferry"] or int(w) > 0
            i += 1
        elif is_number(w):
            ok = put("length", int(w))
        elif w not in _QUALIFIER_WORDS:
            return None
        if not ok:
            return None
        i += 1
    return wanted
