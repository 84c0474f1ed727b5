"""Answering an interaction: one private sentence for a refusal, a panel replaced in place,
and the one guard around every button and menu (commands have the tree's error handler).

Discord wants an answer within 3 seconds; everything here answers first and works after.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable
from typing import Any

import discord

from app import ServiceError
from bot_app.lang import ENGLISH, Language, english, reader
from bot_app.presentation.components import view_of
from engine.errors import IllegalAction

log = logging.getLogger("bot_app")

MAX_CONTENT = 2000  # Discord's limit for a message's text
MAX_REFUSAL_CHARS = 400
APOLOGY = "Something went wrong on my side; it has been logged — please try again."


class Refusal(Exception):
    """A request we turn down: the message is one sentence for the user, sent privately."""

    def __init__(self, message: str, key: str | None = None, **data: Any) -> None:
        super().__init__(message)
        self.message = message
        # Its words in the catalogues (bot_app/lang), where converted, with what they name.
        self.key = key
        self.data = data


def refusal_text(exc: BaseException) -> str:
    """One sentence for the user: the refusal's own words (never longer than a chat line can
    reasonably be), or a generic apology for a bug (whose details go to the log only)."""
    lang = reader()
    if isinstance(exc, Refusal | IllegalAction | ServiceError):
        return cut(_translated(exc, lang) or exc.message, MAX_REFUSAL_CHARS)
    return lang.t("refusal.apology")


def _translated(exc: Refusal | IllegalAction | ServiceError, lang: Language) -> str | None:
    """A refusal in the reader's language: a Refusal by its key, the engine's and the service's
    by their code ("refusal.<code>") when the words need nothing the exception does not carry;
    None for English or where no catalogue has it yet (the English sentence is used)."""
    if lang.code == ENGLISH:
        return None
    key = exc.key if isinstance(exc, Refusal) else f"refusal.{exc.code}"
    data = exc.data if isinstance(exc, Refusal) else dict(getattr(exc, "data", None) or {})
    if not key or not lang.has(key) or not english().fields(key) <= set(data):
        return None
    return lang.t(key, **data)


def cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


class Answers:
    """Answers to interactions, and how long each took to get its first answer (metrics)."""

    def __init__(self) -> None:
        self.latencies: list[float] = []

    def answered(self, interaction: discord.Interaction) -> None:
        created = interaction.created_at.timestamp()
        self.latencies.append(max(0.0, time.time() - created))
        del self.latencies[:-1000]

    async def say(self, interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
                  view: discord.ui.View | None = None, file: discord.File | None = None) -> None:
        kwargs: dict[str, Any] = {"content": cut(content, MAX_CONTENT), "ephemeral": ephemeral}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
            self.answered(interaction)

    async def update_panel(self, interaction: discord.Interaction, content: str,
                           view: discord.ui.View | None = None) -> None:
        """Answer a click: replace the private panel it came from, or open a new private one
        when the click was on a public post."""
        message = interaction.message
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(content=cut(content, MAX_CONTENT), view=view or view_of(),
                                                    attachments=[])
            self.answered(interaction)
        else:
            await self.say(interaction, content, view=view)

    async def attach(self, interaction: discord.Interaction, file: discord.File) -> None:
        """Add a picture to the answer just given to `interaction` (its text and components
        stay): the panel it replaced, or the private message it opened."""
        kind = interaction.response.type
        try:
            if kind == discord.InteractionResponseType.message_update and interaction.message is not None:
                await interaction.followup.edit_message(interaction.message.id, attachments=[file])
            elif kind == discord.InteractionResponseType.channel_message:
                await interaction.edit_original_response(attachments=[file])
        except discord.HTTPException:  # the choice works without it
            log.warning("could not add a picture to an answer", exc_info=True)

    async def defer(self, interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
        """"Thinking…" while something slow (a picture) is prepared."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            self.answered(interaction)

    async def refuse(self, interaction: discord.Interaction, exc: BaseException) -> None:
        try:
            await self.say(interaction, "🚫 " + refusal_text(exc))
        except discord.HTTPException:
            log.warning("could not send a refusal", exc_info=True)

    async def guard(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Run a button's or menu's work; a refusal or an error becomes one private sentence."""
        try:
            await work
        except (Refusal, IllegalAction, ServiceError) as exc:
            await self.refuse(interaction, exc)
        except discord.HTTPException:
            log.exception("Discord refused a request while answering an interaction")
        except Exception as exc:
            log.exception("error while handling an interaction")
            await self.refuse(interaction, exc)
