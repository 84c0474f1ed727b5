"""How dice and tokens read (engine/rules/dice/faces.py): each face with its own mark, a roll,
a payment of faces and tokens."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot_app.words.base import joined, plural

FACE_MARK = {"single": "1️⃣", "double": "2️⃣", "station": "🏠", "wild": "🌈", "tunnel": "⛰️", "blank": "▫️"}
FACE_ORDER = ("single", "double", "station", "wild", "tunnel", "blank")


def face(name: Any) -> str:
    """One face: "1️⃣ single"."""
    return f"{FACE_MARK.get(name, '🎲')} {name}" if isinstance(name, str) else "🎲 ?"


def roll_text(faces: Iterable[Any]) -> str:
    """A roll, face by face in the order rolled: "1️⃣ single · 2️⃣ double · 🌈 wild"."""
    shown = [face(x) for x in faces]
    return " · ".join(shown) if shown else "no dice"


def marks(faces: Iterable[Any]) -> str:
    """A few faces, short and in face order: "1️⃣1️⃣🌈"."""
    shown = sorted((x for x in faces if isinstance(x, str)),
                   key=lambda x: FACE_ORDER.index(x) if x in FACE_ORDER else len(FACE_ORDER))
    return "".join(FACE_MARK.get(x, "🎲") for x in shown)


def faces_paid(payment: Any, token_kind: str | None = None) -> str:
    """A payment of faces and tokens: "2 single dice, 1 wild die and 1 double token"."""
    items = dict(payment.items() if isinstance(payment, Mapping) else payment or ())
    parts = []
    for name in sorted(items, key=lambda k: FACE_ORDER.index(k) if k in FACE_ORDER else 99):
        n = items[name]
        if not n:
            continue
        if name == "token":
            parts.append(plural(n, f"{token_kind + ' ' if token_kind else ''}token"))
        else:
            parts.append(plural(n, f"{name} die", f"{name} dice"))
    return joined(parts) or "nothing"


def tokens_text(held: Mapping[str, int]) -> str:
    """A player's tokens: "🪙 1 single, 2 double" ("🪙 no tokens")."""
    shown = [f"{n} {k}" for k, n in held.items() if n]
    return "🪙 " + (", ".join(shown) if shown else "no tokens")
