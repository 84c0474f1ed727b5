"""Map data: the one loader and validator for ``maps/<id>.json``.

Pure Python (standard library only). A map file is read, checked entry by entry and turned
into an immutable :class:`GameMap`. Every problem raises :class:`MapError` whose message names
the file and the bad entry, e.g. ``maps/x.json: route 'a-b' (#12): unknown city 'zzz'``
(``#N`` counts entries from 1). The schema and the rules checked here are documented in
``maps/README.md``.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import json
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "CITY_KINDS",
    "COLORS",
    "DECKS",
    "MAPS_DIR",
    "City",
    "FrozenDict",
    "GameMap",
    "MapError",
    "Route",
    "Ticket",
    "available_maps",
    "load_map",
    "parse_map",
]

MAPS_DIR = Path(__file__).resolve().parent.parent / "maps"

COLORS = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "gray")
COLOR_SYNONYMS = {"grey": "gray", "purple": "pink"}
CITY_KINDS = ("city", "country")
DECKS = ("main", "short", "long", "tourist")

_ID_RE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")  # city and map ids: no '-', ids use it
_TAG_RE = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
_SUFFIX_RE = re.compile(r"[1-9][0-9]*")

_TOP_REQUIRED = ("id", "name", "provenance", "coordinates", "route_points",
                 "cities", "routes", "tickets")
_TOP_OPTIONAL = ("extras",)
_CITY_REQUIRED = ("id", "name", "x", "y")
_CITY_OPTIONAL = ("kind", "aliases", "tags")
_ROUTE_REQUIRED = ("id", "a", "b", "length", "color", "tunnel", "ferry_locos", "parallel_group")
_ROUTE_OPTIONAL = ("tags", "border_point", "note")
_TICKET_REQUIRED = ("id", "a", "b", "points", "deck")


class MapError(ValueError):
    """A map file is missing, unreadable or breaks a rule of the schema."""


class FrozenDict(dict):
    """A read-only dict: hashable, JSON-serialisable, picklable."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("map data is read-only")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = __ior__ = _read_only  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict) -> FrozenDict:
        return self

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


def _freeze(value: Any) -> Any:
    """Deep read-only copy of JSON-like data (dict -> FrozenDict, list -> tuple)."""
    if isinstance(value, Mapping):
        return FrozenDict((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


# ---------------------------------------------------------------------------------------------
# Name folding for lookups
# ---------------------------------------------------------------------------------------------

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


def _fold_translit(text: str) -> str:
    return _strip(unicodedata.normalize("NFC", text).casefold().translate(_TRANSLIT))


# ---------------------------------------------------------------------------------------------
# Data classes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class City:
    id: str
    name: str
    x: float
    y: float
    kind: str = "city"
    aliases: tuple[str, ...] = ()
    tags: Mapping[str, Any] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", tuple(self.aliases))
        object.__setattr__(self, "tags", _freeze(self.tags))

    @property
    def is_country(self) -> bool:
        return self.kind == "country"


@dataclass(frozen=True)
class Route:
    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool = False
    ferry_locos: int = 0
    parallel_group: str | None = None
    tags: frozenset[str] = frozenset()
    border_point: tuple[float, float] | None = None
    index: int = 0  # position in the file's route list, from 0
    note: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))
        if self.border_point is not None:
            object.__setattr__(self, "border_point", tuple(self.border_point))

    @property
    def is_ferry(self) -> bool:
        return self.ferry_locos > 0

    @property
    def ends(self) -> tuple[str, str]:
        return (self.a, self.b)

    def other_end(self, city: str) -> str:
        if city == self.a:
            return self.b
        if city == self.b:
            return self.a
        raise ValueError(f"route {self.id!r} does not end at {city!r}")


@dataclass(frozen=True)
class Ticket:
    id: str
    a: str
    b: str
    points: int
    deck: str = "main"


