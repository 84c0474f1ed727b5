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
from bot_app import lang
from bot_app.presentation import text
from bot_app.presentation.posts import Message
from bot_app.presentation.text import MAX_CONTENT
from bot_app.presentation.words import Ctx, wording
from engine.actions import DrawCard
from engine.cards import cards
from engine.view import View

TURN_KEYS = ("plan.turn.next", "plan.turn.after")  # "Your next turn", "The turn after"


def _ctx(view: View) -> Ctx:
    """The words of the plan's game, in its player's language (the reader being answered, else
    the table's)."""
    return wording(view).ctx(view)


def condition_words(cond: Condition, view: View) -> str:
    """A condition as a phrase after "if" ("Denver – Omaha is still free")."""
    c = _ctx(view)
    bounds = _bounds(cond, c)
    if cond.kind == "always":
        phrase = c.t("plan.cond.always")
    elif cond.kind == "route_free":
        if cond.negate:
            return c.t("plan.cond.route_taken", route=c.route(cond.route))
        phrase = c.t("plan.cond.route_free", route=c.route(cond.route))
    elif cond.kind == "face_up":
        phrase = (c.t("plan.cond.face_up_count", bounds=bounds, card=_card(cond.colour, c)) if bounds
                  else c.t("plan.cond.face_up", card=_card(cond.colour, c)))
    elif cond.kind == "cards":
        if cond.colour:
            phrase = c.t("plan.cond.cards_colour", bounds=bounds or c.t("plan.bounds.any"), card=_card(cond.colour, c))
        else:
            phrase = c.t("plan.cond.cards", bounds=bounds or c.t("plan.bounds.any"))
    elif cond.kind == "tickets_left":
        key = "plan.cond.tickets_left_deck" if cond.deck else "plan.cond.tickets_left"
        phrase = c.t(key, bounds=bounds or c.t("plan.bounds.any"), deck=cond.deck or "")
    elif cond.kind == "trains_left":
        key = "plan.cond.trains_mine" if cond.whose == "me" else "plan.cond.trains_anyone"
        phrase = c.t(key, bounds=bounds or c.t("plan.bounds.any"))
    else:
        phrase = cond.kind.replace("_", " ")
    return c.t("plan.cond.not", phrase=phrase) if cond.negate else phrase


def move_words(move: PlanMove, view: View) -> str:
    """A planned move as a short imperative ("draw a face-up red card", "claim …")."""
    c = _ctx(view)
    data = move.action
    if move.type == DrawCard.TYPE:
        colour = data.get("colour")
        return c.t("plan.move.face_up", card=_card(str(colour), c)) if colour else c.t("plan.move.blind")
    if view.you is not None:
        stand_in = {k: v for k, v in data.items() if k != "colour"}
        action = resolve(PlanMove(stand_in), view, view.you)
        if action is not None:
            return text.describe_action(action, view)
    return move.type.replace("_", " ")


def moves_words(moves: tuple[PlanMove, ...], view: View) -> str:
    return _ctx(view).t("plan.then").join(move_words(m, view) for m in moves)


def plan_lines(plan: Plan, view: View) -> list[str]:
    """A turn's plan, one line per step and the fallback."""
    c = _ctx(view)
    lines = [c.t("plan.step", i=str(i), cond=condition_words(s.condition, view), moves=moves_words(s.moves, view))
             for i, s in enumerate(plan.steps, 1)]
    if plan.fallback:
        key = "plan.otherwise" if plan.steps else "plan.always"
        lines.append(c.t(key, moves=moves_words(plan.fallback, view)))
    else:
        lines.append(c.t("plan.otherwise_nothing"))
    return lines


def book_text(book: PlanBook, view: View, game_id: int) -> str:
    """All of a player's plans in a game (for `/ttr plan view`)."""
    c = _ctx(view)
    if not book.plans:
        return c.t("plan.none", game=f"#{game_id}", button=c.t("button.plan"))
    lines = [c.t("plan.head", game=f"#{game_id}")]
    for key, plan in zip(TURN_KEYS, book.plans, strict=False):
        lines.append(f"**{c.t(key)}**")
        lines += plan_lines(plan, view)
    lines.append(c.t("plan.runs"))
    return "\n".join(lines)


def plan_dm(delivery: Delivery, hand: HandData) -> Message:
    """The private line to a planner: which step of their plan ran and what it did, or that none
    applied (then the usual turn message follows). In their language, else the table's."""
    with lang.reading(lang.for_reader(hand.settings.language, lang.table_language(hand.view.options))) as words:
        g = hand.summary.game_id
        where = f" (<#{hand.summary.thread_id}>)" if hand.summary.thread_id else ""
        step = delivery.payload.get("step")
        if step is None:
            lines = [words.t("plan.dm.none", game=f"#{g}", where=where)]
        else:
            which = words.t("plan.dm.fallback") if step == "fallback" else words.t("plan.dm.step", step=str(step))
            lines = [words.t("plan.dm.played", game=f"#{g}", where=where, which=which)]
            lines += text.you_lines(list(hand.private_events), hand.view)
            if not delivery.payload.get("finished"):
                lines.append(words.t("plan.dm.rest"))
        lines.append(text.hand_text(hand.view, g))
    messages = text.split([x for x in lines if x], MAX_CONTENT)
    return Message(messages[0], [], more=messages[1:])


def _bounds(cond: Condition, c: Ctx) -> str:
    low, high = cond.at_least, cond.at_most
    if low is not None and high is not None:
        return f"{low}" if low == high else c.t("plan.bounds.between", low=str(low), high=str(high))
    if low is not None:
        return c.t("plan.bounds.at_least", low=str(low))
    if high is not None:
        return c.t("plan.bounds.at_most", high=str(high))
    return ""


def _card(colour: str | None, c: Ctx) -> str:
    """A colour as the conditions name it: English says "red", "locomotive" before "cards";
    the other languages take the card's own plural name."""
    if c.lang.code == lang.ENGLISH:
        return "locomotive" if colour == "loco" else str(colour)
    return c.card(colour, 2)


def payment_words(payment: Mapping[str, Any], view: View | None = None) -> str:
    """A stated payment in words ("2 blue and 1 locomotive")."""
    if view is None:
        from engine.cards import describe

        return describe(dict(cards(payment)))
    return _ctx(view).cards(dict(cards(payment)))
