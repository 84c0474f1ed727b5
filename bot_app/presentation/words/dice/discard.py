"""Words for discarding route tokens (engine/rules/dice/discard.py, [D:28]): a side step of
one's own dice turn that leaves the decision open, and the end of a turn whose tunnel failed
or was given up (`dice_discard`)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.dice_faces import tokens_of
from engine.actions import Action
from engine.rules.dice.discard import DiceTokenDiscard, DiscardTokens, TokensDiscarded


def _tokens(counts: object, c: Ctx | None = None) -> str:
    held = counts if isinstance(counts, dict) else {}
    words = c.lang if c is not None else None
    parts = [tokens_of(n, kind, words) for kind, n in sorted(held.items()) if isinstance(n, int) and n > 0]
    if c is None:
        return " and ".join(parts) or "no tokens"
    return c.joined(parts) or c.t("dice.no_tokens")


def discarded(e: Event, c: Ctx, who: str) -> str | None:
    gone = e.of(TokensDiscarded)
    if gone is None:
        return None
    return c.say("dice.tokens_discarded", who, tokens=_tokens(gone.tokens, c))


def label(a: Action, c: Ctx) -> str:
    assert isinstance(a, DiscardTokens)
    return c.t("dice.label.discard", tokens=_tokens(dict(a.tokens), c))


@presents(DiceTokenDiscard)
class TokenDiscardWords(Words):
    events = {"tokens_discarded": public(discarded)}
    actions = {
        "discard_tokens": Doing(label, "Discard tokens", "🗑️", key="button.discard_tokens"),
        "pass": Doing(lambda a, c: c.t("dice.label.keep_tokens"), "Keep tokens", "✅", each=True,
                      short=lambda a, c: c.t("button.keep_tokens"), key="button.keep_tokens"),
    }
    waiting = {"dice_discard": lambda c, who: c.t("waiting.dice_discard", who=who)}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"dice": [c.t("rules.dice.discard")]}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("rules.option.discard_tokens")]
