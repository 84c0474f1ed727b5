"""/ttr plan: a player's planned moves for their next turn (issue 29) — view, set (the short
text of bot_app/presentation/plan_syntax.py, with suggestions), cancel. Answered privately; the plan runs
when the turn arrives (app/plan_runs.py). The turn post's **Plan my next turn** button opens
the same panel (bot_app/adapter/plan_panel.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app import ServiceError
from app.plans import PlanBook
from bot_app.adapter import plan_panel
from bot_app.adapter.autocomplete import _panel
from bot_app.adapter.games import Game, desk_of, resolve_game
from bot_app.presentation import plan_syntax, spelled, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import PlanText
from cogs.base import TtrCog
from engine.actions import ClaimRoute

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

WHAT = [app_commands.Choice(name=n, value=v) for n, v in
        (("view my plan", "view"), ("set it (type it in `plan`)", "set"), ("cancel it", "cancel"))]
KEYWORDS = ("free ", "taken ", "claim ")


class PlanCog(TtrCog):
    families = plan_panel.FAMILIES

    @app_commands.command(name="plan", description="Plan your next turn privately: it plays itself when the turn comes")
    @app_commands.describe(what="view, set or cancel your plan (view)",
                           plan="steps like: if free Denver - Omaha: claim Denver - Omaha pink4; else: draw blind, "
                                "draw blind")
    @app_commands.choices(what=WHAT)
    async def plan(self, interaction: discord.Interaction, what: str = "view", plan: PlanText | None = None,
                   game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        if what == "cancel":
            await plan_panel.cancel(self.desk, interaction, g)
        elif what == "set" or plan:
            if not plan:
                raise Refusal("Type the plan in the `plan` option (see `/ttr rules topic:plans`).")
            await plan_panel.set_typed(self.desk, interaction, g, plan)
        else:
            await plan_panel.show(self.desk, interaction, g)

    @plan.autocomplete("plan")
    async def _plans(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in await suggestions(interaction, current)]


async def suggestions(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    """What to offer while a plan is typed: the text so far, the routes that complete its last
    word after free/taken/claim, and whole plans from the caller's own hand when nothing is typed
    yet. Never more than 25, each at most 100 characters (Discord's limits)."""
    current = (current or "")[:1500]
    panel = await _panel(interaction)
    if panel is None or panel.seat is None:
        return []
    gmap = text.game_map(panel.public)
    out: list[tuple[str, str]] = []
    if not current.strip():
        try:
            claims = await desk_of(interaction).service.plans.plan_claims(panel.summary.game_id, interaction.user.id)
        except ServiceError:
            claims = []
        seen: set[str] = set()
        for a in claims:
            if isinstance(a, ClaimRoute) and a.route not in seen and len(seen) < 10:
                seen.add(a.route)
                typed = plan_syntax.typed(plan_panel_book(a), gmap)
                out.append((typed, typed))
        out += [(t, t) for t in ("else: draw blind, draw blind", "else: tickets")]
        return [(n, v) for n, v in out if len(v) <= 100][:25]
    if len(current) <= 100:
        out.append((current, current))
    cut = max(current.rfind(k) for k in KEYWORDS)
    if cut >= 0:
        word = next(k for k in KEYWORDS if current.startswith(k, cut))
        start = cut + len(word)
        partial = current[start:]
        if ":" not in partial and "," not in partial and ";" not in partial:
            owners = panel.public.route_owner
            # Any spelling of a city finds its routes ("Munich"); the plan gets the printed label.
            open_routes = [(text.route_label(gmap, r), r) for r in gmap.routes if r not in owners]
            for _shown, rid in spelled.routes(gmap, open_routes, partial):
                value = current[:start] + text.route_label(gmap, rid) + (":" if word != "claim " else " ")
                if len(value) <= 100:
                    out.append((value, value))
    return out[:25]


def plan_panel_book(claim: ClaimRoute) -> PlanBook:
    return PlanBook((plan_panel.claim_plan(claim.route, dict(claim.payment)),))


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(PlanCog(bot))
