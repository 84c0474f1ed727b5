"""The slash-command tree: one check before every command, one error handler, and syncing
the commands with Discord only when they changed.

Discord allows 25 options (sub-commands and groups) per level of a command; `/ttr` keeps at
least FREE_SLOTS of them free for later commands (a test checks both).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from app import ServiceError
from bot_app.lang import hear_user
from bot_app.presentation.answers import Refusal, refusal_text
from bot_app.presentation.inputs import excerpt, too_long
from engine.errors import IllegalAction

if TYPE_CHECKING:
    from bot_app.adapter.client import TtrBot

log = logging.getLogger("cogs")

MAX_OPTIONS_PER_LEVEL = 25  # Discord's limit
# Top-level slots of /ttr kept free for what comes next (docs/discord.md: at most 19 in use;
# related commands share a group, as /ttr admin, results, settings and turn do).
FREE_SLOTS = 6


# The key in a command's `extras` that says whether running it is playing: a command that only
# reads (the rules, results, one's settings) does not end its player's vacation (bot_app/adapter/client.py).
ENDS_VACATION = "ends_vacation"

CommandT = TypeVar("CommandT", bound="app_commands.Command[Any, ..., Any] | app_commands.Group")


def keeps_vacation(command: CommandT) -> CommandT:
    """Mark a command (above its `app_commands.command`) that only reads: a player on vacation
    who runs it stays on vacation."""
    command.extras[ENDS_VACATION] = False
    return command


class TtrTree(app_commands.CommandTree["TtrBot"]):
    """Every text option within its length before any handler parses it
    (bot_app.presentation.inputs), every command counted while it runs, and every failure
    answered in one private sentence."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is not discord.InteractionType.autocomplete:
            await hear_user(self.client.service, interaction)  # the answers in its user's language
        data: Any = interaction.data
        found = too_long(data.get("options") if isinstance(data, dict) else None)
        if found is None:
            return True
        name, length, limit = found
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(
                f"🚫 That {name} is too long ({length} characters; at most {limit}). Pick one from the list.",
                ephemeral=True)
        return False

    async def _call(self, interaction: discord.Interaction[TtrBot], /) -> None:
        """Every slash command and autocomplete passes here — the check, the body and its error
        handler — counted as one running handler: a stop, the tests and the benchmarks wait
        until none is (`Desk.settle`, `Desk.busy`), and no command body counts itself."""
        with self.client.desk.handling():
            await super()._call(interaction)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """The one error handler of every slash command: a refusal's own words, or an apology
        (and the details in the log)."""
        original = getattr(error, "original", None) or error.__cause__ or error
        if isinstance(original, Refusal | IllegalAction | ServiceError):
            message = refusal_text(original)
        elif isinstance(error, app_commands.TransformerError):
            message = f"I could not understand {excerpt(error.value)} for that option; pick one from the list."
        elif isinstance(error, app_commands.CheckFailure):
            message = "You are not allowed to use that command here."
        elif isinstance(error, app_commands.CommandNotFound):
            message = "I don't know that command any more; Discord may still be updating its list."
        else:
            log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=original)
            message = refusal_text(original)
        try:
            if interaction.response.is_done():
                await interaction.followup.send("🚫 " + message, ephemeral=True)
            else:
                await interaction.response.send_message("🚫 " + message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer a failed command", exc_info=True)


def tree_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The global commands as Discord receives them (without their translations)."""
    return [cmd.to_dict(tree) for cmd in tree.get_commands()]


async def translated_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The global commands with their names and descriptions in every language the tree's
    translator knows (what `tree.sync` sends): a changed catalogue changes it, so it syncs."""
    translator = tree.translator
    if translator is None:
        return tree_payload(tree)
    return [await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()]


def digest(payload: list[dict[str, Any]], target: str) -> str:
    return hashlib.sha256((target + json.dumps(payload, sort_keys=True)).encode()).hexdigest()


async def sync_commands(bot: TtrBot, *, force: bool = False) -> bool:
    """Send the commands to Discord if they changed since the last sync (or `force`). With a
    GUILD_ID, they go to that server only and the global copies are cleared, so the server
    does not see every command twice. Returns whether it synced."""
    target = f"guild:{bot.guild_id}" if bot.guild_id else "global"
    wanted = digest(await translated_payload(bot.tree), target)
    if not force and await bot.service.reads.bot_state("commands") == wanted:
        log.info("slash commands unchanged since the last sync; not syncing")
        return False
    if bot.guild_id:
        guild = discord.Object(bot.guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)
        bot.tree.clear_commands(guild=None)
        await bot.tree.sync()  # clears the global copies
    else:
        await bot.tree.sync()
    await bot.service.reads.set_bot_state("commands", wanted)
    log.info("slash commands synced (%s)", target)
    return True
