"""Words for the roll and the re-roll (engine/rules/dice/roll.py), and what a dice table shows:
the roll of whoever is playing, everyone's tokens, the supply."""

from __future__ import annotations

from collections import Counter

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, joined, presents, public
from bot_app.presentation.words.dice_faces import TOKEN_KINDS, marks, roll_text, tokens_held, tokens_text
from bot_app.presentation.words.tickets import announced_mix
from engine.actions import Action
from engine.rules.dice.purse import DiceView
from engine.rules.dice.roll import DiceRoll, DiceRolled, RerollDice


def rolled(e: Event, c: Ctx, who: str) -> str | None:
    roll = e.of(DiceRolled)
    if roll is None:
        return None
    faces = roll_text(roll.dice, c.lang)
    return "🎲 " + c.say("dice.rerolled" if roll.reroll else "dice.rolled", who, faces=faces)


def reroll_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, RerollDice)
    part = c.view.part(DiceView) if c.view is not None else None
    seat = c.view.current if c.view is not None else None
    rolled_now = list(part.unused[seat]) if part is not None and seat is not None else []
    left = Counter(rolled_now)
    left.subtract(Counter(a.keep))
    n = sum(v for v in left.values() if v > 0) if rolled_now else None
    if not a.keep:
        return c.n("dice.label.reroll_all", n) if n else c.t("dice.label.reroll_yours")
    again = c.n("dice.label.reroll_others", n) if n else c.t("dice.label.reroll_the_others")
    return c.t("dice.label.keep", kept=marks(a.keep), again=again)


def dice_waiting(c: Ctx, who: str) -> str:
    return c.t("waiting.dice_roll", who=who)


def action_waiting(c: Ctx, who: str) -> str:
    with_station = c.rules.module("stations") is not None
    return c.t("waiting.dice_action_station" if with_station else "waiting.dice_action", who=who)


@presents(DiceRoll)
class DiceRollWords(Words):
    events = {"dice_rolled": public(rolled)}
    actions = {"reroll_dice": Doing(reroll_label, "Re-roll", "🎲", "primary", key="button.reroll")}
    waiting = {"dice_roll": dice_waiting, "dice_action": action_waiting}

    def status(self, c: Ctx, seat: int) -> list[str]:
        part = c.v.part(DiceView)
        held = part.tokens[seat] if part is not None and seat < len(part.tokens) else {}
        return [tokens_text(held, c.lang)]

    def table(self, c: Ctx) -> list[str]:
        part = c.v.part(DiceView)
        if part is None:
            return []
        out = []
        seat = c.v.current
        if 0 <= seat < len(part.unused) and part.unused[seat] and c.v.status == "playing":
            out.append("🎲 " + c.t("dice.their_dice", who=c.name(seat), faces=roll_text(part.unused[seat], c.lang)))
        supply = " · ".join(f"{c.lang.number(n)} {c.t(f'dice.kind.{k}') if k in TOKEN_KINDS else k}"
                            for k, n in part.supply.items())
        out.append(c.t("dice.supply", supply=supply))
        return out

    def hand(self, c: Ctx) -> list[str]:
        part = c.v.part(DiceView)
        if part is None or c.v.you is None:
            return []
        mine = part.unused[c.v.you]
        lines = ["🎲 " + c.t("dice.your_dice", faces=roll_text(mine, c.lang))] if mine else []
        lines = lines or ["🎲 " + c.t("dice.rolled_at_turn_start")]
        held = part.tokens[c.v.you]
        mine_held = tokens_held(held, c.lang) if any(held.values()) else c.t("dice.tokens_none")
        lines.append("🪙 " + c.t("dice.your_tokens", tokens=mine_held))
        return lines

    def at_hand(self, c: Ctx) -> list[str]:
        return self.hand(c)

    def turn_intro(self, c: Ctx) -> str:
        return c.t("rules.dice.turn_intro")

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        return {"dice": [c.t("rules.dice.roll"), c.t("rules.dice.kinds"), _action_paragraph(c)]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.t("rules.overview.dice")]


def _action_paragraph(c: Ctx) -> str:
    """The one action of a dice turn, as this rule set has them (a station only on a board with
    stations)."""
    mix = announced_mix(c)
    actions = [c.t("rules.dice.action.claim"),
               c.t("rules.dice.action.tickets_mix", mix=mix) if mix else c.t("rules.dice.action.tickets")]
    if c.rules.module("stations") is not None:
        actions.append(c.t("rules.dice.action.station"))
    return c.t("rules.dice.actions", actions=joined(actions, c.t("rules.word.or")))
