"""Information: /ttr board, status, log, games, rules, stats."""

from __future__ import annotations

import contextlib
import io

import discord
from discord import app_commands

from app import ServiceError
from bot_app import text
from bot_app.desk import Refusal
from bot_app.inputs import MediumText, Text
from bot_app.rules_text import TOPICS, rules_for
from cogs.common import choices, desk
from cogs.lobby import _games


def register(group: app_commands.Group) -> None:
    @group.command(name="board", description="Post the board (public)")
    async def board(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            view = await d.service.view(g, None)  # public only
            await interaction.response.defer(thinking=True)
            png = await d.renderer.board(view)
            await interaction.followup.send(f"**Game #{g}**\n{text.status_block(view)}",
                                            file=discord.File(io.BytesIO(png), "board.png"))

        await d.guard(interaction, run())

    @group.command(name="status", description="Scores and whose turn it is (public)")
    async def status(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            view = await d.service.view(g, None)
            summary = await d.service.game(g)
            names = {s.seat: s.name for s in summary.seats}
            waiting = ", ".join(names[s] for s in summary.waiting_for) or "nobody"
            await d.say(interaction, f"**Game #{g} · {text.variant_title(view['variant'])}** — {summary.status}, "
                        f"waiting for {waiting}\n{text.status_block(view)}", ephemeral=False)

        await d.guard(interaction, run())

    @group.command(name="log", description="The last moves (public)")
    async def log_(interaction: discord.Interaction, game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            g = await d.resolve_game(interaction, game)
            view = await d.service.view(g, None)
            entries = await d.service.recent_log(g, 15, None)  # public events only
            lines = [line for e in entries if (line := text.short_log_line(e.seq, e.events, view))]
            await d.say(interaction, f"**Game #{g} — recent moves**\n" + ("\n".join(lines) or "nothing yet"),
                        ephemeral=False)

        await d.guard(interaction, run())

    @group.command(name="games", description="Your games and whose turn each is waiting on")
    async def games(interaction: discord.Interaction) -> None:
        d = desk(interaction)

        async def run() -> None:
            mine = await d.service.games_of(interaction.user.id, interaction.guild_id)
            lines = []
            for s in mine:
                waiting = ", ".join(x.name for x in s.seats if x.seat in s.waiting_for)
                where = f" in <#{s.thread_id}>" if s.thread_id else ""
                state = ("lobby" if s.status == "lobby" else "**your turn**" if s.your_turn
                         else f"waiting for {waiting or 'nobody'}")
                lines.append(f"#{s.game_id} · {text.variant_title(s.variant)} — {state}{where}")
            await d.say(interaction, "\n".join(lines) or "You are in no game; start one with /ttr new.")

        await d.guard(interaction, run())

    @group.command(name="rules", description="The rules, short")
    async def rules(interaction: discord.Interaction, topic: MediumText | None = None,
                    game: Text | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            variant = "europe"
            if game is not None:  # a game named outright must be one the caller may reach
                variant = (await d.service.game(await d.resolve_game(interaction, game))).variant
            else:
                with contextlib.suppress(Refusal, ServiceError):  # outside a game: the base rules
                    variant = (await d.service.game(await d.resolve_game(interaction, None))).variant
            await d.say(interaction, f"**{text.variant_title(variant)} — {topic or 'overview'}**\n"
                        + rules_for(variant, topic))

        await d.guard(interaction, run())

    @rules.autocomplete("topic")
    async def _topic(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return choices([(t, t) for t in TOPICS if current.lower() in t])

    @group.command(name="stats", description="Results on this server")
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        d = desk(interaction)

        async def run() -> None:
            who = player or interaction.user
            if interaction.guild_id is None and who.id != interaction.user.id:
                raise Refusal("In a direct message you can only see your own results; ask in the server.")
            s = await d.service.player_stats(who.id, interaction.guild_id)
            if not s.games:
                return await d.say(interaction, f"{who.display_name} has no finished games here yet.", ephemeral=False)
            await d.say(interaction, f"**{who.display_name}**: {s.games} games, {s.wins} wins, average "
                        f"{s.average_score:.1f}, best {s.best_score}; tickets {s.tickets_completed} done, "
                        f"{s.tickets_failed} missed.", ephemeral=False)

        await d.guard(interaction, run())

    for cmd in (board, status, log_, rules):
        cmd.autocomplete("game")(_games)
