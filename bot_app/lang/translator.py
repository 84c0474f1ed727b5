"""Slash commands in the reader's language: discord.py's `Translator`, reading the catalogues.

Discord shows each user a command's name, description, options and choices in their client's
language when the command carries `name_localizations` (docs/languages.md). discord.py asks the
tree's translator for every string of every command, once per Discord locale, while it builds
the payload it syncs. The keys are the command's place, not its English words:

- a command or group: `command.<qualified name, dotted>.name` / `.description`
  ("command.ttr.draw.name");
- an option: `command.<command>.<option>.name` / `.description`, else the same for every
  command, `option.<option>.name` / `.description` (`game` is the same everywhere);
- a choice: `choice.<its English name>`.

The English names stay the default (DISCORD_UX.md makes them a contract); a locale whose
catalogue lacks a key gets no localization for it, and Discord shows the English.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot_app.lang import ENGLISH, Language, code_for, language

_NAME = {Where.command_name: "name", Where.group_name: "name", Where.parameter_name: "name"}
_DESCRIPTION = {Where.command_description: "description", Where.group_description: "description",
                Where.parameter_description: "description"}


def keys_for(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> list[str]:
    """The catalogue keys that may hold this string, the most particular first."""
    where = context.location
    part = _NAME.get(where) or _DESCRIPTION.get(where)
    data = context.data
    if where in (Where.command_name, Where.command_description, Where.group_name, Where.group_description):
        return [f"command.{data.qualified_name.replace(' ', '.')}.{part}"]
    if where in (Where.parameter_name, Where.parameter_description):
        command = data.command.qualified_name.replace(" ", ".")
        return [f"command.{command}.{data.name}.{part}", f"option.{data.name}.{part}"]
    if where is Where.choice_name:
        return [f"choice.{string.message}"]
    return []


def translation(string: app_commands.locale_str, lang: Language,
                context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The string in `lang`, or None where its catalogue has none (Discord shows the English)."""
    if lang.code == ENGLISH:
        return None
    for key in keys_for(string, context):
        if lang.has(key):
            return lang.t(key)
    return None


class CatalogueTranslator(app_commands.Translator):
    """The tree's translator (bot_app/adapter/client.py sets it before the commands are synced)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        code = code_for(locale)
        if code == ENGLISH:
            return None
        return translation(string, language(code), context)
