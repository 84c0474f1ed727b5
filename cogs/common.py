"""Shared helpers for the cogs: the desk of the running bot, autocomplete choices, the one
tree error handler."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot_app.inputs import excerpt

if TYPE_CHECKING:
    from bot_app.desk import Desk

log = logging.getLogger("cogs")


def desk(interaction: discord.Interaction) -> Desk:
    return interaction.client.desk  # type: ignore[attr-defined]


def choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs[:25]]


async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The one error handler: log it, tell the user in one sentence, privately."""
    original = getattr(error, "original", error)
    if isinstance(error, app_commands.TransformerError):
        message = f"I could not understand {excerpt(error.value)} for that option; pick one from the list."
    elif isinstance(error, app_commands.CheckFailure):
        message = "You are not allowed to use that command here."
    elif isinstance(error, app_commands.CommandNotFound):
        message = "I don't know that command any more; Discord may still be updating its list."
    else:
        log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=original)
        message = "Something went wrong on my side; it has been logged — please try again."
    try:
        if interaction.response.is_done():
            await interaction.followup.send("🚫 " + message, ephemeral=True)
        else:
            await interaction.response.send_message("🚫 " + message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error", exc_info=True)
