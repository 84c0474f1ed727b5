"""What Discord's answers to a delivery mean: the refusals that another try will not change
(and the words for the host about each), and the nonce that lets a retry get back the message
Discord already took."""

from __future__ import annotations

from typing import Any

import discord

ARCHIVED = 50083
UNKNOWN_MESSAGE = 10008
# Refusals that another try will not change, and what to tell the host about each.
FOR_GOOD = {
    50013: "I am missing a permission there",
    50001: "I cannot see that channel any more",
    10003: "the game's thread or channel no longer exists",
    160005: "the game's thread is locked",
    10004: "the server no longer has me",
}
NEEDED = "View Channel, Send Messages in Threads, Attach Files and Read Message History"


class Refused(Exception):
    """Discord refused a delivery for good; `reason` says why, for the host."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def nonce(delivery_id: int, part: int = 0) -> str:
    """A message nonce (at most 25 characters) unique to a delivery (and to each further
    message of a delivery too long for one)."""
    return (f"ttr-d{delivery_id}" + (f"-{part}" if part else ""))[:25]


async def refusals(channel_id: int | None, send: Any) -> Any:
    """Await a send or edit, turning Discord's refusals for good into Refused."""
    try:
        return await send
    except discord.HTTPException as exc:
        raise classify(exc, channel_id) from exc


def classify(exc: discord.HTTPException, channel_id: int | None) -> Exception:
    """A refusal for good as Refused (with words for the host); anything else as it was."""
    if isinstance(exc, discord.DiscordServerError):
        return exc
    reason = FOR_GOOD.get(exc.code)
    if reason is None and exc.status in (401, 403, 404):
        reason = "Discord refused it"
    if reason is None:
        return exc
    where = f" (<#{channel_id}>)" if channel_id is not None else ""
    if exc.code == 50013:
        reason += f"{where}: I need {NEEDED}"
    else:
        reason += where
    return Refused(f"{reason} [Discord code {exc.code}]")


def describe(exc: BaseException) -> str:
    """A failure in a few words for the log and the retry note (never a message's content)."""
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status} (code {exc.code})"
    return type(exc).__name__

