"""Words shared by every way of claiming a route (engine/rules/routes.py: placing the trains
and scoring the route, whoever calls it)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Event, count_of, data


def points(e: Event) -> str:
    return f"+{count_of(data(e, 'points'))}"


def route_claimed(e: Event, c: Ctx, who: str) -> str:
    """"Ann claimed Paris – Wien (3 red) with 3 red (+4)"; without the payment when the
    event has none (dice say what paid in the event before)."""
    payment = data(e, "payment") or {}
    if payment:
        return c.say("routes.claimed_with", who, route=c.route(data(e, "route")), cards=c.cards(payment),
                     points=points(e))
    return c.say("routes.claimed", who, route=c.route(data(e, "route")), points=points(e))
