"""Moves: /ttr draw, claim, tickets, station, hand — and /ttr move, the one typed fallback for
every other move a rule set has (the USSR Controller, Alsace's burn 5 and calling time, the
dice re-roll, passing), which are also buttons of the turn post.

Each finds the legal moves that fit its options (the engine lists them; nothing is decided
here) and then plays, confirms or offers a private menu (bot_app.presentation.panels)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot_app.adapter import autocomplete
from bot_app.adapter.buttons import FAMILIES
from bot_app.adapter.games import Game, resolve_game
from bot_app.presentation import names, panels, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.hands import show_hand
from bot_app.presentation.inputs import ShortText, Text, is_number
from bot_app.presentation.moves_text import find_key, parse_payment
from cogs.base import TtrCog
from engine.actions import Action, BuildStation, ClaimRoute, DrawCard, DrawTickets
from engine.rules.dice import DrawTicketsWithDice

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

Choices = list[app_commands.Choice[str]]


def _choices(pairs: list[tuple[str, str]]) -> Choices:
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs[:25]]


class PlayCog(TtrCog):
    families = FAMILIES

    @app_commands.command(name="draw", description="Take a train card: the deck or a face-up one")
    @app_commands.describe(card="deck, or a face-up slot (1–5) or colour")
    async def draw(self, interaction: discord.Interaction, card: ShortText = "deck", game: Game | None = None) -> None:
        await self._draw(interaction, (card or "deck").strip().lower(), game)

    async def _draw(self, interaction: discord.Interaction, want: str, game: int | None) -> None:
        g = await resolve_game(interaction, game)
        panel = await panels.turn_panel(self.desk, g, interaction.user.id, None)
        display = panel.public.display
        taken: list[Action] = []

        def fits(a: Action) -> bool:
            if not isinstance(a, DrawCard):
                return False
            slot = a.slot
            if want in ("deck", "blind", "d"):
                ok = slot is None
            elif is_number(want):
                ok = slot is not None and slot == int(want) - 1
            else:
                ok = slot is not None and slot < len(display) and display[slot] in (
                    want, "loco" if want.startswith("loc") else want)
            if ok and not taken:  # several face-up slots of one colour are one choice
                taken.append(a)
                return True
            return False

        await panels.command_move(self.desk, interaction, g, "draw_card", fits, confirm=False, what="draw that card",
                                  panel=panel)

    @draw.autocomplete("card")
    async def _card(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.draws(interaction, current))

    @app_commands.command(name="claim", description="Claim a route")
    @app_commands.describe(route="the route (start typing a city)", payment="which cards to pay with")
    async def claim(self, interaction: discord.Interaction, route: Text, payment: Text | None = None,
                    game: Game | None = None) -> None:
        def unknown(hint: str) -> str:
            return "I don't know that route; pick one from the list" + (f" (near: {hint})." if hint else ".")

        await self._named(interaction, game, "claim_route", route, payment, unknown,
                          "claim that route")

    @claim.autocomplete("route")
    async def _route(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.routes(interaction, current))

    @claim.autocomplete("payment")
    async def _claim_pay(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.payments(interaction, current, "claim_route"))

    @app_commands.command(name="tickets", description="Draw destination tickets, then choose which to keep")
    @app_commands.describe(short="Germany: how many short tickets", long="Germany: how many long tickets")
    async def tickets(self, interaction: discord.Interaction, short: app_commands.Range[int, 0, 4] | None = None,
                      long: app_commands.Range[int, 0, 4] | None = None, game: Game | None = None) -> None:
        def fits(a: Action) -> bool:
            if short is None and long is None:
                return True
            mix = dict(a.mix) if isinstance(a, DrawTickets | DrawTicketsWithDice) else {}
            return mix.get("short", 0) == (short or 0) and mix.get("long", 0) == (long or 0)

        await panels.command_move(self.desk, interaction, await resolve_game(interaction, game), "draw_tickets",
                                  fits, what="draw tickets")

    @app_commands.command(name="station", description="Build a station in a city")
    @app_commands.describe(city="the city", payment="which cards to pay with")
    async def station(self, interaction: discord.Interaction, city: Text, payment: Text | None = None,
                      game: Game | None = None) -> None:
        def unknown(hint: str) -> str:
            return "I don't know that city" + (f"; did you mean {hint}?" if hint else "; pick one from the list.")

        await self._named(interaction, game, "build_station", city, payment, unknown,
                          "build a station")

    @station.autocomplete("city")
    async def _city(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.cities(interaction, current))

    @station.autocomplete("payment")
    async def _station_pay(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.payments(interaction, current, "build_station"))

    @app_commands.command(name="move", description="Any other move (Controller, burn 5, re-roll, call time, pass)")
    @app_commands.describe(action="the move (start typing; the list shows what you can do now)")
    async def move(self, interaction: discord.Interaction, action: Text, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        panel = await panels.turn_panel(self.desk, g, interaction.user.id, None)
        seq, _, tok = action.partition(":")
        if not is_number(seq) or int(seq) != panel.summary.seq:
            raise Refusal("Pick a move from the list (it shows what you can do now).")
        await panels.choose_or_confirm(self.desk, interaction, panel, [panels.pick(panel.legal, tok)])

    @move.autocomplete("action")
    async def _moves(self, interaction: discord.Interaction, current: str) -> Choices:
        return _choices(await autocomplete.moves(interaction, current))

    @app_commands.command(name="hand", description="Your hand and tickets, privately, with a picture")
    async def hand(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await show_hand(self.desk, interaction, await resolve_game(interaction, game))

    async def _named(self, interaction: discord.Interaction, game: int | None, kind: str, name: str,
                     payment: str | None, unknown: Callable[[str], str], what: str) -> None:
        """A move on something the player named (a route, a city), optionally paid for: whose
        turn it is comes before what they typed; then the map key; then the matching move."""
        g = await resolve_game(interaction, game)
        panel = await panels.turn_panel(self.desk, g, interaction.user.id, None)
        gmap = text.game_map(panel.public)
        key = find_key(gmap, kind, name)
        if key in (None, "?"):
            raise Refusal(unknown(", ".join(names.suggest_cities(gmap, name or "", 3))))
        pay = parse_payment(payment)
        await panels.command_move(
            self.desk, interaction, g, kind,
            lambda a: isinstance(a, ClaimRoute | BuildStation) and panels.group_key(a) == key
            and (pay is None or dict(a.payment) == pay), what=what,
            panel=panel)


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(PlayCog(bot))
