"""Information: /ttr board, status, log, games, rules (and a lesson: `/ttr rules lesson:`).
Board, status and log show only what anyone may see, so they work for spectators as well as
players. The results of finished games are /ttr results (cogs/results.py)."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from app import GameSummary, ServiceError
from app.availability import away_until
from app.tutorial import lessons
from bot_app.adapter import autocomplete
from bot_app.adapter.games import Game, parse_game, reach, resolve_game
from bot_app.adapter.tree import keeps_vacation
from bot_app.lang import code_for, for_locale, reader
from bot_app.presentation import text, tutorial
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import MediumText, ShortText, Text
from bot_app.presentation.rules_text import (
    DEFAULT_VARIANT,
    every_topic,
    game_rules_options,
    options_note,
    rules_for,
    topic_name,
    topics_for,
    wanted_topic,
)
from bot_app.presentation.settings_help import settings_help
from bot_app.presentation.standings_text import games_text
from bot_app.presentation.zoom import zoom_on_name
from cogs.base import TtrCog
from engine.errors import IllegalAction
from engine.rulesets import available_variants

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

# /ttr rules topic:settings — each player's settings, one line each (bot_app/presentation/settings_help.py).
SETTINGS_TOPIC = "settings"


class InfoCog(TtrCog):
    @app_commands.command(name="board", description="Post the board (public)")
    @app_commands.describe(zoom="a city or country: that part of the board, enlarged (for a phone)")
    async def board(self, interaction: discord.Interaction, game: Game | None = None,
                    zoom: Text | None = None) -> None:
        g = await resolve_game(interaction, game)
        if zoom is not None and zoom.strip():
            return await zoom_on_name(self.desk, interaction, g, zoom)
        panel = await self.desk.service.reads.panel(g, None)  # public only
        await self.desk.answers.defer(interaction, ephemeral=False)
        marks = await self.desk.service.settings.table_colorblind(s.user_id for s in panel.summary.seats)
        png = await self.desk.renderer.board(panel.public, colorblind=marks)
        await interaction.followup.send(f"**Game #{g}**\n{text.status_block(panel.public)}",
                                        file=discord.File(io.BytesIO(png), "board.png"))

    @board.autocomplete("zoom")
    async def _zoom_place(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=v) for n, v in await autocomplete.places(interaction, current)]

    @app_commands.command(name="status", description="Scores and whose turn it is (public)")
    async def status(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        panel = await self.desk.service.reads.panel(g, None)
        summary = panel.summary
        names = {s.seat: s.name for s in summary.seats}
        waiting = ", ".join(names[s] for s in summary.waiting_for) or "nobody"
        paused = f"\n⏸️ Paused: {summary.paused_reason}" if summary.paused_reason else ""
        title = text.variant_title(panel.public.variant, panel.public.options)
        away = await self._away(summary)
        await self.desk.answers.say(
            interaction, f"**Game #{g} · {title}** — {summary.status}, "
            f"waiting for {waiting}{paused}\n{text.status_block(panel.public)}{away}", ephemeral=False)

    @app_commands.command(name="log", description="The last moves (public)")
    async def log_(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        panel = await self.desk.service.reads.panel(g, None)
        entries = await self.desk.service.reads.recent_log(g, 15, None)  # public events only
        lines = [line for e in entries if (line := text.short_log_line(e.seq, e.events, panel.public))]
        await self.desk.answers.say(interaction, f"**Game #{g} — recent moves**\n" + ("\n".join(lines)
                                                                                    or "nothing yet"),
                                    ephemeral=False)

    @keeps_vacation
    @app_commands.command(name="games", description="Your games and whose turn each is waiting on")
    async def games(self, interaction: discord.Interaction) -> None:
        mine = await self.desk.service.reads.games_of(interaction.user.id, interaction.guild_id)
        await self.desk.answers.say(interaction, games_text(mine))

    @keeps_vacation
    @app_commands.command(name="rules", description="The rules, short: by topic, for your game or any variant")
    @app_commands.describe(topic="overview, first-turn, turn, … (the list fits the variant)",
                           variant="a rule set (default: this game's)", dice="with the Dice Expansion",
                           lesson="learn by playing: a guided game against the computer on this board "
                           "(again: back to it)")
    @app_commands.choices(variant=[app_commands.Choice(name=text.variant_title(v), value=v)
                                   for v in available_variants()])
    async def rules(self, interaction: discord.Interaction, topic: MediumText | None = None,
                    variant: str | None = None, dice: bool | None = None, game: Game | None = None,
                    lesson: ShortText | None = None) -> None:
        if lesson is not None:  # a lesson is the rules learnt by playing (bot_app/presentation/tutorial.py)
            await tutorial.tutorial(self.desk, interaction, lesson)
            return
        if (topic or "").strip().lower() in (SETTINGS_TOPIC, topic_name(SETTINGS_TOPIC).lower()):
            await self.desk.answers.say(interaction, settings_help())
            return
        chosen, options, players, note = await self._rules_table(interaction, variant, dice, game)
        wanted = (topic or "overview").strip().lower()
        # The heading names the topic in the reader's language when it was asked for by name.
        found = wanted_topic(topic, topics_for(chosen, options, players), reader())
        shown = topic_name(found) if wanted in (found, topic_name(found).lower()) else wanted
        title = f"**{text.variant_title(chosen, options, reader())} — {shown}**{note}"
        await self.desk.answers.say(interaction, f"{title}\n{rules_for(chosen, topic, options, players)}")

    async def _rules_table(self, interaction: discord.Interaction, variant: str | None, dice: bool | None,
                           game: int | None) -> tuple[str, dict[str, Any], int | None, str]:
        """Which rules to show: the variant asked for, else the game's (named, or this thread's)
        with all its options and players, else the base game, saying so; `dice` turns the Dice
        Expansion on or off."""
        if variant is not None and variant not in available_variants():
            raise Refusal(f"There is no variant called {variant[:30]!r}; choose one of "
                          f"{', '.join(available_variants())}.", "rules.no_variant", name=repr(variant[:30]),
                          variants=", ".join(available_variants()))
        if variant is not None:
            return variant, game_rules_options({}, dice), None, ""
        g = game
        if g is None:
            with contextlib.suppress(Refusal, ServiceError):  # outside a game: no game
                g = await resolve_game(interaction, None)
        if g is None:
            return DEFAULT_VARIANT, game_rules_options({}, dice), None, reader().t("rules.base_game")
        seen = await self.desk.service.reads.view(g, None)
        options = game_rules_options(seen.options, dice)
        note = reader().t("rules.this_game", game=str(g), note=options_note(options))
        return seen.variant, options, len(seen.players), note

    @rules.autocomplete("lesson")
    async def _lessons(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        known = lessons(code_for(interaction.locale))  # the titles in the typer's language
        return [app_commands.Choice(name=f"{lesson.title} ({name})", value=name)
                for name, lesson in known.items() if current.lower() in f"{name} {lesson.title}".lower()][:25]

    @rules.autocomplete("topic")
    async def _topic(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The topics of the rules the command would show: the variant named, else the game's
        (named, or this thread's), else every topic."""
        namespace = interaction.namespace
        variant = getattr(namespace, "variant", None)
        dice = getattr(namespace, "dice", None)
        topics: Iterable[str] | None = None
        if variant in available_variants():
            topics = topics_for(variant, game_rules_options({}, dice))
        elif variant is None:
            with contextlib.suppress(Refusal, ServiceError, IllegalAction):
                raw = getattr(namespace, "game", None)
                game = None
                if isinstance(raw, str) and raw.strip():
                    game = parse_game(raw)
                    await reach(interaction, game)
                chosen, options, players, _ = await self._rules_table(interaction, None, dice, game)
                if players is not None:
                    topics = topics_for(chosen, options, players)
        if topics is None:
            # Every rule set's topics, read from their words once per process: the first time
            # loads every board, so in a thread (the loop answers other clicks meanwhile).
            topics = await asyncio.to_thread(every_topic)
        words = reader(for_locale(interaction.locale))
        named = [(topic_name(t, words), t) for t in (*topics, SETTINGS_TOPIC)]
        typed = current.lower()
        return [app_commands.Choice(name=name, value=t) for name, t in named
                if typed in t or typed in name.lower()][:25]

    async def _away(self, summary: GameSummary) -> str:
        """"Away until" for each player of the game on vacation."""
        mine = await self.desk.service.settings.settings_of(s.user_id for s in summary.seats)
        now = self.desk.clock()
        lines = [f"\n🏖️ **{s.name}** is away until <t:{int(until)}:f>: their clock is stopped."
                 for s in summary.seats if s.user_id is not None and s.user_id in mine
                 and (until := away_until(mine[s.user_id], summary.max_away_days, now)) is not None]
        return "".join(lines)

async def setup(bot: TtrBot) -> None:
    await bot.add_cog(InfoCog(bot))
