"""Map data: the one loader and validator for ``maps/<id>.json``.

Pure Python. A map file is read (`load`), checked entry by entry (`validate`) and turned into
an immutable `GameMap` (`model`). Every problem raises `MapError` naming the file and the bad
entry. The schema and the rules checked are documented in ``maps/README.md``.
"""

from engine.maps.folding import fold
from engine.maps.load import MAPS_DIR, available_maps, dump_map_json, load_map
from engine.maps.model import (
    CITY_KINDS,
    COLOR_SYNONYMS,
    COLORS,
    DECKS,
    City,
    FrozenDict,
    GameMap,
    MapError,
    Route,
    Ticket,
)
from engine.maps.validate import parse_map

__all__ = [
    "CITY_KINDS",
    "COLORS",
    "COLOR_SYNONYMS",
    "DECKS",
    "MAPS_DIR",
    "City",
    "FrozenDict",
    "GameMap",
    "MapError",
    "Route",
    "Ticket",
    "available_maps",
    "dump_map_json",
    "fold",
    "load_map",
    "parse_map",
]
