"""Words shared by every way of claiming a route (engine/rules/routes.py: placing the trains
and scoring the route, whoever calls it)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Event
from engine.rules.routes import RouteClaimed


def points(claim: RouteClaimed) -> str:
    return f"+{claim.points}"


def route_claimed(e: Event, c: Ctx, who: str) -> str | None:
    """"Ann claimed Paris – Wien (3 red) with 3 red (+4)"; without the payment when the
    event has none (dice say what paid in the event before)."""
    claim = e.of(RouteClaimed)
    if claim is None:
        return None
    if claim.payment:
        return c.say("routes.claimed_with", who, route=c.route(claim.route), cards=c.cards(claim.payment),
                     points=points(claim))
    return c.say("routes.claimed", who, route=c.route(claim.route), points=points(claim))
