"""How the fake Discord fails: injected failure rules and the shapes of Discord's error answers.

A `Failure` is one rule made by `FakeDiscord.fail` (or a helper built on it, such as `outage`):
requests whose method and path match get the failure's answer instead of (or, with
`after=True`, after) the normal one, for the next `times` matching requests, until a monotonic
`until`, or until `.clear()`.

What discord.py 2.7.1 does with each answer (read from discord/http.py `HTTPClient.request`,
lines 589-795, and discord/webhook/async_.py `AsyncWebhookAdapter.request`, lines 130-239,
which carries interaction callbacks and follow-ups):

- 2xx: returned.
- 429: retried after the body's `retry_after` seconds (http.py:711-764), but only when the
  answer has a `Via` header and a JSON body; otherwise it is taken for a Cloudflare ban and
  raised at once as HTTPException (http.py:712-714, async_.py:208-209). Real Discord sends
  `Via: 1.1 google`, so the fake does too. A 429 uses up one of the 5 tries (http.py:646), so
  5 in a row end in HTTPException(429) (http.py:789-793). `global: true` holds every other
  request of that client until the wait is over (http.py:749-762). With
  `max_ratelimit_timeout` set and a longer `retry_after`, RateLimited is raised instead
  (http.py:730-737). The X-RateLimit-* headers of a 429 are not used (only those of 2xx/4xx
  answers update the bucket).
- 500, 502, 504, 524 from the bot's HTTP client: retried unconditionally after 1, 3, 5, 7, 9 s
  (http.py:766-768); after the 5th failure DiscordServerError is raised (http.py:789-791) —
  25 s of sleeping in all. Other 5xx (503!) are NOT retried there: DiscordServerError at once
  (http.py:775-776). The webhook adapter (interaction answers and follow-ups) retries every
  status >= 500, 503 included, with the same 1, 3, 5, 7, 9 s back-off (async_.py:217-219).
- 403 → Forbidden, 404 → NotFound, other 4xx → HTTPException, each with `.status`, and
  `.code`/`.text` from the JSON body's `code`/`message` (errors.py HTTPException: `.code` is 0
  and `.text` the raw body when it is not JSON).
- A dropped connection (status 0 here) surfaces as an aiohttp.ClientError (ServerDisconnected
  or ClientOSError), not a discord.DiscordException. discord.py retries an OSError only for
  errno 54/10054 (BSD and Windows ECONNRESET, http.py:783), never for Linux's 104.
- Every `Messageable.send` carries a nonce — the caller's, or a random 64-bit one
  (abc.py:1686-1687) — and always `enforce_nonce: true` (http.py:206-208).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

# Discord's JSON error codes the fake gives, with the message Discord's documentation lists.
MISSING_ACCESS = (50001, "Missing Access")
MISSING_PERMISSIONS = (50013, "Missing Permissions")
CANNOT_DM = (50007, "Cannot send messages to this user")
UNKNOWN_CHANNEL = (10003, "Unknown Channel")
UNKNOWN_GUILD = (10004, "Unknown Guild")
UNKNOWN_MESSAGE = (10008, "Unknown Message")
ARCHIVED_THREAD = (50083, "Operation cannot be performed on an archived thread")
THREAD_LOCKED = (160005, "Thread is locked")
THREAD_EXISTS = (160004, "A thread has already been created for this message")
INVALID_FORM = (50035, "Invalid Form Body")

# Permission bits (Discord's values) the fake understands in `deny`/`allow`.
PERMISSIONS = {
    "VIEW_CHANNEL": 1 << 10,
    "SEND_MESSAGES": 1 << 11,
    "ATTACH_FILES": 1 << 15,
    "CREATE_PUBLIC_THREADS": 1 << 35,
    "CREATE_PRIVATE_THREADS": 1 << 36,
    "SEND_MESSAGES_IN_THREADS": 1 << 38,
}
ADMINISTRATOR = 1 << 3
# What @everyone may do in every fake server: everything but Administrator, so that a denial
# (a channel overwrite for the bot) shows in discord.py's `permissions_for` as it would live.
EVERYONE = ((1 << 51) - 1) & ~ADMINISTRATOR

# Bodies of 5xx answers as they come from Discord's edge when no JSON is at hand.
CLOUDFLARE_HTML = ("<html>\r\n<head><title>{status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>{status} "
                   "Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n")
ENVOY_503 = "upstream connect error or disconnect/reset before headers. reset reason: overflow"


def default_body(status: int) -> tuple[str, str]:
    """(content type, body) of a 5xx answer when the test gives none: Discord's own JSON for 500,
    the proxy's plain text for 503, Cloudflare's HTML page for the others."""
    if status == 500:
        return "application/json", json.dumps({"message": "500: Internal Server Error", "code": 0})
    if status == 503:
        return "text/plain", ENVOY_503
    return "text/html", CLOUDFLARE_HTML.format(status=status)


@dataclass
class Failure:
    """One injected failure rule. `status` 0 drops the connection without an answer; `status`
    None answers normally, only `delay` seconds late."""

    method: str  # "GET", "POST", … or "*"
    pattern: re.Pattern[str]  # matched against the whole path after /api/v10
    status: int | None
    code: int = 0
    message: str = ""
    times: int | None = None
    until: float | None = None
    body: str | None = None
    retry_after: float = 0.05
    is_global: bool = False
    delay: float = 0.0
    after: bool = False  # carry the request out first, then answer with the failure
    hits: int = 0
    cleared: bool = False

    def clear(self) -> None:
        """Stop failing from now on."""
        self.cleared = True

    @property
    def active(self) -> bool:
        if self.cleared:
            return False
        if self.times is not None and self.hits >= self.times:
            return False
        return self.until is None or time.monotonic() < self.until

    def matches(self, method: str, path: str) -> bool:
        return (self.method == "*" or self.method == method) and self.pattern.fullmatch(path) is not None

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) to send."""
        assert self.status is not None and self.status > 0
        status = self.status
        if status == 429:
            # Every header discord.py looks at, and Via, without which it assumes a Cloudflare ban.
            reset = time.time() + self.retry_after
            headers = {"Content-Type": "application/json", "Via": "1.1 google",
                       "Retry-After": str(max(1, int(self.retry_after + 0.999))),
                       "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{reset:.3f}",
                       "X-RateLimit-Reset-After": f"{self.retry_after:.3f}", "X-RateLimit-Bucket": "fakebucket",
                       "X-RateLimit-Scope": "global" if self.is_global else "user"}
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            payload: dict[str, Any] = {"message": self.message or "You are being rate limited.",
                                       "retry_after": self.retry_after, "global": self.is_global}
            if self.code:
                payload["code"] = self.code
            return status, headers, json.dumps(payload).encode()
        if self.body is not None:
            kind = "application/json" if self.body.startswith("{") else "text/html"
            return status, {"Content-Type": kind}, self.body.encode()
        if status >= 500 and not self.code and not self.message:
            kind, text = default_body(status)
            return status, {"Content-Type": kind}, text.encode()
        return status, {"Content-Type": "application/json"}, json.dumps(
            {"code": self.code, "message": self.message}).encode()
