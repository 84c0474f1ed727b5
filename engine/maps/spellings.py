"""Other spellings of a board's cities: ``maps/<id>/aliases.json``, read and checked here.

A board prints each city once, in its own language (München, Wien, Moskva, København); players
type them in theirs (Munich, Vienne, Москва, Köpenhamn). The file lists, per city and per
language, the spellings a player may type: exonyms, Cyrillic, Latin transliterations. They are
for matching typed names only: a `GameMap` never holds them, so nothing drawn or written
changes (the board keeps its printed names). Accents, case, spacing and the ue/oe/aa spellings
need no entry: `fold` and `fold_transliterated` already ignore them.

The checks (`parse_spellings`): every city named is a city of that map, every spelling is a
non-empty string, and no spelling names two cities — neither two in the file nor a city's
spelling and another city's id, printed name or map-file alias (ignoring case, accents,
spaces and punctuation, as the lookup does).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from types import MappingProxyType

from engine.maps.folding import fold
from engine.maps.load import MAPS_DIR, available_maps, load_map
from engine.maps.model import GameMap, MapError

# A language as Discord and the catalogues name it: "de", "sv", "pt-BR".
_LANGUAGE_RE = re.compile(r"[a-z]{2,3}(?:-[A-Z]{2})?")
_TOP_KEYS = {"about", "cities"}

Spellings = Mapping[str, tuple[str, ...]]
_NONE: Spellings = MappingProxyType({})


def spellings_path(map_id: str) -> str:
    """Where a shipped map's spellings file is (it may not exist)."""
    return str(MAPS_DIR / map_id / "aliases.json")


def parse_spellings(data: object, game_map: GameMap, source: str) -> Spellings:
    """City id -> its other spellings (distinct, in file order; those that fold to the city's
    own id, name or map alias are dropped), after checking `data` against the map. Raises
    `MapError` naming `source` and the bad entry."""
    if not isinstance(data, dict):
        raise MapError(f"{source}: top level: must be a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise MapError(f"{source}: top level: unknown key '{unknown[0]}'")
    if "about" in data and not isinstance(data["about"], str):
        raise MapError(f"{source}: top level: 'about' must be a string")
    cities = data.get("cities")
    if not isinstance(cities, dict):
        raise MapError(f"{source}: top level: 'cities' must be an object (city id -> spellings)")
    owners: dict[str, str] = {}  # folded key -> the city it names
    for city in game_map.cities.values():
        for text in (city.id, city.name, *city.aliases):
            owners.setdefault(fold(text), city.id)
    out: dict[str, tuple[str, ...]] = {}
    for city_id, by_language in cities.items():
        where = f"{source}: city '{city_id}'"
        if city_id not in game_map.cities:
            raise MapError(f"{where}: no such city on map '{game_map.id}'")
        if not isinstance(by_language, dict):
            raise MapError(f"{where}: must be an object (language -> list of spellings)")
        found: list[str] = []
        for language, names in by_language.items():
            if not _LANGUAGE_RE.fullmatch(language):
                raise MapError(f"{where}: '{language}' is not a language code (en, de, pt-BR)")
            if not isinstance(names, list) or not all(isinstance(n, str) and fold(n) for n in names):
                raise MapError(f"{where}: '{language}' must be a list of non-empty strings")
            for name in names:
                key = fold(name)
                owner = owners.setdefault(key, city_id)
                if owner != city_id:
                    raise MapError(f"{where}: the spelling '{name}' also names city '{owner}' "
                                   f"(a spelling may name one city only)")
                own = game_map.cities[city_id]
                if key not in {fold(t) for t in (own.id, own.name, *own.aliases)} and \
                        key not in {fold(t) for t in found}:
                    found.append(name)
        out[city_id] = tuple(found)
    return MappingProxyType(out)


@functools.cache
def _shipped(map_id: str) -> Spellings:
    path = MAPS_DIR / map_id / "aliases.json"
    if not path.is_file():
        return _NONE
    source = f"maps/{map_id}/aliases.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MapError(f"{source}: cannot read the file: {exc}") from None
    return parse_spellings(data, load_map(map_id), source)


def spellings(game_map: GameMap) -> Spellings:
    """The other spellings of a shipped board's cities (read and checked once per map); none
    for a board that is not one of maps/ as shipped (a test's small board, an edited copy)."""
    if game_map.id not in available_maps():
        return _NONE
    if load_map(game_map.id) != game_map:
        return _NONE
    return _shipped(game_map.id)
