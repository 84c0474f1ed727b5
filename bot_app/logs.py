"""Logging for the bot: one handler on the root logger, and no secret in any line.

discord.py logs whole gateway payloads (`discord.gateway`) and request URLs (`discord.http`,
`discord.webhook`) at DEBUG level, and both hold interaction tokens, which let anyone answer
as the bot for 15 minutes. So those loggers never go below INFO, and every line is also
formatted by `RedactingFormatter`, which blanks anything shaped like a token even if another logger prints it.
"""

from __future__ import annotations

import logging
import re
from typing import TextIO

# Loggers that print tokens at DEBUG (payloads, webhook and callback URLs), with the lowest
# level each may run at.
TOKEN_LOGGERS = {"discord.gateway": logging.INFO, "discord.http": logging.WARNING,
                 "discord.webhook": logging.INFO, "discord.client": logging.INFO}

_SECRET = re.compile(
    r"(?P<head>/(?:interactions/[0-9]+|webhooks/[0-9]+)/)[A-Za-z0-9_\-.]{8,}"  # URLs carrying a token
    r"|(?P<key>[\"']?token[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9_\-.]{8,}"  # "token": "…" in a payload
    r"|(?P<bot>Bot )[A-Za-z0-9_\-.]{20,}",  # an Authorization header
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """The text with every interaction or bot token blanked out."""
    return _SECRET.sub(lambda m: (m.group("head") or m.group("key") or m.group("bot") or "") + "[redacted]", text)


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then blanks tokens in the whole line — tracebacks included."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure_logging(level: int, stream: TextIO | None = None) -> logging.Handler:
    """Send the bot's logs (all loggers) to `stream` (stderr by default) at `level`, with
    discord.py's token-carrying loggers held at INFO or above and tokens redacted."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    for name, lowest in TOKEN_LOGGERS.items():
        logging.getLogger(name).setLevel(max(level, lowest))
    return handler
