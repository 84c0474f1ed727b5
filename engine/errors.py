"""The one error type a player ever sees from the engine."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow right now.

    `message` is one plain sentence meant for the player, e.g. "Oslo – Stockholm needs 4 yellow
    cards; you have 2 yellow and 1 locomotive." It never reveals another player's secrets.
    `code` is a short stable word for programs (the Discord layer uses it to pick a tone).
    Raising it never changes the game: `apply` works on a copy.
    """

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message


def excerpt(text: str, limit: int = 40) -> str:
    """Quote what a player sent, shortened to `limit` characters (ending in "…") and on one
    line, for a refusal that names it: refusals stay one short sentence whatever was sent."""
    shown = "".join(ch if ch.isprintable() else " " for ch in text[:limit + 1])
    if len(shown) > limit:
        shown = shown[:limit - 1] + "…"
    return f"'{shown}'"
