"""Words for claiming a route with train cards (engine/rules/claim_route.py), and the reveal a
tunnel starts with (engine/rules/tunnels.py `begin_tunnel`, which the claim calls)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, joined, presents, public
from bot_app.presentation.words.routes import points, route_claimed
from engine.actions import Action, ClaimRoute
from engine.cards import card_word
from engine.rules.claim_route import ClaimRoutes
from engine.rules.routes import RouteClaimed
from engine.rules.tunnels import TunnelRevealed


def revealed(reveal: TunnelRevealed, c: Ctx | None = None) -> str:
    if c is not None and c.lang.code != "en":
        return c.joined(c.card(x) for x in reveal.cards) or c.t("tunnels.nothing")
    shown = [card_word(x) for x in reveal.cards]
    return joined(shown) or "nothing (the deck was empty)"


def owed(reveal: TunnelRevealed, c: Ctx) -> str:
    extra, locos = reveal.extra, reveal.locos_only
    if not extra:
        return c.t("tunnels.nothing_more")
    more = c.n("tunnels.more", extra)
    return more + (", " + c.n("tunnels.of_them_locos", locos) if locos else "")


def tunnel_revealed(e: Event, c: Ctx, who: str) -> str | None:
    reveal = e.of(TunnelRevealed)
    if reveal is None:
        return None
    return c.say("tunnels.tried", who, route=c.route(reveal.route), shown=revealed(reveal, c), owed=owed(reveal, c))


def tunnel_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    reveal, claim = first.of(TunnelRevealed), second.of(RouteClaimed)
    if reveal is None or claim is None or reveal.route != claim.route or reveal.extra:
        return None
    return c.say("tunnels.claimed", who, route=c.route(claim.route),
                 cards=c.cards(claim.payment), points=points(claim), shown=revealed(reveal, c))


def claim_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, ClaimRoute)
    return c.t("claim.label", route=c.route(a.route), cards=c.cards(a.payment))


@presents(ClaimRoutes)
class ClaimWords(Words):
    events = {"tunnel_revealed": public(tunnel_revealed), "route_claimed": public(route_claimed)}
    folds = {("tunnel_revealed", "route_claimed"): tunnel_then_claimed}
    actions = {"claim_route": Doing(claim_label, "Claim", "🚂", "success", key="button.claim")}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("rules.option.claim")]
