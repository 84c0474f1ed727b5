"""A part of the board, enlarged for a phone: `/ttr board zoom:` (a city, or one of Germany's
countries) and the turn post's Zoom button, which shows the last move's area.

Everything here is public: the picture is drawn from the public view (`render/zoom.py`), like
the board. `/ttr board` posts in the channel, so its zoom does too; the button's zoom is for
the one who pressed it (the thread needs no copy of the board per curious player).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from bot_app.lang import table_language
from bot_app.presentation import ids, names, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import button
from bot_app.presentation.words.wording import wording
from engine.maps import GameMap
from engine.view import View

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk  # the desk is handed in by the adapter

ZOOM_FILE = "zoom.png"
VERB = "zoom"
ROUTE, CITY = "r", "c"  # what a button's zoom is around: `r.<route id>` or `c.<city id>`


def zoom_button(game_id: int, gmap: GameMap, routes: tuple[str, ...], cities: tuple[str, ...],
                view: View | None = None) -> discord.ui.Button[discord.ui.View] | None:
    """The turn post's button for the last move's area (the last route claimed, else the last
    station built), or None when the post marks no move. With the post's view it reads in the
    table's language ("Zoom: Oslo – Stockholm (4 Gelb)"); city names stay as printed."""
    words = table_language(view.options if view is not None else None)
    if routes and routes[-1] in gmap.routes:
        rid = routes[-1]
        place = wording(view).ctx(view, words).route(rid) if view is not None else text.route_label(gmap, rid)
        return button(words.t("button.zoom", place=place), ids.make(game_id, None, VERB, f"{ROUTE}.{rid}"),
                      emoji="🔍")
    if cities and cities[-1] in gmap.cities:
        return button(words.t("button.zoom", place=gmap.city_label(cities[-1])),
                      ids.make(game_id, None, VERB, f"{CITY}.{cities[-1]}"), emoji="🔍")
    return None


async def zoom_on_button(desk: Desk, interaction: discord.Interaction, game_id: int, arg: str) -> None:
    """The Zoom button: the area it names, the move marked, for the presser only."""
    kind, _, key = arg.partition(".")
    panel = await desk.service.reads.panel(game_id, None)  # public only
    gmap = text.game_map(panel.public)
    if kind == ROUTE and key in gmap.routes:
        await _send(desk, interaction, game_id, route=key, public=False, marked=((key,), ()))
    elif kind == CITY and key in gmap.cities:
        await _send(desk, interaction, game_id, city=key, public=False, marked=((), (key,)))
    else:
        raise Refusal("That button is not one I know.")


async def zoom_on_name(desk: Desk, interaction: discord.Interaction, game_id: int, typed: str) -> None:
    """`/ttr board zoom:` — the board around the city (or country) typed, in the channel."""
    panel = await desk.service.reads.panel(game_id, None)
    gmap = text.game_map(panel.public)
    city = names.find_city(gmap, typed)
    if city is None:
        raise Refusal(names.unknown_city(gmap, typed))
    await _send(desk, interaction, game_id, city=city.id, public=True, marked=((), ()))


async def _send(desk: Desk, interaction: discord.Interaction, game_id: int, *, city: str | None = None,
                route: str | None = None, public: bool, marked: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    await desk.answers.defer(interaction, ephemeral=not public)
    panel = await desk.service.reads.panel(game_id, None)
    view = panel.public
    gmap = text.game_map(view)
    marks = await desk.service.settings.table_colorblind(s.user_id for s in panel.summary.seats)
    png = await desk.renderer.zoom(view, city=city, route=route, routes=marked[0], cities=marked[1],
                                   colorblind=marks)
    where = text.route_label(gmap, route) if route is not None else gmap.city_label(city or "")
    alt = f"Part of the board of game #{game_id}: the routes and cities around {where}, enlarged."
    await interaction.followup.send(f"**Game #{game_id}** — the board around {where}",
                                    file=discord.File(io.BytesIO(png), ZOOM_FILE, description=alt),
                                    ephemeral=not public)


def places(gmap: GameMap) -> list[tuple[str, str]]:
    """Every place a zoom may be around (cities and countries), as (label, id), by label."""
    return sorted(((gmap.city_label(c), c) for c in gmap.cities), key=lambda pair: pair[0])
