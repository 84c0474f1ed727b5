"""Planned moves from Discord (issue 29): `/ttr plan` and the **Plan my next turn** button of the
turn post. Everything is answered privately (ephemeral): a plan is never shown to anyone else.

The button opens the player's plan with one-press plans built from what they hold now — a menu
"if <route> is still free, claim it (else draw two cards blind)" of the claims their hand pays
for, "Always draw two cards blind", "Draw tickets" — and Cancel; `/ttr plan set` takes the
short text of bot_app/presentation/plan_syntax.py for anything else.
"""

from __future__ import annotations

from typing import Any

import discord

from app.plans import Condition, Plan, PlanBook, PlanMove, Step
from bot_app import lang
from bot_app.adapter.buttons import _Family
from bot_app.adapter.desk import Desk
from bot_app.presentation import ids, plan_syntax, plan_words, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import button, select, view_of
from bot_app.presentation.moves_text import parse_payment, payment_code
from bot_app.presentation.plan_button import PLAN
from engine.actions import ClaimRoute
from engine.view import View

PLAN_VERBS = (PLAN, "psel", "pblind", "ptix", "pcancel")
BLIND_TWICE = (PlanMove({"type": "draw_card"}), PlanMove({"type": "draw_card"}))
# With the Dice Expansion there are no train cards: no action, and no token either.
NO_ACTION = (PlanMove({"type": "pass"}), PlanMove({"type": "pass"}))
MENU_SIZE = 25


async def show(desk: Desk, interaction: discord.Interaction, game_id: int, said: str = "") -> None:
    """The caller's plan, privately, with the one-press plans."""
    user = interaction.user.id
    book = await desk.service.plans.plans_of(game_id, user)
    view = await desk.service.reads.view(game_id, user)
    claims = await desk.service.plans.plan_claims(game_id, user)
    gmap = text.game_map(view)
    words = lang.reader()
    c = plan_words._ctx(view)
    items: list[discord.ui.Item[Any]] = []
    if claims:
        seen: set[str] = set()
        options: list[tuple[str, str, str | None]] = []
        for a in claims:
            if a.route in seen or len(options) >= MENU_SIZE:
                continue
            seen.add(a.route)
            pay = plan_words.payment_words(dict(a.payment), view)
            key = "plan.panel.with_tunnel" if gmap.routes[a.route].tunnel else "plan.panel.with"
            options.append((c.route(a.route), f"{a.route}|{payment_code(dict(a.payment))}", words.t(key, payment=pay)))
        items.append(select(ids.make(game_id, None, "psel"), options, words.t("plan.panel.claim_menu")))
    dice = bool(view.options.get("dice"))
    items.append(button(words.t("plan.panel.no_action" if dice else "plan.panel.blind"),
                        ids.make(game_id, None, "pblind"), discord.ButtonStyle.primary, "🂠"))
    if not view.options.get("dice"):
        items.append(button(words.t("plan.panel.tickets"), ids.make(game_id, None, "ptix"),
                            discord.ButtonStyle.secondary, "🎫"))
    if book.plans:
        items.append(button(words.t("plan.panel.cancel"), ids.make(game_id, None, "pcancel"),
                            discord.ButtonStyle.danger))
    example = _example(claims, view)
    content = "\n".join(x for x in (said, plan_words.book_text(book, view, game_id),
                                    words.t("plan.panel.anything_else", example=example)) if x)
    await desk.answers.update_panel(interaction, content, view_of(*items))


async def set_typed(desk: Desk, interaction: discord.Interaction, game_id: int, typed: str) -> None:
    """`/ttr plan set`: read the typed plan and store it."""
    view = await desk.service.reads.view(game_id, interaction.user.id)
    if view.you is None:
        raise Refusal(lang.reader().t("plan.refusal.not_playing", game=f"#{game_id}"))
    book = plan_syntax.parse(typed, text.game_map(view))
    await store(desk, interaction, game_id, book)


async def store(desk: Desk, interaction: discord.Interaction, game_id: int, book: PlanBook) -> None:
    await desk.service.plans.set_plans(game_id, interaction.user.id, book)
    await show(desk, interaction, game_id, lang.reader().t("plan.saved"))


async def cancel(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    had = await desk.service.plans.cancel_plans(game_id, interaction.user.id)
    words = lang.reader()
    if interaction.message is not None and interaction.message.flags.ephemeral:
        await show(desk, interaction, game_id, words.t("plan.cancelled" if had else "plan.had_none"))
        return
    await desk.answers.say(interaction, words.t("plan.cancelled_long") if had
                           else words.t("plan.no_plan", game=f"#{game_id}"))


def _example(claims: list[ClaimRoute], view: View) -> str:
    """A typed plan of this board: with a claim the player's hand pays for, where there is one."""
    gmap = text.game_map(view)
    if claims:
        return plan_syntax.typed(PlanBook((claim_plan(claims[0].route, dict(claims[0].payment)),)), gmap)
    if view.options.get("dice"):
        return "else: pass, pass"
    return "if shown loco: draw loco; else: draw blind, draw blind"


def claim_plan(route: str, payment: dict[str, int]) -> Plan:
    """If `route` is still free, claim it with `payment`; otherwise draw two cards blind."""
    claim = PlanMove({"type": "claim_route", "route": route, "payment": payment})
    return Plan((Step(Condition("route_free", route=route), (claim,)),), BLIND_TWICE)


class PlanButton(_Family, template=ids.template(PLAN_VERBS)):
    """**Plan my next turn** and the choices of the private plan panel."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        g, verb = self.cid.game, self.cid.verb
        if verb == PLAN:
            await show(desk, interaction, g)
        elif verb == "pcancel":
            await cancel(desk, interaction, g)
        elif verb == "pblind":
            dice = bool((await desk.service.reads.view(g, interaction.user.id)).options.get("dice"))
            await store(desk, interaction, g, PlanBook((Plan((), NO_ACTION if dice else BLIND_TWICE),)))
        elif verb == "ptix":
            await store(desk, interaction, g, PlanBook((Plan((), (PlanMove({"type": "draw_tickets"}),)),)))
        else:
            route, _, code = (values[0] if values else "").partition("|")
            payment = parse_payment(code)
            if not route or not payment or "?" in payment:
                raise Refusal(lang.reader().t("plan.refusal.unknown_choice"))
            await store(desk, interaction, g, PlanBook((claim_plan(route, payment),)))


FAMILIES: tuple[type[Any], ...] = (PlanButton,)
