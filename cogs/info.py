"""Information: /ttr board, status, log, games, rules, stats. Board, status and log show only
what anyone may see, so they work for spectators as well as players."""

from __future__ import annotations

import contextlib
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from app import ServiceError
from bot_app import text
from bot_app.answers import Refusal
from bot_app.games import Game, resolve_game
from bot_app.inputs import MediumText
from bot_app.rules_text import DEFAULT_VARIANT, TOPICS, rules_for, topics_for
from cogs.base import TtrCog
from engine.variants import available_variants

if TYPE_CHECKING:
    from bot_app.client import TtrBot


class InfoCog(TtrCog):
    @app_commands.command(name="board", description="Post the board (public)")
    async def board(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            panel = await self.desk.service.panel(g, None)  # public only
            await self.desk.answers.defer(interaction, ephemeral=False)
            marks = await self.desk.service.table_colorblind(s.user_id for s in panel.summary.seats)
            png = await self.desk.renderer.board(panel.public, colorblind=marks)
            await interaction.followup.send(f"**Game #{g}**\n{text.status_block(panel.public)}",
                                            file=discord.File(io.BytesIO(png), "board.png"))

        await self.run(work())

    @app_commands.command(name="status", description="Scores and whose turn it is (public)")
    async def status(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            panel = await self.desk.service.panel(g, None)
            summary = panel.summary
            names = {s.seat: s.name for s in summary.seats}
            waiting = ", ".join(names[s] for s in summary.waiting_for) or "nobody"
            paused = f"\n⏸️ Paused: {summary.paused_reason}" if summary.paused_reason else ""
            title = text.variant_title(panel.public.variant, panel.public.options)
            await self.desk.answers.say(
                interaction, f"**Game #{g} · {title}** — {summary.status}, "
                f"waiting for {waiting}{paused}\n{text.status_block(panel.public)}", ephemeral=False)

        await self.run(work())

    @app_commands.command(name="log", description="The last moves (public)")
    async def log_(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        async def work() -> None:
            g = await resolve_game(interaction, game)
            panel = await self.desk.service.panel(g, None)
            entries = await self.desk.service.recent_log(g, 15, None)  # public events only
            lines = [line for e in entries if (line := text.short_log_line(e.seq, e.events, panel.public))]
            await self.desk.answers.say(interaction, f"**Game #{g} — recent moves**\n" + ("\n".join(lines)
                                                                                        or "nothing yet"),
                                        ephemeral=False)

        await self.run(work())

    @app_commands.command(name="games", description="Your games and whose turn each is waiting on")
    async def games(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            mine = await self.desk.service.games_of(interaction.user.id, interaction.guild_id)
            lines = []
            for s in mine:
                waiting = ", ".join(x.name for x in s.seats if x.seat in s.waiting_for)
                where = f" in <#{s.thread_id}>" if s.thread_id else ""
                state = ("lobby" if s.status == "lobby" else "**your turn**" if s.your_turn
                         else f"waiting for {waiting or 'nobody'}")
                lines.append(f"#{s.game_id} · {text.variant_title(s.variant)} — {state}{where}")
            await self.desk.answers.say(interaction, "\n".join(lines) or "You are in no game; start one with /ttr new.")

        await self.run(work())

    @app_commands.command(name="rules", description="The rules, short: by topic, for your game or any variant")
    @app_commands.describe(topic="overview, first-turn, turn, … (the list fits the variant)",
                           variant="a rule set (default: this game's)", dice="with the Dice Expansion")
    @app_commands.choices(variant=[app_commands.Choice(name=text.variant_title(v), value=v)
                                   for v in available_variants()])
    async def rules(self, interaction: discord.Interaction, topic: MediumText | None = None,
                    variant: str | None = None, dice: bool | None = None, game: Game | None = None) -> None:
        async def work() -> None:
            chosen, options, note = await self._rules_table(interaction, variant, dice, game)
            wanted = (topic or "overview").strip().lower()
            title = f"**{text.variant_title(chosen, options)} — {wanted}**{note}"
            await self.desk.answers.say(interaction, f"{title}\n{rules_for(chosen, topic, options)}")

        await self.run(work())

    async def _rules_table(self, interaction: discord.Interaction, variant: str | None, dice: bool | None,
                           game: int | None) -> tuple[str, dict[str, Any], str]:
        """Which rules to show: the variant asked for, else the game's (named, or this thread's),
        else the base game, saying so; `dice` turns the Dice Expansion on or off."""
        if variant is not None and variant not in available_variants():
            raise Refusal(f"There is no variant called {variant[:30]!r}; choose one of "
                          f"{', '.join(available_variants())}.")
        options: dict[str, Any] = {}
        chosen = variant
        note = ""
        if chosen is None:
            g = game
            if g is None:
                with contextlib.suppress(Refusal, ServiceError):  # outside a game: no game
                    g = await resolve_game(interaction, None)
            if g is not None:
                seen = await self.desk.service.view(g, None)
                chosen, options = seen.variant, {k: v for k, v in seen.options.items() if k == "dice"}
            else:
                chosen = DEFAULT_VARIANT
                note = " (the base game; `variant:` picks another)"
        if dice is not None:
            options["dice"] = dice
        return chosen, {k: v for k, v in options.items() if v}, note

    @rules.autocomplete("topic")
    async def _topic(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        variant = getattr(namespace, "variant", None)
        dice = getattr(namespace, "dice", None)
        options = {"dice": True} if dice else {}
        topics = topics_for(variant, options) if variant in available_variants() else {t: "" for t in TOPICS}
        return [app_commands.Choice(name=t, value=t) for t in topics if current.lower() in t][:25]

    @app_commands.command(name="stats", description="Results on this server")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def work() -> None:
            who = player or interaction.user
            if interaction.guild_id is None and who.id != interaction.user.id:
                raise Refusal("In a direct message you can only see your own results; ask in the server.")
            s = await self.desk.service.player_stats(who.id, interaction.guild_id)
            if not s.games:
                await self.desk.answers.say(interaction, f"{who.display_name} has no finished games here yet.",
                                            ephemeral=False)
                return
            await self.desk.answers.say(
                interaction, f"**{who.display_name}**: {s.games} games, {s.wins} wins, average "
                f"{s.average_score:.1f}, best {s.best_score}; tickets {s.tickets_completed} done, "
                f"{s.tickets_failed} missed.", ephemeral=False)

        await self.run(work())


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(InfoCog(bot))
