"""Words for route tokens (engine/rules/dice/tokens.py): two unused dice buy one."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.dice_faces import TOKEN_KINDS, faces_paid, marks
from engine.actions import Action
from engine.rules.dice.faces import TOKEN_CAP, TOKEN_SUPPLY
from engine.rules.dice.tokens import BuyToken, DiceTokens, TokenTaken


def taken(e: Event, c: Ctx, who: str) -> str | None:
    took = e.of(TokenTaken)
    if took is None:
        return None
    token = c.t(f"dice.a_token.{took.token}" if took.token in TOKEN_KINDS else "dice.a_token")
    return c.say("dice.token_taken", who, token=token, paid=faces_paid(took.payment, words=c.lang))


def label(a: Action, c: Ctx) -> str:
    assert isinstance(a, BuyToken)
    faces = [name for name, n in a.payment for _ in range(n)]
    token = c.t(f"dice.a_token.{a.token}" if a.token in TOKEN_KINDS else "dice.a_token")
    return c.t("dice.label.token", token=token, marks=marks(faces), paid=faces_paid(a.payment, words=c.lang))


@presents(DiceTokens)
class TokenWords(Words):
    events = {"token_taken": public(taken)}
    actions = {
        "buy_token": Doing(label, "Token", "🪙", "primary", key="button.token"),
        "pass": Doing(lambda a, c: c.t("dice.label.no_token"), "No token", "⏭️", each=True,
                      short=lambda a, c: c.t("button.no_token"), key="button.no_token"),
    }
    waiting = {"dice_token": lambda c, who: c.t("waiting.dice_token", who=who)}

    def turn_options(self, c: Ctx) -> list[str]:
        module = self.module
        assert isinstance(module, DiceTokens)
        if module.exchanges == 1:
            return [c.t("dice.option.token_once")]
        return [c.t("dice.option.token_times", n=module.exchanges)]

    def _times(self, c: Ctx) -> str:
        module = self.module
        assert isinstance(module, DiceTokens)
        if module.exchanges == 1:
            return c.t("rules.dice.tokens.once")
        return c.n("rules.dice.tokens.times", module.exchanges)

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"dice": [c.t("rules.dice.tokens", times=self._times(c), cap=TOKEN_CAP, supply=TOKEN_SUPPLY)]}
