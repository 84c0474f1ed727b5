"""Planned moves in words (issue 29): a plan as its player reads it, and the private line that
tells them which step ran. PRIVATE: everything here is for the plan's own player only (an
ephemeral answer or a DM), never a thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.models import Delivery, HandData
from app.plans import Condition, Plan, PlanBook, PlanMove
from app.plans.run import resolve
from bot_app import text
from bot_app.posts import Message
from bot_app.text import MAX_CONTENT
from engine.actions import DrawCard
from engine.cards import cards, describe
from engine.view import View

TURN_NAMES = ("Your next turn", "The turn after")


def condition_words(cond: Condition, view: View) -> str:
    """A condition as a phrase after "if" ("Denver – Omaha is still free")."""
    gmap = text.game_map(view)
    bounds = _bounds(cond)
    if cond.kind == "always":
        phrase = "always"
    elif cond.kind == "route_free":
        phrase = f"{text.route_label(gmap, cond.route)} is still free"
        if cond.negate:
            return f"{text.route_label(gmap, cond.route)} is taken"
    elif cond.kind == "face_up":
        phrase = (f"{bounds} face-up {_card(cond.colour)} cards are shown" if bounds
                  else f"a face-up {_card(cond.colour)} card is shown")
    elif cond.kind == "cards":
        what = f"{_card(cond.colour)} cards" if cond.colour else "cards"
        phrase = f"you hold {bounds or 'any'} {what}"
    elif cond.kind == "tickets_left":
        pile = f"in the {cond.deck} pile" if cond.deck else "in the pile"
        phrase = f"{bounds or 'any'} destination tickets are left {pile}"
    elif cond.kind == "trains_left":
        whose = "you have" if cond.whose == "me" else "someone has"
        phrase = f"{whose} {bounds or 'any'} trains left"
    else:
        phrase = cond.kind.replace("_", " ")
    return f"not ({phrase})" if cond.negate else phrase


def move_words(move: PlanMove, view: View) -> str:
    """A planned move as a short imperative ("draw a face-up red card", "claim …")."""
    data = move.action
    if move.type == DrawCard.TYPE:
        colour = data.get("colour")
        return f"take a face-up {_card(str(colour))} card" if colour else "draw a card blind"
    if view.you is not None:
        stand_in = {k: v for k, v in data.items() if k != "colour"}
        action = resolve(PlanMove(stand_in), view, view.you)
        if action is not None:
            return text.describe_action(action, view)
    return move.type.replace("_", " ")


def moves_words(moves: tuple[PlanMove, ...], view: View) -> str:
    return ", then ".join(move_words(m, view) for m in moves)


def plan_lines(plan: Plan, view: View) -> list[str]:
    """A turn's plan, one line per step and the fallback."""
    lines = [f"{i}. If {condition_words(s.condition, view)}: {moves_words(s.moves, view)}."
             for i, s in enumerate(plan.steps, 1)]
    if plan.fallback:
        lines.append(f"{'Otherwise' if plan.steps else 'Always'}: {moves_words(plan.fallback, view)}.")
    else:
        lines.append("Otherwise: nothing — the plan is dropped and you are asked as usual.")
    return lines


def book_text(book: PlanBook, view: View, game_id: int) -> str:
    """All of a player's plans in a game (for `/ttr plan view`)."""
    if not book.plans:
        return (f"You have no plan in game #{game_id}. Write one with `/ttr plan set`, or press **Plan my next "
                "turn** under the turn post.")
    lines = [f"🗒️ **Your plan in game #{game_id}** (only you see it):"]
    for name, plan in zip(TURN_NAMES, book.plans, strict=False):
        lines.append(f"**{name}:**")
        lines += plan_lines(plan, view)
    lines.append("It runs the moment that turn arrives: the first step whose condition holds and whose move is "
                 "legal then. Change it with `/ttr plan set`, drop it with `/ttr plan cancel`.")
    return "\n".join(lines)


def plan_dm(delivery: Delivery, hand: HandData) -> Message:
    """The private line to a planner: which step of their plan ran and what it did, or that none
    applied (then the usual turn message follows)."""
    g = hand.summary.game_id
    where = f" (<#{hand.summary.thread_id}>)" if hand.summary.thread_id else ""
    step = delivery.payload.get("step")
    if step is None:
        lines = [f"🗒️ Game #{g}{where}: none of your plan's steps applied when your turn came, so the plan is "
                 "dropped — it's your turn as usual."]
    else:
        which = "its fallback" if step == "fallback" else f"step {step}"
        lines = [f"🗒️ Game #{g}{where}: your plan played your turn ({which})."]
        lines += text.you_lines(list(hand.private_events), hand.view)
        if not delivery.payload.get("finished"):
            lines.append("The rest of this turn is yours: the plan did not say it (or its next move was not "
                         "possible then).")
    lines.append(text.hand_text(hand.view, g))
    messages = text.split([x for x in lines if x], MAX_CONTENT)
    return Message(messages[0], [], more=messages[1:])


def _bounds(cond: Condition) -> str:
    low, high = cond.at_least, cond.at_most
    if low is not None and high is not None:
        return f"{low}" if low == high else f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


def _card(colour: str) -> str:
    return "locomotive" if colour == "loco" else colour


def payment_words(payment: Mapping[str, Any]) -> str:
    """A stated payment in words ("2 blue and 1 locomotive")."""
    return describe(dict(cards(payment)))