class _Index:
    """Lookups precomputed once per map."""

    __slots__ = ("at", "city_keys", "decks", "names", "pairs", "parallel", "route_ids",
                 "track_no")

    def __init__(self, cities: Mapping[str, City], routes: Mapping[str, Route],
                 tickets: Mapping[str, Ticket]) -> None:
        groups: dict[str, list[Route]] = {}
        at: dict[str, list[Route]] = {cid: [] for cid in cities}
        pairs: dict[frozenset[str], list[Route]] = {}
        for r in routes.values():
            if r.parallel_group is not None:
                groups.setdefault(r.parallel_group, []).append(r)
            at.setdefault(r.a, []).append(r)
            at.setdefault(r.b, []).append(r)
            pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
        self.parallel: dict[str, tuple[Route, ...]] = {}
        self.track_no: dict[str, int] = {}
        for r in routes.values():
            group = groups.get(r.parallel_group, []) if r.parallel_group is not None else []
            self.parallel[r.id] = tuple(t for t in group if t.id != r.id)
            self.track_no[r.id] = group.index(r) + 1 if group else 1
        self.at = {cid: tuple(rs) for cid, rs in at.items()}
        self.pairs = {pair: tuple(rs) for pair, rs in pairs.items()}
        decks: dict[str, list[Ticket]] = {}
        for t in tickets.values():
            decks.setdefault(t.deck, []).append(t)
        order = {name: i for i, name in enumerate(DECKS)}
        self.decks = {name: tuple(decks[name])
                      for name in sorted(decks, key=lambda d: (order.get(d, len(order)), d))}
        self.route_ids = {rid.casefold(): rid for rid in routes}
        self.city_keys, _ = _city_keys(cities.values())
        self.names = _NameIndex(self.city_keys)


class _NameIndex:
    """The folded city names (ids, names, aliases, transliterations) arranged for matching
    typed text in one pass: a name is found by extending a folded slice one character at a
    time while it is still the prefix (or, from the right, the suffix) of some name."""

    __slots__ = ("keys", "longest", "prefixes", "suffixes", "suggest_longest")

    def __init__(self, city_keys: Mapping[str, str | None]) -> None:
        # Keys shared by two cities (None) find nothing, as in find_city.
        self.keys = {key: cid for key, cid in city_keys.items() if cid is not None}
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


def _city_keys(cities: Any) -> tuple[dict[str, str | None], list[tuple[City, str, str]]]:
    """Lookup key -> city id (None where two cities share a derived key), and the clashes
    between the explicit names (id, name, aliases) of different cities."""
    keys: dict[str, str | None] = {}
    clashes: list[tuple[City, str, str]] = []
    cities = list(cities)
    for city in cities:
        for text in (city.id, city.name, *city.aliases):
            key = fold(text)
            if not key:
                continue
            owner = keys.get(key)
            if owner is not None and owner != city.id:
                clashes.append((city, text, owner))
            keys.setdefault(key, city.id)
    derived: dict[str, set[str]] = {}
    for city in cities:
        for text in (city.name, *city.aliases):
            key = _fold_translit(text)
            if key and key not in keys:
                derived.setdefault(key, set()).add(city.id)
    for key, owners in derived.items():
        keys[key] = next(iter(owners)) if len(owners) == 1 else None
    return keys, clashes


