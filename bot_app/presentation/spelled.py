"""Autocomplete by any spelling of a city: "Munich" offers the routes of München, "Вена" offers
Wien. The suggestion keeps the board's printed name and adds the spelling that was typed:
"Wien (Vienna)", "München – Wien (3 orange) · Munich".

The other spellings are the map file's aliases and maps/<id>/aliases.json (bot_app.presentation.names
builds them once per map). A typed text matches a label as before (folded, anywhere in it) or,
failing that, when it is part of one city's spelling, or of a route's two cities' spellings run
together in either order ("Vienna - Mun" -> "viennamun" in "viennamunich"): a few dozen short
strings per route, for at most a few hundred labels.
"""

from __future__ import annotations

import functools

from bot_app.presentation.names import names_of
from engine.maps import GameMap, fold

Pairs = list[tuple[str, str]]


@functools.lru_cache(maxsize=32)
def _spelled(game_map: GameMap) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """City id -> (folded spelling, the spelling to show or None for the printed name)."""
    others = names_of(game_map).other_names
    return {cid: ((fold(city.name), None), *((fold(t), t) for t in others[cid] if fold(t)))
            for cid, city in game_map.cities.items()}


def city_hint(game_map: GameMap, key: str, city_id: str) -> str | None:
    """The spelling (not the printed name) of the city that the folded typed `key` is part
    of; None when none is, or the printed name is."""
    for folded, shown in _spelled(game_map).get(city_id, ()):
        if key in folded:
            return shown
    return None


def route_hint(game_map: GameMap, key: str, route_id: str) -> str | None:
    """The spellings ("Munich", "Vienna, Munich") under which the folded typed `key` is part of
    the route's two cities run together ("" for the printed names); None when it is not."""
    r = game_map.routes[route_id]
    table = _spelled(game_map)
    for first, second in ((r.a, r.b), (r.b, r.a)):
        for fa, sa in table[first]:
            for fb, sb in table[second]:
                if key not in fa + fb:
                    continue
                # The spellings the typed text touches: one city's, or both when it spans them.
                used = [sa] if key in fa else [sb] if key in fb else [sa, sb]
                # "" when the printed names alone spell it ("wien - mun"): the plain label.
                return ", ".join(s for s in used if s is not None)
    return None


def cities(game_map: GameMap, pairs: Pairs, current: str) -> Pairs:
    """(label, city id) pairs that the typed text matches, by the label or by a spelling
    ("Wien (Vienna)")."""
    key = fold(current or "")
    out: Pairs = []
    for label, cid in pairs:
        if not key or key in fold(label) or key in fold(cid):
            out.append((label, cid))
        elif cid in game_map.cities and (hint := city_hint(game_map, key, cid)) is not None:
            out.append((f"{label} ({hint})", cid))
    return out


def routes(game_map: GameMap, pairs: Pairs, current: str) -> Pairs:
    """(label, route id) pairs that the typed text matches, by the label or by the cities'
    spellings ("München – Wien (3 orange) · Munich")."""
    key = fold(current or "")
    out: Pairs = []
    for label, rid in pairs:
        if not key or key in fold(label) or key in fold(rid):
            out.append((label, rid))
        elif rid in game_map.routes and (hint := route_hint(game_map, key, rid)) is not None:
            out.append((f"{label} · {hint}" if hint else label, rid))
    return out
