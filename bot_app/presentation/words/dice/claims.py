"""Words for claiming a route with dice (engine/rules/dice/claims.py), and the tunnel dice a
claim may roll (engine/rules/dice/tunnels.py `begin_dice_tunnel`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot_app.presentation.words.base import YOU, Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.dice_faces import faces_paid, roll_text
from bot_app.presentation.words.routes import points, route_claimed
from engine.actions import Action, ClaimRoute
from engine.rules.dice.claims import DiceClaims, DicePaid
from engine.rules.dice.faces import MAX_LENGTH, TOKEN, route_type
from engine.rules.dice.tunnels import TunnelDiceRolled, TunnelExtraPaid
from engine.rules.routes import RouteClaimed
from engine.rules.tunnels import TunnelAbandoned


def kind_of(c: Ctx, route_id: object) -> str | None:
    r = c.gmap.routes.get(route_id) if isinstance(route_id, str) else None
    return route_type(c.gmap, r) if r is not None else None


def paid_text(c: Ctx, paid: DicePaid | TunnelExtraPaid) -> str:
    return faces_paid(paid.payment, kind_of(c, paid.route), c.lang)


def dice_paid(e: Event, c: Ctx, who: str) -> str | None:
    paid = e.of(DicePaid)
    if paid is None:
        return None
    return c.say("dice.laid", who, paid=paid_text(c, paid), route=c.route(paid.route))


def extra_text(rolled: TunnelDiceRolled, c: Ctx) -> str:
    return c.n("dice.extra_to_pay", rolled.extra) if rolled.extra else c.t("dice.nothing_more")


def tunnel_dice(e: Event, c: Ctx, who: str) -> str | None:
    rolled = e.of(TunnelDiceRolled)
    if rolled is None:
        return None
    faces = roll_text(rolled.dice, c.lang)
    return c.say("dice.tunnel_rolled", who, route=c.route(rolled.route), faces=faces, extra=extra_text(rolled, c))


def paid_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    paid, claim = first.of(DicePaid), second.of(RouteClaimed)
    if paid is None or claim is None or paid.route != claim.route:
        return None
    return c.say("dice.claimed_with", who, route=c.route(claim.route), paid=paid_text(c, paid),
                 points=points(claim))


def paid_then_tunnel(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    paid, rolled = first.of(DicePaid), second.of(TunnelDiceRolled)
    if paid is None or rolled is None or paid.route != rolled.route:
        return None
    return c.say("dice.tunnel_tried", who, route=c.route(paid.route), paid=paid_text(c, paid),
                 faces=roll_text(rolled.dice, c.lang), extra=extra_text(rolled, c))


def paid_tunnel_claimed(es: Sequence[Event], c: Ctx, who: str) -> str | None:
    paid, rolled, claim = es[0].of(DicePaid), es[1].of(TunnelDiceRolled), es[2].of(RouteClaimed)
    if paid is None or rolled is None or claim is None or not paid.route == rolled.route == claim.route:
        return None
    extra = rolled.extra
    then = c.n("dice.extra_paid", extra) if extra else c.t("dice.nothing_more")
    return c.say("dice.tunnel_claimed_with", who, route=c.route(paid.route), paid=paid_text(c, paid),
                 points=points(claim), faces=roll_text(rolled.dice, c.lang), then=then)


def rolled_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    rolled, claim = first.of(TunnelDiceRolled), second.of(RouteClaimed)
    if rolled is None or claim is None or rolled.route != claim.route:
        return None
    extra = rolled.extra
    key = "dice.tunnel_rolled_paid_claimed" if extra else "dice.tunnel_rolled_claimed"
    return c.say(key, who, route=c.route(rolled.route), faces=roll_text(rolled.dice, c.lang),
                 extra=extra, points=points(claim))


def dice_claimed(e: Event, c: Ctx, who: str) -> str | None:
    """A claim told on its own: with dice that is a tunnel whose extra was just paid (a claim
    is otherwise told with the dice laid for it, just before)."""
    claim = e.of(RouteClaimed)
    if claim is None:
        return None
    r = c.gmap.routes.get(claim.route)
    if r is not None and r.tunnel:
        return c.say("dice.tunnel_extra_claimed", who, route=c.route(claim.route), points=points(claim))
    return route_claimed(e, c, who)


def tunnel_abandoned(e: Event, c: Ctx, who: str) -> str | None:
    gave_up = e.of(TunnelAbandoned)
    if gave_up is None:
        return None
    back = "; " + c.t("dice.tokens_back.your" if who == YOU else "dice.tokens_back.their") \
        if gave_up.payment.get(TOKEN) else ""
    key = "dice.tunnel_unpaid" if gave_up.reason == "cannot_pay" else "dice.tunnel_given_up"
    return c.say(key, who, route=c.route(gave_up.route), back=back)


def claim_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, ClaimRoute)
    return c.t("dice.label.claim", route=c.route(a.route), paid=faces_paid(a.payment, kind_of(c, a.route), c.lang))


@presents(DiceClaims)
class DiceClaimWords(Words):
    events = {"dice_paid": public(dice_paid), "tunnel_dice_rolled": public(tunnel_dice),
              "tunnel_abandoned": public(tunnel_abandoned), "route_claimed": public(dice_claimed)}
    folds = {("dice_paid", "route_claimed"): paid_then_claimed, ("dice_paid", "tunnel_dice_rolled"): paid_then_tunnel,
             ("tunnel_dice_rolled", "route_claimed"): rolled_then_claimed}
    chains = {("dice_paid", "tunnel_dice_rolled", "route_claimed"): paid_tunnel_claimed}
    actions = {"claim_route": Doing(claim_label, "Claim", "🚂", "success", key="button.claim")}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("dice.option.claim")]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        text = [c.n("rules.dice.claiming", MAX_LENGTH)]
        longer = [r for r in c.gmap.routes.values() if r.length > MAX_LENGTH]
        for r in longer:
            n = c.rules.length(r)
            name = f"{c.gmap.city_label(r.a)} – {c.gmap.city_label(r.b)}"
            text.append(c.n("rules.dice.counts_as", n, route=name, points=c.gmap.points_for(n)) if n <= MAX_LENGTH
                        else c.t("rules.dice.no_claim", route=name))
        out = {"claiming": text}
        closed = [r for r in longer if c.rules.length(r) > MAX_LENGTH]
        if closed:
            out["scoring"] = [c.t("rules.dice.never_scored", routes=c.joined(
                f"{c.gmap.city_label(r.a)} – {c.gmap.city_label(r.b)} ({c.lang.number(r.length)} → "
                f"{c.lang.number(c.gmap.points_for(r.length))})" for r in closed))]
        if any(r.is_ferry for r in c.gmap.routes.values()):
            out["ferries"] = [c.t("rules.dice.ferries")]
        return out
