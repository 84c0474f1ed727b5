"""Autocomplete for the move commands: open routes, cities, payments from the caller's hand,
face-up cards, and every other legal move (for `/ttr move`).

Suggestions come from the engine's legal moves for the caller (their own hand); when it is not
their turn, only public facts (the open routes, the cities) are offered. Whatever is typed is
already bounded (bot_app.presentation.inputs); matching is a plain fold-and-contains over at most a few
hundred labels, and routes and cities also match by any spelling of a city (bot_app.presentation.spelled:
"Munich" offers "München – Wien (3 orange) · Munich").

Labels are in the typer's Discord language (`interaction.locale`: an autocomplete is answered
within Discord's three seconds, so without the stored `/ttr settings language:` read); the
values stay the route ids and the English payment codes the commands read.
"""

from __future__ import annotations

import discord

from app import Panel, ServiceError
from bot_app import lang
from bot_app.adapter.games import desk_of, parse_game, reach, resolve_game
from bot_app.presentation import spelled, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import MAX_OPTIONS
from bot_app.presentation.moves_text import find_key, payment_code
from bot_app.presentation.panels import group_key
from bot_app.presentation.words import Ctx, wording
from engine.actions import BuildStation, ClaimRoute, DrawCard
from engine.errors import IllegalAction
from engine.maps import fold

Pairs = list[tuple[str, str]]


async def _panel(interaction: discord.Interaction) -> Panel | None:
    """The caller's panel for the game the command means (None when there is none); the labels
    from here on are in the caller's language."""
    lang.hear(interaction.locale)
    try:
        raw = getattr(interaction.namespace, "game", None)
        if isinstance(raw, str) and raw.strip():
            game_id = parse_game(raw)
            await reach(interaction, game_id)
        else:
            game_id = await resolve_game(interaction, None)
        return await desk_of(interaction).service.reads.panel(game_id, interaction.user.id)
    except (Refusal, ServiceError, IllegalAction):
        return None


def _ctx(panel: Panel) -> Ctx:
    """The words of the panel's game, in the caller's language."""
    return wording(panel.public).ctx(panel.public, lang.reader())


def _filter(pairs: Pairs, current: str) -> Pairs:
    key = fold(current or "")
    return _cut([(n, v) for n, v in pairs if not key or key in fold(n) or key in fold(v)])


def _cut(hits: Pairs) -> Pairs:
    """At most Discord's number of choices, each within its 100 characters."""
    return [(n[:100], v[:100]) for n, v in hits][:MAX_OPTIONS]


async def routes(interaction: discord.Interaction, current: str) -> Pairs:
    panel = await _panel(interaction)
    if panel is None:
        return []
    gmap = text.game_map(panel.public)
    rids = list(dict.fromkeys(a.route for a in panel.legal if isinstance(a, ClaimRoute)))
    if not rids:  # not your turn: show the open routes anyway
        owners = panel.public.route_owner
        rids = [r for r in gmap.routes if r not in owners]
    c = _ctx(panel)
    return _cut(spelled.routes(gmap, [(c.route(r), r) for r in rids], current))


async def cities(interaction: discord.Interaction, current: str) -> Pairs:
    panel = await _panel(interaction)
    if panel is None:
        return []
    gmap = text.game_map(panel.public)
    cids = list(dict.fromkeys(a.city for a in panel.legal if isinstance(a, BuildStation)))
    if not cids:
        cids = [c for c, city in gmap.cities.items() if not city.is_country]
    return _cut(spelled.cities(gmap, [(text.city_label(gmap, c), c) for c in cids], current))


async def places(interaction: discord.Interaction, current: str) -> Pairs:
    """Where `/ttr board zoom:` may look: every city (and country) of the game's map."""
    from bot_app.presentation.zoom import places as zoom_places

    panel = await _panel(interaction)
    if panel is None:
        return []
    gmap = text.game_map(panel.public)
    return _cut(spelled.cities(gmap, zoom_places(gmap), current))


async def payments(interaction: discord.Interaction, current: str, kind: str) -> Pairs:
    panel = await _panel(interaction)
    if panel is None:
        return []
    gmap = text.game_map(panel.public)
    ns = interaction.namespace
    target = getattr(ns, "route", None) if kind == "claim_route" else getattr(ns, "city", None)
    key = find_key(gmap, kind, target)
    out = []
    c = _ctx(panel)
    for a in panel.legal:
        if isinstance(a, ClaimRoute | BuildStation) and kind == a.TYPE and (key is None or group_key(a) == key):
            pay = dict(a.payment)
            out.append((c.cards(pay), payment_code(pay)))
    return _filter(list(dict.fromkeys(out)), current)


async def draws(interaction: discord.Interaction, current: str) -> Pairs:
    panel = await _panel(interaction)
    words = lang.reader()
    deck = (words.t("autocomplete.deck"), "deck")
    if panel is None:
        return [deck]
    out = []
    c = _ctx(panel)
    for a in panel.legal:
        if isinstance(a, DrawCard):
            slot = a.slot
            card = panel.public.display[slot] if slot is not None else None
            out.append(deck if slot is None else
                       (words.t("autocomplete.slot", slot=slot + 1,
                                card=c.card(card) if card else words.t("autocomplete.empty")), str(slot + 1)))
    return _filter(out or [deck], current)


async def moves(interaction: discord.Interaction, current: str) -> Pairs:
    """Every move the caller may make now, in words (the value names it at this seq)."""
    panel = await _panel(interaction)
    if panel is None or not panel.legal:
        return []
    gmap = text.game_map(panel.view)
    seq = panel.summary.seq
    pairs = [(text.describe_action(a, panel.view, gmap), f"{seq}:{i}.{a.TYPE}") for i, a in enumerate(panel.legal)]
    return _filter(pairs, current)