@dataclass(frozen=True)
class GameMap:
    id: str
    name: str
    width: float
    height: float
    cities: Mapping[str, City] = field(hash=False)
    routes: Mapping[str, Route] = field(hash=False)
    tickets: Mapping[str, Ticket] = field(hash=False)
    route_points: Mapping[int, int] = field(hash=False)
    extras: Mapping[str, Any] = field(default_factory=FrozenDict, hash=False)
    provenance: Mapping[str, Any] = field(default_factory=FrozenDict, hash=False)
    _index: _Index = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for name in ("cities", "routes", "tickets", "route_points"):
            object.__setattr__(self, name, FrozenDict(getattr(self, name)))
        object.__setattr__(self, "extras", _freeze(self.extras))
        object.__setattr__(self, "provenance", _freeze(self.provenance))
        object.__setattr__(self, "_index", _Index(self.cities, self.routes, self.tickets))

    # A map never changes: copies of a game state may share it.
    def __copy__(self) -> GameMap:
        return self

    def __deepcopy__(self, memo: dict) -> GameMap:
        return self

    # -- scoring and structure -----------------------------------------------------------------

    def points_for(self, length: int) -> int:
        try:
            return self.route_points[length]
        except KeyError:
            raise MapError(f"map '{self.id}': no route points for length {length!r}") from None

    def parallel_tracks(self, route_id: str) -> tuple[Route, ...]:
        """The other tracks of the route's parallel group, in file order (empty if none)."""
        return self._index.parallel[route_id]

    def routes_at(self, city_id: str) -> tuple[Route, ...]:
        """Every route with an end at the city, in file order."""
        return self._index.at[city_id]

    def routes_between(self, a: str, b: str) -> tuple[Route, ...]:
        """Every route joining the two cities (either order), in file order."""
        return self._index.pairs.get(frozenset((a, b)), ())

    def ticket_deck(self, deck: str) -> tuple[Ticket, ...]:
        return self._index.decks.get(deck, ())

    def deck_names(self) -> tuple[str, ...]:
        """Decks present on this map: main, short, long, tourist (in that order), then others."""
        return tuple(self._index.decks)

    # -- labels ----------------------------------------------------------------------------------

    def city_label(self, city_id: str) -> str:
        return self.cities[city_id].name

    def route_label(self, route_id: str) -> str:
        """ "Oslo – Stockholm (4 yellow)", "... (3 gray tunnel)", "... (2 gray ferry,
        1 locomotive)"; a parallel track of the same colour adds ", track N"."""
        r = self.routes[route_id]
        detail = f"{r.length} {r.color}"
        if r.tunnel:
            detail += " tunnel"
        if r.is_ferry:
            detail += f" ferry, {r.ferry_locos} locomotive{'' if r.ferry_locos == 1 else 's'}"
        if any(t.color == r.color for t in self.parallel_tracks(r.id)):
            detail += f", track {self._index.track_no[r.id]}"
        return f"{self.city_label(r.a)} – {self.city_label(r.b)} ({detail})"

    # -- lookups from what players type -----------------------------------------------------------

    def find_city(self, text: str) -> City | None:
        """Match an id, name or alias, ignoring case, accents, spaces and punctuation."""
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS:
            return None
        city_id = self._index.city_keys.get(fold(text))
        return self.cities[city_id] if city_id is not None else None

    def suggest_cities(self, text: str, n: int = 3) -> list[str]:
        """Up to n city names close to the text (prefix matches first), for "did you mean"."""
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS or n <= 0:
            return []
        names = self._index.names
        key = fold(text)
        # Longer keys match no name, by prefix or by difflib: skip difflib's quadratic work.
        if not key or len(key) > names.suggest_longest:
            return []
        keys = names.keys
        found = [k for k in keys if k.startswith(key)] if len(key) >= 2 else []
        found += difflib.get_close_matches(key, list(keys), n=len(keys), cutoff=0.6)
        out: list[str] = []
        for k in found:
            name = self.cities[keys[k]].name
            if name not in out:
                out.append(name)
        return out[:n]

    def find_route(self, text: str) -> Route | None:
        """A route from its id or from "A - B", "A – B", "A-B", "A to B", "A B" (either order).

        Words such as a colour, "tunnel", "ferry", a length, "N locomotives" or "track N"
        (before/after the cities or in brackets, as in :meth:`route_label`) pick one of several
        parallel tracks and must match the route. Returns None when nothing matches or the
        choice stays ambiguous — except between identical tracks (same length, colour and
        type), where the first in file order is returned: callers that need a free one use
        :meth:`parallel_tracks`. Text longer than MAX_NAME_CHARS names nothing.

        The cities are the text left once qualifier words are peeled off its ends, fewest
        first (then fewest from the front); that core splits into two names at a separator
        or, failing that, at a space. The work is linear in the length of the text: see
        :func:`_first_pair`.
        """
        if not isinstance(text, str) or len(text) > MAX_NAME_CHARS or not text.strip():
            return None
        text = text.strip()
        if text in self.routes:
            return self.routes[text]
        rid = self._index.route_ids.get(text.casefold())
        if rid is not None:
            return self.routes[rid]

        bracketed = " ".join(_BRACKETED_RE.findall(text))
        words = _BRACKETED_RE.sub(" ", text).replace(",", " ").split()
        found = _first_pair(self._index.names, words)
        if found is None:
            return None
        pairs, qualifiers = found
        if len(pairs) > 1:
            return None
        candidates = list(self._index.pairs.get(pairs.pop(), ()))
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
                and (wanted["track"] is None or self._index.track_no[r.id] == wanted["track"]))


