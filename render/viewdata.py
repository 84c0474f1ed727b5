"""Reading what the pictures need from a public `engine.game.view` dict.

The renderer only ever sees a view, never the game state, so hidden information (the deck,
other players' hands and tickets) cannot reach a picture. Module data whose exact place is
not fixed yet (Germany's passengers, Dice tokens) is looked up tolerantly here, in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def player_name(view: Mapping[str, Any], seat: int) -> str:
    """The seat's name, or "Player N"."""
    names = view.get("names") or []
    if seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Player {seat + 1}"


def scores(view: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's score as shown on the board: final totals once the game is over, route
    points before (ticket points are secret until the end)."""
    result = view.get("result")
    if result and result.get("sheets"):
        return {int(s["seat"]): int(s["total"]) for s in result["sheets"]}
    return {int(p["seat"]): int(p.get("route_points", 0)) for p in view["players"]}


def module_value(container: Mapping[str, Any] | None, key: str) -> Any:
    """`container[key]`, or `container[<module>][key]` for module data kept under its name."""
    if not isinstance(container, Mapping):
        return None
    if key in container:
        return container[key]
    for value in container.values():
        if isinstance(value, Mapping) and key in value:
            return value[key]
    return None


def _as_list(value: Any) -> list[str]:
    """A list of colours from ["red", "red"] or {"red": 2}."""
    if isinstance(value, Mapping):
        out: list[str] = []
        for colour, n in value.items():
            out += [str(colour)] * int(n)
        return out
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    if isinstance(value, str):
        return [value]
    return []


def city_passengers(view: Mapping[str, Any]) -> dict[str, list[str]] | None:
    """Germany: the passengers still waiting on each city, {city: [colour, ...]}, or None
    when the game has none. Read from ``view["extra"]["passengers"]`` (or
    ``view["extra"][module]["passengers"]``), a mapping city -> colours (list or counts)."""
    value = module_value(view.get("extra"), "passengers")
    if not isinstance(value, Mapping):
        return None
    return {str(city): _as_list(v) for city, v in value.items()}


def player_passengers(player: Mapping[str, Any]) -> dict[str, int] | None:
    """Germany: the passengers a player has collected, {colour: count}, or None. Read from
    ``player["public"]["passengers"]`` (or one level deeper, under the module's name)."""
    value = module_value(player.get("public"), "passengers")
    if value is None:
        return None
    out: dict[str, int] = {}
    for colour in _as_list(value):
        out[colour] = out.get(colour, 0) + 1
    return out


def count(value: Any) -> int:
    """A hand or ticket list as a number (the view gives counts for other players)."""
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping):
        return sum(int(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return len(value)
    return 0


def uses_stations(view: Mapping[str, Any]) -> bool:
    """Whether the rule set has stations (someone has one left, or one is built)."""
    return bool(view.get("stations")) or any(int(p.get("stations", 0)) > 0 for p in view["players"])
