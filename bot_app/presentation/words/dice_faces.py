"""How dice and tokens read (engine/rules/dice/faces.py): each face with its own mark, a roll,
a payment of faces and tokens — in the reader's language when a `Language` is passed
(`dice.face.<face>`, `dice.die.<face>`, `dice.token.<kind>`; docs/languages.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot_app.lang import Language, english

FACE_MARK = {"single": "1️⃣", "double": "2️⃣", "station": "🏠", "wild": "🌈", "tunnel": "⛰️", "blank": "▫️"}
FACE_ORDER = ("single", "double", "station", "wild", "tunnel", "blank")
TOKEN_KINDS = ("single", "double")


def _lang(words: Language | None) -> Language:
    return words if words is not None else english()


def face(name: Any, words: Language | None = None) -> str:
    """One face: "1️⃣ single"."""
    if not isinstance(name, str):
        return "🎲 ?"
    w = _lang(words)
    return f"{FACE_MARK.get(name, '🎲')} {w.t(f'dice.face.{name}') if name in FACE_MARK else name}"


def roll_text(faces: Iterable[Any], words: Language | None = None) -> str:
    """A roll, face by face in the order rolled: "1️⃣ single · 2️⃣ double · 🌈 wild"."""
    shown = [face(x, words) for x in faces]
    return " · ".join(shown) if shown else _lang(words).t("dice.no_dice")


def marks(faces: Iterable[Any]) -> str:
    """A few faces, short and in face order: "1️⃣1️⃣🌈"."""
    shown = sorted((x for x in faces if isinstance(x, str)),
                   key=lambda x: FACE_ORDER.index(x) if x in FACE_ORDER else len(FACE_ORDER))
    return "".join(FACE_MARK.get(x, "🎲") for x in shown)


def tokens_of(n: int, kind: str | None, words: Language | None = None) -> str:
    """"2 single tokens", "1 token" (a kind the rules do not name: just tokens)."""
    w = _lang(words)
    return w.n(f"dice.token.{kind}" if kind in TOKEN_KINDS else "dice.token", n)


def faces_paid(payment: Any, token_kind: str | None = None, words: Language | None = None) -> str:
    """A payment of faces and tokens: "2 single dice, 1 wild die and 1 double token"."""
    w = _lang(words)
    items = dict(payment.items() if isinstance(payment, Mapping) else payment or ())
    parts = []
    for name in sorted(items, key=lambda k: FACE_ORDER.index(k) if k in FACE_ORDER else 99):
        n = items[name]
        if not n:
            continue
        if name == "token":
            parts.append(tokens_of(n, token_kind, w))
        elif name in FACE_MARK:
            parts.append(w.n(f"dice.die.{name}", n))
        else:
            parts.append(f"{w.number(n)} {name}")
    return _joined(parts, w) or w.t("dice.paid_nothing")


def _joined(parts: list[str], w: Language) -> str:
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {w.t('word.and')} " + parts[-1]


def tokens_held(held: Mapping[str, int], words: Language | None = None) -> str:
    """A player's tokens without the mark: "1 single, 2 double" ("no tokens")."""
    w = _lang(words)
    shown = [f"{w.number(n)} {w.t(f'dice.kind.{k}') if k in TOKEN_KINDS else k}" for k, n in held.items() if n]
    return ", ".join(shown) if shown else w.t("dice.no_tokens")


def tokens_text(held: Mapping[str, int], words: Language | None = None) -> str:
    """A player's tokens: "🪙 1 single, 2 double" ("🪙 no tokens")."""
    return "🪙 " + tokens_held(held, words)