# Longer text is refused before any other work: the longest route label of a shipped map has
# 63 characters, and Discord lets an option carry 6,000.
MAX_NAME_CHARS = 200

_BRACKETED_RE = re.compile(r"\(([^()]*)\)")
# A separator between two city names: one of these inside or between words, or the word "to"
# between spaces. (The matching below reproduces the regex
# r"\s*(?:<->|->|[-–—‐‑−/↔→])\s*|\s+to\s+" run over the words joined by single spaces.)
_DASH_RE = re.compile(r"<->|->|[-–—‐‑−/↔→]")
_TO_RE = re.compile(r"to", re.IGNORECASE)


def _first_pair(names: _NameIndex,
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
    starts = [0]  # starts[i]: offset in `folded` of words[i]; starts[n]: its length
    dashes: set[int] = set()  # offsets where a dash splits the text
    to_at: dict[int, int] = {}  # offset -> index of a word "to" starting there
    to_run: list[int] = []  # for each word "to", the first of the run of "to"s it is in
    ends_in_dash: list[bool] = []  # a dash at its end takes the space after it
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
    folded = "".join(parts)
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
    return w in _QUALIFIER_WORDS or w.lstrip("#").isdigit()


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
        elif w == "track" and nxt.lstrip("#").isdigit():
            ok = put("track", int(nxt.lstrip("#")))
            i += 1
        elif w.startswith("#") and w[1:].isdigit():
            ok = put("track", int(w[1:]))
        elif w.isdigit() and nxt in ("locomotive", "locomotives", "loco", "locos"):
            ok = put("locos", int(w))
            wanted["ferry"] = wanted["ferry"] or int(w) > 0
            i += 1
        elif w.isdigit():
            ok = put("length", int(w))
        elif w not in _QUALIFIER_WORDS:
            return None
        if not ok:
            return None
        i += 1
    return wanted


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "an integer", float: "a number", type(None): "null"}.get(type(value),
                                                                            type(value).__name__)


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> MapError:
        return MapError(f"{self.source}: {where}: {message}" if where else
                        f"{self.source}: {message}")

    @staticmethod
    def where(kind: str, entry: Any, number: int) -> str:
        entry_id = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(entry_id, str) and entry_id:
            return f"{kind} '{entry_id}' (#{number})"
        return f"{kind} #{number}"

    def keys(self, where: str, entry: Any, required: tuple[str, ...],
             optional: tuple[str, ...] = ()) -> None:
        if not isinstance(entry, dict):
            raise self.fail(where, f"must be an object, not {_type_name(entry)}")
        for key in required:
            if key not in entry:
                raise self.fail(where, f"missing field '{key}'")
        unknown = [k for k in entry if k not in required and k not in optional]
        if unknown:
            allowed = ", ".join((*required, *optional))
            raise self.fail(where, f"unknown field '{unknown[0]}' (allowed: {allowed})")

    def check(self, where: str, entry: dict, key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise self.fail(where, f"field '{key}' must be {expected}, "
                                   f"not {_type_name(entry[key])} {_show(entry[key])}")

    def string(self, where: str, entry: dict, key: str) -> str:
        value = entry[key]
        self.check(where, entry, key, isinstance(value, str) and value.strip() != "",
                   "a non-empty string")
        return value

    def integer(self, where: str, entry: dict, key: str) -> int:
        self.check(where, entry, key, _is_int(entry[key]), "an integer")
        return entry[key]

    def number(self, where: str, entry: dict, key: str) -> float:
        self.check(where, entry, key, _is_number(entry[key]), "a number")
        return entry[key]

    def boolean(self, where: str, entry: dict, key: str) -> bool:
        self.check(where, entry, key, isinstance(entry[key], bool), "true or false")
        return entry[key]


def parse_map(data: dict, source: str) -> GameMap:
    """Validate map data (as read from JSON) and build the :class:`GameMap`.

    ``source`` names the data in error messages (normally ``maps/<id>.json``)."""
    c = _Checker(source)
    if not isinstance(data, dict):
        raise c.fail("", f"a map must be a JSON object, not {_type_name(data)}")
    unknown = [k for k in data if k not in _TOP_REQUIRED and k not in _TOP_OPTIONAL]
    if unknown:
        allowed = ", ".join((*_TOP_REQUIRED, *_TOP_OPTIONAL))
        raise c.fail("", f"unknown top-level field '{unknown[0]}' (allowed: {allowed})")
    for key in _TOP_REQUIRED:
        if key not in data:
            raise c.fail("", f"missing top-level field '{key}'")
    top = "top level"
    map_id = c.string(top, data, "id")
    if not _ID_RE.fullmatch(map_id):
        raise c.fail(top, f"map id '{map_id}' must be lowercase letters, digits and '_'")
    name = c.string(top, data, "name")
    for key, kind, expected in (("provenance", dict, "an object"), ("cities", list, "a list"),
                                ("routes", list, "a list"), ("tickets", list, "a list"),
                                ("coordinates", dict, "an object"),
                                ("route_points", dict, "an object"),
                                ("extras", dict, "an object")):
        if key in data:
            c.check(top, data, key, isinstance(data[key], kind), expected)

    # -- drawing space and points table
    coords = data["coordinates"]
    c.keys("coordinates", coords, ("width", "height"))
    width = c.number("coordinates", coords, "width")
    height = c.number("coordinates", coords, "height")
    if width <= 0 or height <= 0:
        raise c.fail("coordinates", "width and height must be greater than 0")

    route_points: dict[int, int] = {}
    for key, value in data["route_points"].items():
        length = int(key) if (_is_int(key) or (isinstance(key, str) and key.isdigit())) else None
        where = f"route_points '{key}'"
        if length is None or length < 1:
            raise c.fail(where, "lengths must be whole numbers from 1 up")
        if not _is_int(value) or value < 0:
            raise c.fail(where, f"points must be a whole number of 0 or more, not {value!r}")
        if length in route_points:
            raise c.fail(where, f"length {length} is listed twice")
        route_points[length] = value
    if not route_points:
        raise c.fail("route_points", "the table is empty")

    def inside(where: str, x: float, y: float, what: str) -> None:
        if not (0 <= x <= width and 0 <= y <= height):
            raise c.fail(where, f"{what} ({x}, {y}) lies outside the drawing space "
                                f"0..{width} x 0..{height}")

    # -- cities
    cities: dict[str, City] = {}
    for n, entry in enumerate(data["cities"], 1):
        where = c.where("city", entry, n)
        c.keys(where, entry, _CITY_REQUIRED, _CITY_OPTIONAL)
        city_id = c.string(where, entry, "id")
        if not _ID_RE.fullmatch(city_id):
            raise c.fail(where, f"city id '{city_id}' must be lowercase letters, digits and "
                                f"single '_' (no '-', which joins ids in route ids)")
        if city_id in cities:
            raise c.fail(where, f"duplicate city id '{city_id}'")
        city_name = c.string(where, entry, "name")
        x = c.number(where, entry, "x")
        y = c.number(where, entry, "y")
        inside(where, x, y, "position")
        kind = entry.get("kind", "city")
        if kind not in CITY_KINDS:
            raise c.fail(where, f"unknown kind {kind!r} (allowed: {', '.join(CITY_KINDS)})")
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(
                isinstance(a, str) and fold(a) for a in aliases):
            raise c.fail(where, "field 'aliases' must be a list of non-empty strings")
        tags = entry.get("tags", {})
        if not isinstance(tags, dict):
            raise c.fail(where, f"field 'tags' must be an object, not {_type_name(tags)}")
        cities[city_id] = City(city_id, city_name, x, y, kind, tuple(aliases), tags)
    if not cities:
        raise c.fail("cities", "the map has no cities")
    _, clashes = _city_keys(cities.values())
    if clashes:
        city, text, owner = clashes[0]
        where = f"city '{city.id}' (#{list(cities).index(city.id) + 1})"
        raise c.fail(where, f"the name '{text}' also names city '{owner}' "
                            f"(names, ids and aliases must tell cities apart)")

    # -- routes: each entry on its own
    routes: dict[str, Route] = {}
    wheres: dict[str, str] = {}
    for n, entry in enumerate(data["routes"], 1):
        where = c.where("route", entry, n)
        c.keys(where, entry, _ROUTE_REQUIRED, _ROUTE_OPTIONAL)
        route_id = c.string(where, entry, "id")
        if route_id in routes:
            raise c.fail(where, f"duplicate route id '{route_id}'")
        a = c.string(where, entry, "a")
        b = c.string(where, entry, "b")
        for end in (a, b):
            if end not in cities:
                raise c.fail(where, f"unknown city '{end}'")
        if a == b:
            raise c.fail(where, f"both ends are the same city '{a}'")
        length = c.integer(where, entry, "length")
        if length < 1:
            raise c.fail(where, f"length must be at least 1, not {length}")
        if length not in route_points:
            raise c.fail(where, f"length {length} has no entry in route_points")
        color = entry["color"]
        if color not in COLORS:
            raise c.fail(where, f"unknown colour {color!r} (allowed: {', '.join(COLORS)})")
        tunnel = c.boolean(where, entry, "tunnel")
        ferry_locos = c.integer(where, entry, "ferry_locos")
        if ferry_locos < 0:
            raise c.fail(where, f"ferry_locos must not be negative, not {ferry_locos}")
        if ferry_locos > length:
            raise c.fail(where, f"ferry_locos {ferry_locos} is more than the length {length}")
        group = entry["parallel_group"]
        if group is not None:
            c.string(where, entry, "parallel_group")
        tags = entry.get("tags", [])
        if not isinstance(tags, list) or not all(
                isinstance(t, str) and _TAG_RE.fullmatch(t) for t in tags):
            raise c.fail(where, "field 'tags' must be a list of lowercase words "
                                "(letters, digits, '_')")
        border_point = None
        if "border_point" in entry:
            bp = entry["border_point"]
            c.keys(f"{where} border_point", bp, ("x", "y"))
            border_point = (c.number(where, bp, "x"), c.number(where, bp, "y"))
            inside(where, *border_point, "border_point")
        note = entry.get("note")
        if "note" in entry:
            c.string(where, entry, "note")
        routes[route_id] = Route(route_id, a, b, length, color, tunnel, ferry_locos, group,
                                 frozenset(tags), border_point, n - 1, note)
        wheres[route_id] = where

    # -- routes: parallel groups and tracks between the same cities
    groups: dict[str, list[Route]] = {}
    pairs: dict[frozenset[str], list[Route]] = {}
    for r in routes.values():
        if r.parallel_group is not None:
            groups.setdefault(r.parallel_group, []).append(r)
        pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
    for tracks in pairs.values():
        first = tracks[0]
        for r in tracks[1:]:
            if r.parallel_group is None or r.parallel_group != first.parallel_group:
                raise c.fail(wheres[r.id], f"joins the same cities as route '{first.id}' but "
                                           f"they do not share a parallel group")
    for group, tracks in groups.items():
        first = tracks[0]
        for r in tracks[1:]:
            if {r.a, r.b} != {first.a, first.b}:
                raise c.fail(wheres[r.id], f"parallel group '{group}' joins {first.a}–{first.b} "
                                           f"on route '{first.id}' but {r.a}–{r.b} here; a "
                                           f"group's tracks must join the same two cities")
        if len(tracks) == 1:
            raise c.fail(wheres[first.id], f"parallel group '{group}' has only this one track; "
                                           f"use null for a route without parallel tracks")
    # -- routes: id conventions (after the structure, whose messages are clearer)
    for r in routes.values():
        if r.parallel_group is None:
            if r.id != f"{r.a}-{r.b}":
                raise c.fail(wheres[r.id], f"a route without parallel tracks must have the id "
                                           f"'{r.a}-{r.b}'")
        else:
            if r.parallel_group not in (f"{r.a}-{r.b}", f"{r.b}-{r.a}"):
                raise c.fail(wheres[r.id], f"parallel group '{r.parallel_group}' must be named "
                                           f"'{r.a}-{r.b}' or '{r.b}-{r.a}'")
            prefix = f"{r.parallel_group}-"
            if not (r.id.startswith(prefix) and _SUFFIX_RE.fullmatch(r.id[len(prefix):])):
                raise c.fail(wheres[r.id], f"a parallel track must have the id "
                                           f"'{r.parallel_group}-N' (N = 1, 2, ...)")

    # -- the board must be connected
    neighbours: dict[str, set[str]] = {cid: set() for cid in cities}
    for r in routes.values():
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)
    start = next(iter(cities))
    seen = {start}
    todo = [start]
    while todo:
        for nb in neighbours[todo.pop()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) < len(cities):
        cut = [cid for cid in cities if cid not in seen]
        shown = ", ".join(f"'{cid}'" for cid in cut[:5]) + (" ..." if len(cut) > 5 else "")
        raise c.fail("routes", f"the board is disconnected: {len(cut)} cit"
                               f"{'y' if len(cut) == 1 else 'ies'} ({shown}) cannot be reached "
                               f"from '{start}'")

    # -- tickets
    tickets: dict[str, Ticket] = {}
    for n, entry in enumerate(data["tickets"], 1):
        where = c.where("ticket", entry, n)
        c.keys(where, entry, _TICKET_REQUIRED)
        ticket_id = c.string(where, entry, "id")
        if ticket_id in tickets:
            raise c.fail(where, f"duplicate ticket id '{ticket_id}'")
        a = c.string(where, entry, "a")
        b = c.string(where, entry, "b")
        for end in (a, b):
            if end not in cities:
                raise c.fail(where, f"unknown city '{end}'")
        if a == b:
            raise c.fail(where, f"both ends are the same city '{a}'")
        points = c.integer(where, entry, "points")
        if points < 1:
            raise c.fail(where, f"points must be at least 1, not {points}")
        deck = entry["deck"]
        if deck not in DECKS:
            raise c.fail(where, f"unknown deck {deck!r} (allowed: {', '.join(DECKS)})")
        base = f"{a}-{b}"
        suffix = ticket_id[len(base) + 1:]
        if ticket_id != base and not (ticket_id.startswith(base + "-")
                                      and _SUFFIX_RE.fullmatch(suffix) and suffix != "1"):
            raise c.fail(where, f"a ticket must have the id '{base}' (or '{base}-2', ... "
                                f"when several tickets join the same cities)")
        tickets[ticket_id] = Ticket(ticket_id, a, b, points, deck)

    # -- extras
    extras = data.get("extras", {})
    passengers = extras.get("passengers")
    colors = extras.get("passenger_colors")
    if passengers is not None or colors is not None:
        if not isinstance(passengers, dict) or not isinstance(colors, dict):
            raise c.fail("extras", "'passengers' and 'passenger_colors' must both be objects")
        for city_id, count in passengers.items():
            where = f"extras.passengers '{city_id}'"
            if city_id not in cities:
                raise c.fail(where, f"unknown city '{city_id}'")
            if not _is_int(count) or count < 0:
                raise c.fail(where, f"count must be a whole number of 0 or more, not {count!r}")
        for color, count in colors.items():
            where = f"extras.passenger_colors '{color}'"
            if color not in COLORS:
                raise c.fail(where, f"unknown colour {color!r} (allowed: {', '.join(COLORS)})")
            if not _is_int(count) or count < 0:
                raise c.fail(where, f"count must be a whole number of 0 or more, not {count!r}")
        if sum(passengers.values()) != sum(colors.values()):
            raise c.fail("extras", f"passengers on the board ({sum(passengers.values())}) and "
                                   f"passenger_colors ({sum(colors.values())}) must have the "
                                   f"same total")

    return GameMap(map_id, name, width, height, cities, routes, tickets, route_points,
                   extras, data["provenance"])


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------


