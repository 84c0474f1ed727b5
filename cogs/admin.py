"""The host's and server managers' commands, in one group: /ttr admin addai, start, cancel
(the lobby's buttons, typed), kick, pause, resume, replace (a seat — a person's, or one the AI
plays — handed to someone new, who gets its hand privately); season and ratings for the
leaderboard. Who may do what is the service's rule (the host, or anyone with Manage Server in
the game's own server); this only says who is asking."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from ai.levels import LEVEL_DESCRIPTIONS, OFFERED_LEVELS
from app import Caller, Seat, ServiceError
from bot_app.adapter import lobby
from bot_app.adapter.games import Game, desk_of, parse_game, reach, resolve_game
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import MAX_OPTIONS
from bot_app.presentation.inputs import ShortText, Text, excerpt, is_number
from cogs.base import TtrCog
from engine.maps import fold

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot


def _caller(interaction: discord.Interaction) -> Caller:
    perms = interaction.permissions
    # A DM has no server to manage; in a server, the game was checked to be this one's.
    manages = interaction.guild_id is not None and (perms.manage_guild or perms.administrator)
    return Caller(interaction.user.id, manages_server=bool(manages))


class AdminCog(TtrCog):
    admin = app_commands.Group(name="admin", description="For the host and server managers")

    @admin.command(name="addai", description="Seat a computer player (host)")
    async def addai(self, interaction: discord.Interaction, game: Game | None = None,
                    level: ShortText = "normal") -> None:
        await self._lobby(interaction, game, "addai", level)

    @addai.autocomplete("level")
    async def _levels(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"{lv}: {LEVEL_DESCRIPTIONS[lv]}", value=lv)
                for lv in OFFERED_LEVELS if current.lower() in lv]

    @admin.command(name="start", description="Deal the game (host)")
    async def start(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self._lobby(interaction, game, "start")

    @admin.command(name="cancel", description="Close the table before the start (host)")
    async def cancel(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        await self._lobby(interaction, game, "cancel")

    @admin.command(name="kick", description="Hand a player's seat to the AI until they come back")
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        seat = await self.desk.service.reads.seat_of(g, player.id)
        if seat is None:
            raise Refusal(f"{player.display_name} is not playing in game #{g}.")
        await self.desk.answers.defer(interaction)
        await self.desk.service.clocks.kick(g, seat, _caller(interaction))
        await interaction.followup.send(f"The AI now plays for {player.display_name} in game #{g} until they "
                                        "come back with any game command.", ephemeral=True)

    @admin.command(name="season", description="End this server's leaderboard season and start the next (managers)")
    async def season(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("Seasons belong to a server: use this there.")
        started = await self.desk.service.standings.start_season(interaction.guild_id, _caller(interaction))
        await self.desk.answers.say(interaction, f"🏁 Season {started.number} has begun: every rating starts "
                                    f"afresh. /ttr results leaderboard season:{started.number - 1} keeps the "
                                    "last one.",
                                    ephemeral=False)

    @admin.command(name="ratings", description="Whether games with AI players count on the leaderboard (managers)")
    @app_commands.describe(ai_games="count games that had AI players (the AI levels are rated like players)")
    async def ratings(self, interaction: discord.Interaction, ai_games: bool) -> None:
        if interaction.guild_id is None:
            raise Refusal("Leaderboards belong to a server: use this there.")
        await self.desk.service.standings.set_rate_ai_games(interaction.guild_id, ai_games, _caller(interaction))
        counted = "count" if ai_games else "no longer count"
        await self.desk.answers.say(interaction, f"Games with AI players now {counted} on this server's "
                                    "leaderboard (ratings are recomputed from the results).", ephemeral=False)

    @admin.command(name="pause", description="Stop the game's clocks")
    async def pause(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        if not await self.desk.service.clocks.pause(g, _caller(interaction)):
            raise Refusal(f"Game #{g} is already paused.")
        await self.desk.answers.say(interaction, f"⏸️ Game #{g} is paused: no reminders and no time limits "
                                    "until /ttr admin resume.", ephemeral=False)

    @admin.command(name="resume", description="Start the game's clocks again (and retry what Discord refused)")
    async def resume(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        if not await self.desk.service.clocks.resume(g, _caller(interaction)):
            raise Refusal(f"Game #{g} is not paused.")
        await self.desk.answers.say(interaction, f"▶️ Game #{g} is running again; the current turn's clock "
                                    "starts now.", ephemeral=False)

    @admin.command(name="replace", description="Hand a seat (a player's, or one the AI plays) to someone new")
    @app_commands.describe(player="the seat to hand over (its number or name; the list shows them)",
                           new="who plays it from now on (a member of this server without a seat in the game)")
    async def replace(self, interaction: discord.Interaction, player: Text, new: discord.User,
                      game: Game | None = None) -> None:
        g = await resolve_game(interaction, game)
        if interaction.guild_id is None:
            raise Refusal("Hand a seat over in the game's server, where I can see who is a member.")
        if not isinstance(new, discord.Member):
            raise Refusal(f"{new.display_name} is not a member of this server.")
        if new.bot:
            raise Refusal("A bot cannot take a seat; /ttr admin kick hands a seat to the AI.")
        summary = await self.desk.service.reads.game(g)
        seat = _seat_named(summary.seats, player)
        if seat is None:
            raise Refusal(f"Game #{g} has no seat {excerpt(player, 20)}; pick one from the list.")
        before = summary.seats[seat]
        await self.desk.service.seats.replace(g, seat, new.id, new.display_name, _caller(interaction))
        was = "the AI's seat" if before.is_ai else f"{before.name}'s seat"
        await self.desk.answers.say(interaction, f"🔁 {new.display_name} now plays {was} (seat {seat + 1}) in "
                                    f"game #{g}; their hand goes to them privately.")

    @replace.autocomplete("player")
    async def _seats(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            raw = getattr(interaction.namespace, "game", None)
            if isinstance(raw, str) and raw.strip():
                g = parse_game(raw)
                await reach(interaction, g)
            else:
                g = await resolve_game(interaction, None)
            summary = await desk_of(interaction).service.reads.game(g)
        except (Refusal, ServiceError):
            return []
        key = fold(current or "")
        out = []
        for s in summary.seats:
            label = f"{s.seat + 1} · {s.name}" + (" (AI)" if s.is_ai else " (the AI stands in)" if s.stand_in else "")
            if not key or key in fold(label):
                out.append(app_commands.Choice(name=label[:100], value=str(s.seat + 1)))
        return out[:MAX_OPTIONS]

    async def _lobby(self, interaction: discord.Interaction, game: int | None, verb: str, level: str = "") -> None:
        g = await resolve_game(interaction, game)
        await lobby.lobby_action(self.desk, interaction, g, verb, level=level or "normal", from_button=False)


def _seat_named(seats: tuple[Seat, ...], text: str) -> int | None:
    """The seat a host means: its number (1, 2, …) or its player's name."""
    text = (text or "").strip()
    if is_number(text):
        n = int(text) - 1
        return n if 0 <= n < len(seats) else None
    key = fold(text)
    found = [s.seat for s in seats if fold(s.name) == key]
    return found[0] if len(found) == 1 else None


async def setup(bot: TtrBot) -> None:
    await bot.add_cog(AdminCog(bot))
