"""The results of finished games: /ttr results stats (a player's card), /ttr results
leaderboard (this server's ratings by season) and /ttr results replay (a finished game, claim
by claim). Starting a season and whether AI games count are in /ttr admin."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from app import ServiceError
from bot_app.adapter.games import GAME_TITLE_RE, Game, reach
from bot_app.adapter.replay_requests import Replay, ReplayRequests, draw_replay
from bot_app.adapter.tree import keeps_vacation
from bot_app.lang import reader
from bot_app.presentation import after_game
from bot_app.presentation.answers import Refusal
from bot_app.presentation.standings_text import leaderboard_text
from bot_app.presentation.text import variant_title
from cogs.base import TtrCog
from engine.rulesets import available_variants

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

VARIANT_CHOICES = [app_commands.Choice(name=variant_title(v), value=v) for v in available_variants()]


class ResultsCog(TtrCog):
    results = keeps_vacation(app_commands.Group(name="results", description="Finished games: a player's "
                                                "results, the leaderboard, a replay"))

    def __init__(self, bot: TtrBot) -> None:
        super().__init__(bot)
        self.replays: ReplayRequests[Replay] = ReplayRequests()

    @results.command(name="stats", description="A player's results on this server, as a picture")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        if interaction.guild_id is None and who.id != interaction.user.id:
            raise Refusal(after_game.STATS_IN_DM)
        await self.desk.answers.defer(interaction, ephemeral=False)  # the card reads the latest games
        record = await self.desk.service.records.player_record(who.id, interaction.guild_id, who.display_name)
        if not record.stats.games:
            await self.desk.answers.say(interaction, after_game.no_stats(who.display_name), ephemeral=False)
            return
        card = after_game.stats_card(who.display_name, record, everywhere=interaction.guild_id is None)
        png = await self.desk.renderer.stats(card)
        await self.desk.answers.say(interaction, after_game.stats_words(who.display_name, record),
                                    ephemeral=False, file=discord.File(io.BytesIO(png), after_game.STATS_FILE))


    @results.command(name="leaderboard", description="This server's ratings (OpenSkill), by season")
    @app_commands.describe(variant="one variant (default: every variant together)",
                           season="an earlier season's ranking (default: the current season)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None,
                          season: app_commands.Range[int, 1, 10_000] | None = None) -> None:
        if interaction.guild_id is None:
            await self.desk.answers.say(interaction, reader().t("standings.not_here"))
            return
        board = await self.desk.service.standings.leaderboard(interaction.guild_id,
                                                              variant.value if variant else None,
                                                    season)
        await self.desk.answers.say(interaction, leaderboard_text(board, you=interaction.user.id),
                                    ephemeral=False)

    @results.command(name="replay", description="A finished game, claim by claim, as an animated picture (public)")
    async def replay(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        g = game if game is not None else await _thread_game(interaction)
        self.replays.check(interaction.user.id, g)  # before any work: bounded, one at a time each
        await self.desk.service.replays.check_replay(g)  # refuses a game still played
        here = interaction.channel_id
        shown = self.replays.shown_in(g, here)
        if shown is not None:  # the channel has it (or is getting it): no second copy
            await self.desk.answers.defer(interaction)
            await interaction.followup.send(after_game.replay_shown(g, await asyncio.shield(shown)),
                                            ephemeral=True)
            return
        posting = self.replays.showing(g, here)
        try:
            await self.desk.answers.defer(interaction, ephemeral=False)
            replay = await self.replays.replay(interaction.user.id, g, lambda: draw_replay(self.desk, g))
            posted = await interaction.followup.send(
                after_game.replay_caption(g, replay.title, replay.pictures),
                file=discord.File(io.BytesIO(replay.gif), after_game.REPLAY_FILE), wait=True)
        except BaseException:
            self.replays.not_shown(posting)  # those waiting for it hear so
            raise
        posting.set_result(f"https://discord.com/channels/{interaction.guild_id or '@me'}/{here}/{posted.id}")


async def _thread_game(interaction: discord.Interaction) -> int:
    """The game whose thread the command runs in (a replay names no "only open game": the
    games worth replaying are finished)."""
    channel = interaction.channel
    m = GAME_TITLE_RE.search(getattr(channel, "name", None) or "")
    if m is not None and channel is not None:
        with contextlib.suppress(ServiceError):
            summary = await reach(interaction, int(m.group(1)))
            if summary.thread_id == channel.id:
                return summary.game_id
    raise Refusal(after_game.NO_GAME_GIVEN)


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(ResultsCog(bot))
