"""Moves: /ttr draw, claim, tickets, station, controller, burn, roll, calltime, pass, hand.

Each finds the legal moves that fit its options (the engine lists them; nothing is decided
here) and then plays, confirms or offers a private menu through the desk."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot_app.desk import Refusal, _field_text, _find_key, parse_payment
from bot_app.inputs import MediumText, ShortText, Text, is_number
from bot_app.text import game_map
from cogs.common import choices, desk
from engine.actions import Action


def register(group: app_commands.Group) -> None:
    @group.command(name="draw", description="Take a train card: the deck or a face-up one")
    @app_commands.describe(card="deck, or a face-up slot (1–5) or colour")
    async def draw(interaction: discord.Interaction, card: ShortText = "deck", game: Text | None = None) -> None:
        d = desk(interaction)
        want = (card or "deck").strip().lower()

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            view = await d.service.view(g, None)
            display = view.get("display") or []

            def fits(a: Action) -> bool:
                slot = a.to_json().get("slot")
                if want in ("deck", "blind", "d"):
                    return slot is None
                if is_number(want):
                    return slot is not None and slot == int(want) - 1
                return slot is not None and slot < len(display) and display[slot] in (want, "loco" if
                                                                                      want.startswith("loc") else want)

            await d.command_move(interaction, str(g), "draw_card", _first(fits), confirm=False, what="draw that card")

        await d.guard(interaction, run())

    @draw.autocomplete("card")
    async def _card(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_draw(interaction, current))

    @group.command(name="claim", description="Claim a route")
    @app_commands.describe(route="the route (start typing a city)", payment="which cards to pay with")
    async def claim(interaction: discord.Interaction, route: Text, payment: Text | None = None,
                    game: Text | None = None) -> None:
        def unknown(hint: str) -> str:
            return "I don't know that route; pick one from the list" + (f" (near: {hint})." if hint else ".")

        await _named_move(interaction, game, "claim_route", "route", route, payment, unknown, "claim that route")

    @claim.autocomplete("route")
    async def _route(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_routes(interaction, current))

    @claim.autocomplete("payment")
    async def _claim_pay(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_payments(interaction, current, "claim_route"))

    @group.command(name="tickets", description="Draw destination tickets, then choose which to keep")
    @app_commands.describe(short="Germany: how many short tickets", long="Germany: how many long tickets")
    async def tickets(interaction: discord.Interaction, short: app_commands.Range[int, 0, 4] | None = None,
                      long: app_commands.Range[int, 0, 4] | None = None, game: Text | None = None) -> None:
        d = desk(interaction)

        def fits(a: Action) -> bool:
            if short is None and long is None:
                return True
            mix = dict(a.to_json().get("mix") or [])
            return mix.get("short", 0) == (short or 0) and mix.get("long", 0) == (long or 0)

        await d.guard(interaction, d.command_move(interaction, game, "draw_tickets", fits, what="draw tickets"))

    @group.command(name="station", description="Build a station in a city")
    @app_commands.describe(city="the city", payment="which cards to pay with")
    async def station(interaction: discord.Interaction, city: Text, payment: Text | None = None,
                      game: Text | None = None) -> None:
        def unknown(hint: str) -> str:
            return "I don't know that city" + (f"; did you mean {hint}?" if hint else "; pick one from the list.")

        await _named_move(interaction, game, "build_station", "city", city, payment, unknown, "build a station")

    @station.autocomplete("city")
    async def _city(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_cities(interaction, current))

    @station.autocomplete("payment")
    async def _station_pay(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_payments(interaction, current, "build_station"))

    @group.command(name="controller", description="USSR: use the Controller")
    @app_commands.describe(mode="remove or build", route="the route")
    @app_commands.choices(mode=[app_commands.Choice(name="remove", value="remove"),
                                app_commands.Choice(name="build", value="build")])
    async def controller(interaction: discord.Interaction, mode: str | None = None, route: Text | None = None,
                         game: Text | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.command_move(interaction, game, "controller", _fields(mode, route),
                                                  what="use the Controller"))

    @controller.autocomplete("route")
    async def _ctl_route(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_generic(interaction, current, "controller", "route"))

    @group.command(name="burn", description='Alsace: "burn 5" cards')
    async def burn(interaction: discord.Interaction, cards: Text | None = None, game: Text | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.command_move(interaction, game, "burn", _fields(cards), what="burn cards"))

    @burn.autocomplete("cards")
    async def _burn(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_generic(interaction, current, "burn", "cards"))

    @group.command(name="roll", description="Dice: re-roll, keeping some dice")
    async def roll(interaction: discord.Interaction, keep: MediumText | None = None, game: Text | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.command_move(interaction, game, "roll", _fields(keep), confirm=False,
                                                  what="re-roll"))

    @roll.autocomplete("keep")
    async def _keep(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices(await desk(interaction).ac_generic(interaction, current, "roll", "keep"))

    @group.command(name="calltime", description="Alsace: call time")
    async def calltime(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.command_move(interaction, game, "call_time", what="call time"))

    @group.command(name="pass", description="Pass (only when nothing else is possible)")
    async def pass_(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)
        await d.guard(interaction, d.command_move(interaction, game, "pass", what="pass"))

    @group.command(name="hand", description="Your hand and tickets, privately, with a picture")
    async def hand(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            await d.show_hand(interaction, g)

        await d.guard(interaction, run())

    from cogs.lobby import _games

    for cmd in (draw, claim, tickets, station, controller, burn, roll, calltime, pass_, hand):
        cmd.autocomplete("game")(_games)


def _first(pred: Any) -> Any:
    """A predicate that accepts only the first action it matches (several face-up slots of one
    colour are one choice)."""
    seen: list[bool] = []

    def fits(a: Action) -> bool:
        if seen or not pred(a):
            return False
        seen.append(True)
        return True

    return fits


def _fields(*wanted: str | None) -> Any:
    """Match a variant's action by its fields' text (for actions this bot knows only from
    `legal_actions`)."""
    want = [w.strip().lower() for w in wanted if w and w.strip()]

    def fits(a: Action) -> bool:
        values = [_field_text(v).lower() for k, v in a.to_json().items() if k not in ("type", "player")]
        return all(any(w == v or w in v for v in values) for w in want)

    return fits


async def _named_move(interaction: discord.Interaction, game: str | None, kind: str, field: str, name: str | None,
                      payment: str | None, unknown: Any, what: str) -> None:
    """A move on something the player named (a route, a city) and optionally paid for: check
    whose turn it is before what they typed, find the map key, then play the matching move.
    `unknown(hint)` is the sentence for a name the map does not know."""
    d = desk(interaction)

    async def run() -> None:
        g = await d.resolve_game(interaction, game)
        await d.check_turn(g, interaction.user.id, None)  # who may play comes before what they typed
        gmap = game_map(await d.service.view(g, None))
        key = _find_key(gmap, kind, name)
        if key in (None, "?"):
            raise Refusal(unknown(", ".join(gmap.suggest_cities(name or "", 3))))
        pay = parse_payment(payment)
        await d.command_move(interaction, str(g), kind,
                             lambda a: a.to_json()[field] == key and (pay is None or a.to_json()["payment"] == pay),
                             what=what)

    await d.guard(interaction, run())
