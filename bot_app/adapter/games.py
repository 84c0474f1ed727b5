"""Which game a request means, and whether the caller may reach it from where they are.

A game belongs to its server: from a server, only that server's games; from a direct message,
only the caller's own. The `game:` option is a Transformer: it reads the number, checks the
game can be reached, and offers the caller's games as autocomplete. Without the option, a
command in a game's thread means that game, and elsewhere the caller's only open game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands

from app import GameNotFound, GameSummary, OtherServer, ServiceError
from bot_app.presentation import text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import MAX_OPTIONS
from bot_app.presentation.inputs import DEFAULT_CHARS
from engine.maps import fold

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot
    from bot_app.adapter.desk import Desk

GAME_TITLE_RE = re.compile(r"#([0-9]{1,15})")
GAME_NUMBER_RE = re.compile(r"[0-9]{1,15}")


def desk_of(interaction: discord.Interaction) -> Desk:
    """The desk of the bot that received the interaction."""
    return cast("TtrBot", interaction.client).desk


async def reach(interaction: discord.Interaction, game_id: int) -> GameSummary:
    """The game if the caller may reach it from here — else the same refusal whether or not
    the game exists elsewhere."""
    try:
        return await desk_of(interaction).service.reads.game_for(game_id, guild_id=interaction.guild_id,
                                                         user_id=interaction.user.id)
    except GameNotFound:
        raise OtherServer(game_id) from None


def parse_game(value: str) -> int:
    """The game number in an option's text ("12", "#12 · Europe · your turn")."""
    m = GAME_NUMBER_RE.search(value[:DEFAULT_CHARS])
    if m is None:
        raise Refusal("Pick a game from the list (its number, like 12).")
    return int(m.group())


async def resolve_game(interaction: discord.Interaction, game: int | None) -> int:
    """The game a command means: its `game` option (already checked), else the thread it runs
    in, else the caller's only open game."""
    if game is not None:
        return game
    channel = interaction.channel
    m = GAME_TITLE_RE.search(getattr(channel, "name", None) or "")
    if m is not None and channel is not None:
        try:
            summary = await reach(interaction, int(m.group(1)))
        except ServiceError:
            summary = None
        if summary is not None and summary.thread_id == channel.id:
            return summary.game_id
    mine = await desk_of(interaction).service.reads.games_of(interaction.user.id, interaction.guild_id)
    if len(mine) == 1:
        return mine[0].game_id
    if not mine:
        raise Refusal("You have no game running; start one with /ttr new, or name a game with the game option.")
    raise Refusal("You are in several games: run this in the game's thread or pick one with the game option.")


class GameOption(app_commands.Transformer):
    """The `game:` option: text in, a game the caller may reach out; autocomplete lists the
    caller's games here (a server's, or from a DM all of theirs)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def max_value(self) -> int:  # for a text option: its max_length
        return DEFAULT_CHARS

    async def transform(self, interaction: discord.Interaction, value: str) -> int:
        game_id = parse_game(str(value))
        await reach(interaction, game_id)
        return game_id

    async def autocomplete(self, interaction: discord.Interaction, value: int | float | str
                           ) -> list[app_commands.Choice[int | float | str]]:
        service = desk_of(interaction).service
        out: list[app_commands.Choice[int | float | str]] = []
        for s in await service.reads.games_of(interaction.user.id, interaction.guild_id):
            waiting = ", ".join(x.name for x in s.seats if x.seat in s.waiting_for)
            state = "lobby" if s.status == "lobby" else ("your turn" if s.your_turn else f"waiting for {waiting}")
            label = f"#{s.game_id} · {text.variant_title(s.variant)} · {state}"
            if fold(str(value)) in fold(label):
                out.append(app_commands.Choice(name=label[:100], value=str(s.game_id)))
        return out[:MAX_OPTIONS]


Game = app_commands.Transform[int, GameOption]
