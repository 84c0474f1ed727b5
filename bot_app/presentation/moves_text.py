"""Reading what a player typed for a move: a route or city name, a payment code.

Route and city names go through the bot's name index (bot_app/presentation/names.py), which is linear in
the text and refuses anything over its length limit before any work.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot_app.presentation import names
from engine.maps import GameMap

_PAYMENT_PART = re.compile(r"([a-z]{1,12})([0-9]{1,2})")


def find_key(gmap: GameMap, kind: str, target: Any) -> str | None:
    """The map id of the route or city a player typed: None when nothing was typed, "?" when
    the map knows no such name."""
    if not isinstance(target, str) or not target.strip():
        return None
    if kind == "claim_route":
        if target in gmap.routes:
            return target
        route = names.find_route(gmap, target)
        return route.id if route is not None else "?"
    city = names.find_city(gmap, target)
    return city.id if city is not None else "?"


def payment_code(payment: Mapping[str, int]) -> str:
    """A payment as an option value: "loco1.red3"."""
    return ".".join(f"{k}{v}" for k, v in sorted(payment.items()))


def parse_payment(code: str | None) -> dict[str, int] | None:
    """A payment code back into cards; None when none was given, {"?": 1} when unreadable."""
    if code is None or not code.strip():
        return None
    out: dict[str, int] = {}
    for part in code.strip().split(".")[:20]:
        m = _PAYMENT_PART.fullmatch(part.strip())
        if m is None:
            return {"?": 1}
        out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
    return out


def field_text(value: Any) -> str:
    """An action's field as text (payments as codes, lists joined by commas)."""
    if isinstance(value, dict):
        return payment_code(value)
    if isinstance(value, list | tuple):
        return ",".join(field_text(v) for v in value)
    return str(value)
