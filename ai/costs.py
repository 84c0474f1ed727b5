"""What paying costs a computer player: the cards a payment spends, weighed."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import LOCO


def card_cost(payment: Sequence[tuple[str, int]]) -> int:
    """Locomotives are worth more than coloured cards."""
    return sum(n * (3 if name == LOCO else 1) for name, n in payment)