def available_maps() -> list[str]:
    """Ids of the maps shipped in maps/ (sorted)."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


def _display(path: Path) -> str:
    try:
        return path.relative_to(MAPS_DIR.parent).as_posix()
    except ValueError:
        return str(path)


def _no_duplicate_keys(source: str):
    def hook(pairs: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for key, value in pairs:
            if key in out:
                raise MapError(f"{source}: key '{key}' appears twice in one JSON object")
            out[key] = value
        return out
    return hook


@functools.cache
def _load_path(path_text: str) -> GameMap:
    path = Path(path_text)
    source = _display(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapError(f"{source}: no such map file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{source}: cannot read the file: {exc}") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys(source))
    except json.JSONDecodeError as exc:
        raise MapError(f"{source}: not valid JSON: {exc}") from None
    game_map = parse_map(data, source)
    if game_map.id != path.stem:
        raise MapError(f"{source}: top level: map id '{game_map.id}' does not match the "
                       f"file name '{path.name}'")
    return game_map


def dump_map_json(data: Mapping[str, Any]) -> str:
    """The shipped text of a map file: JSON with one city, route or ticket per line, so that a
    change to the board shows as a short diff. The map scripts in maps/ write with this."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key in ("cities", "routes", "tickets"):
            lines.append(f"  {json.dumps(key)}: [")
            for j, entry in enumerate(value):
                lines.append(f"    {json.dumps(entry, ensure_ascii=False)}" + ("," if j < len(value) - 1 else ""))
            lines.append(f"  ]{comma}")
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def load_map(map_id_or_path: str | os.PathLike) -> GameMap:
    """Load and validate a map: an id ("europe" -> maps/europe.json) or a path to a .json file.

    Results are cached per resolved path. Ids are checked against ``[a-z0-9_]``; pass
    player input through :func:`available_maps` rather than as a path."""
    # Fast path: the engine asks for a map by id on every action.
    cached = _BY_ID.get(map_id_or_path) if isinstance(map_id_or_path, str) else None
    if cached is not None:
        return cached
    game_map = _load_uncached(map_id_or_path)
    if isinstance(map_id_or_path, str) and _ID_RE.fullmatch(map_id_or_path):
        _BY_ID[map_id_or_path] = game_map
    return game_map


_BY_ID: dict[str, GameMap] = {}


def _load_uncached(map_id_or_path: str | os.PathLike) -> GameMap:
    if isinstance(map_id_or_path, os.PathLike):
        path = Path(map_id_or_path)
    else:
        text = str(map_id_or_path)
        if text.endswith(".json") or "/" in text or os.sep in text:
            path = Path(text)
        else:
            if not _ID_RE.fullmatch(text):
                raise MapError(f"maps/{text}.json: '{text}' is not a map id (lowercase letters, "
                               f"digits and '_'); available: {', '.join(available_maps())}")
            path = MAPS_DIR / f"{text}.json"
            if not path.is_file():
                raise MapError(f"maps/{text}.json: no such map '{text}'; available: "
                               f"{', '.join(available_maps())}")
    return _load_path(str(path.resolve()))
