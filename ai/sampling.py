"""What sampling a hidden state needs, shared by the search's sampler (ai/agents/determinize.py)
and the rules' own samplers (each rule's advice rebuilds its part of the view: ai/advice/)."""

from __future__ import annotations


class CannotSample(Exception):
    """The view holds something the sampler does not know how to rebuild (a rule module's
    part that no advice samples, or one its advice cannot): the caller plays without
    searching."""


def deal(pool: list[str], n: int) -> list[str]:
    """n cards off the top (the end) of an already shuffled pool, taken out of it (fewer if
    the pool runs out)."""
    taken = pool[-n:] if n else []
    del pool[len(pool) - len(taken):]
    return taken
