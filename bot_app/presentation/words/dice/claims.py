"""Words for claiming a route with dice (engine/rules/dice/claims.py), and the tunnel dice a
claim may roll (engine/rules/dice/tunnels.py `begin_dice_tunnel`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot_app.presentation.words.base import YOU, Ctx, Doing, Event, Words, count_of, data, presents, public
from bot_app.presentation.words.dice.faces import faces_paid, roll_text
from bot_app.presentation.words.routes import points, route_claimed
from engine.actions import Action, ClaimRoute
from engine.rules.dice.claims import DiceClaims
from engine.rules.dice.faces import MAX_LENGTH, TOKEN, route_type


def kind_of(c: Ctx, route_id: object) -> str | None:
    r = c.gmap.routes.get(route_id) if isinstance(route_id, str) else None
    return route_type(c.gmap, r) if r is not None else None


def paid_text(c: Ctx, e: Event) -> str:
    return faces_paid(data(e, "payment") or {}, kind_of(c, data(e, "route")), c.lang)


def dice_paid(e: Event, c: Ctx, who: str) -> str:
    return c.say("dice.laid", who, paid=paid_text(c, e), route=c.route(data(e, "route")))


def extra_text(e: Event, c: Ctx) -> str:
    extra = count_of(data(e, "extra"))
    return c.n("dice.extra_to_pay", extra) if extra else c.t("dice.nothing_more")


def tunnel_dice(e: Event, c: Ctx, who: str) -> str:
    faces = roll_text(data(e, "dice") or [], c.lang)
    return c.say("dice.tunnel_rolled", who, route=c.route(data(e, "route")), faces=faces, extra=extra_text(e, c))


def paid_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return c.say("dice.claimed_with", who, route=c.route(data(second, "route")), paid=paid_text(c, first),
                 points=points(second))


def paid_then_tunnel(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return c.say("dice.tunnel_tried", who, route=c.route(data(first, "route")), paid=paid_text(c, first),
                 faces=roll_text(data(second, "dice") or [], c.lang), extra=extra_text(second, c))


def paid_tunnel_claimed(es: Sequence[Event], c: Ctx, who: str) -> str | None:
    paid, rolled, claimed = es
    if not data(paid, "route") == data(rolled, "route") == data(claimed, "route"):
        return None
    extra = count_of(data(rolled, "extra"))
    then = c.n("dice.extra_paid", extra) if extra else c.t("dice.nothing_more")
    return c.say("dice.tunnel_claimed_with", who, route=c.route(data(paid, "route")), paid=paid_text(c, paid),
                 points=points(claimed), faces=roll_text(data(rolled, "dice") or [], c.lang), then=then)


def rolled_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    extra = count_of(data(first, "extra"))
    key = "dice.tunnel_rolled_paid_claimed" if extra else "dice.tunnel_rolled_claimed"
    return c.say(key, who, route=c.route(data(first, "route")), faces=roll_text(data(first, "dice") or [], c.lang),
                 extra=extra, points=points(second))


def dice_claimed(e: Event, c: Ctx, who: str) -> str:
    """A claim told on its own: with dice that is a tunnel whose extra was just paid (a claim
    is otherwise told with the dice laid for it, just before)."""
    route = data(e, "route")
    r = c.gmap.routes.get(route) if isinstance(route, str) else None
    if r is not None and r.tunnel:
        return c.say("dice.tunnel_extra_claimed", who, route=c.route(route), points=points(e))
    return route_claimed(e, c, who)


def tunnel_abandoned(e: Event, c: Ctx, who: str) -> str:
    laid = dict(data(e, "payment") or {})
    back = "; " + c.t("dice.tokens_back.your" if who == YOU else "dice.tokens_back.their") if laid.get(TOKEN) else ""
    key = "dice.tunnel_unpaid" if data(e, "reason") == "cannot_pay" else "dice.tunnel_given_up"
    return c.say(key, who, route=c.route(data(e, "route")), back=back)


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
