"""Loading maps: the shipped files in maps/, read, validated and cached; and the text the map
scripts write them in."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.maps.model import ID_RE, GameMap, MapError
from engine.maps.validate import parse_map

MAPS_DIR = Path(__file__).resolve().parent.parent.parent / "maps"


def available_maps() -> list[str]:
    """Ids of the maps shipped in maps/ (sorted)."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.json"))


def _display(path: Path) -> str:
    try:
        return path.relative_to(MAPS_DIR.parent).as_posix()
    except ValueError:
        return str(path)


def _no_duplicate_keys(source: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
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
        elif key == "extras" and isinstance(value, Mapping) and "drawing" in value:
            lines.append(f"  {json.dumps(key)}: {_extras_text(value)}{comma}")
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _extras_text(extras: Mapping[str, Any]) -> str:
    """`extras` as in any map file, except that each sea outline of `drawing` is one line."""
    marker = "\u0000seas\u0000"
    drawing = dict(extras["drawing"])
    seas = drawing.get("seas")
    if isinstance(seas, list):
        drawing["seas"] = marker
    text = json.dumps({**extras, "drawing": drawing}, ensure_ascii=False, indent=2).replace("\n", "\n  ")
    if isinstance(seas, list):
        body = ",".join(f"\n        {json.dumps(sea, ensure_ascii=False)}" for sea in seas)
        text = text.replace(json.dumps(marker), f"[{body}\n      ]")
    return text


def load_map(map_id_or_path: str | os.PathLike[str]) -> GameMap:
    """Load and validate a map: an id ("europe" -> maps/europe.json) or a path to a .json file.

    Results are cached per resolved path. Ids are checked against ``[a-z0-9_]``; pass
    player input through :func:`available_maps` rather than as a path."""
    # Fast path: the engine asks for a map by id on every action.
    cached = _BY_ID.get(map_id_or_path) if isinstance(map_id_or_path, str) else None
    if cached is not None:
        return cached
    game_map = _load_uncached(map_id_or_path)
    if isinstance(map_id_or_path, str) and ID_RE.fullmatch(map_id_or_path):
        _BY_ID[map_id_or_path] = game_map
    return game_map


_BY_ID: dict[str, GameMap] = {}


def _load_uncached(map_id_or_path: str | os.PathLike[str]) -> GameMap:
    if isinstance(map_id_or_path, os.PathLike):
        path = Path(map_id_or_path)
    else:
        text = str(map_id_or_path)
        if text.endswith(".json") or "/" in text or os.sep in text:
            path = Path(text)
        else:
            if not ID_RE.fullmatch(text):
                raise MapError(f"maps/{text}.json: '{text}' is not a map id (lowercase letters, "
                               f"digits and '_'); available: {', '.join(available_maps())}")
            path = MAPS_DIR / f"{text}.json"
            if not path.is_file():
                raise MapError(f"maps/{text}.json: no such map '{text}'; available: "
                               f"{', '.join(available_maps())}")
    return _load_path(str(path.resolve()))
