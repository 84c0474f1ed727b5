"""A loopback fake of Discord: enough gateway and REST for discord.py 2.7.1 to run unchanged.

Gateway (websocket at /gateway, JSON text frames, no compression):
    HELLO → IDENTIFY → READY + GUILD_CREATE; heartbeats are ACKed; `dispatch` sends events
    (INTERACTION_CREATE) to every connected bot. Shards as Discord's: an IDENTIFY with
    `shard: [i, n]` opens shard i of n, which hears only of the servers on it (`(guild id >> 22)
    % n == i`: READY, GUILD_CREATE and every event of theirs; DMs on shard 0). An IDENTIFY
    without one is the whole bot ([0, 1]). `add_guild(shard=(i, n))` makes a server on shard i.
REST (under /api/v10, answers with Content-Type exactly application/json):
    users/@me, users/{id}, oauth2/applications/@me, command sync (PUT and GET of the global and
    of each guild's commands, kept apart and counted in `syncs`), interaction callbacks (+
    GET/PATCH @original), webhook follow-ups (POST, PATCH), channel messages (POST/PATCH/GET/
    DELETE, JSON or multipart with files; `nonce` + `enforce_nonce` deduplicate as Discord
    does; layout messages — components v2, flag IS_COMPONENTS_V2 — checked as Discord checks
    them, `layout_problem`, and attachment descriptions kept), threads from a message, DM
    channels (users/@me/channels; a user with `dms_closed` gives 403 / code 50007).

In memory: guilds (one to start with; `add_guild` makes more), each with one text channel, users,
channels (text, threads, DMs), messages
(with their components and attachments), every interaction with its answers and timing, and a
`public` list of everything anyone in the server could see (for the secret scan); `log` has
every REST request with the status it got (`count` counts them).

Failing like Discord (faults.py tells what discord.py then does — which answers it retries):
    `fail(...)` injects raw failures (any status and JSON code, 5xx pages, 429 with its headers,
    dropped connections, slow answers); `outage` fails everything for a while; and Discord's
    own rules are modelled: `archive`/`lock` a thread (edits 400/50083; a send unarchives an
    unlocked thread, a locked one answers 403/160005), `deny`/`allow` a permission on a channel
    (403/50013, or 50001 for VIEW_CHANNEL; shown to the bot as a channel overwrite), and
    `delete_channel` (404/10003). Archived threads are not in GUILD_CREATE, as live.

Point discord.py at it with `install(fake)` (sets discord.http.Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY — internals, hence the pinned discord.py version).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .faults import (
    ARCHIVED_THREAD,
    CANNOT_DM,
    EVERYONE,
    INVALID_FORM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    PERMISSIONS,
    THREAD_EXISTS,
    THREAD_LOCKED,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    Failure,
)

JSON = "application/json"
EPHEMERAL = 64
THREAD_TYPES = (10, 11, 12)
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")  # events whose `id` is the server's
NONCE_MAX = 25  # Discord refuses longer nonces (400 / 50035)
_ids = itertools.count(1_100_000_000_000_000_000)
# Servers placed on a chosen shard: ids whose timestamp part (id >> 22) is chosen, far above _ids'.
_guild_stamps = itertools.count(1_300_000_000_000_000_000 >> 22)


MAX_DESCRIPTION = 1024  # Discord's limit for an attachment's description
# Components v2 (layout messages): the flag, the component types the fake knows, and Discord's limits
IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, SELECT, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, SEPARATOR, CONTAINER = (
    1, 2, 3, 9, 10, 11, 12, 14, 17)
LAYOUT_TYPES = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR, CONTAINER}
MAX_LAYOUT_COMPONENTS = 40  # every component of a layout message, nested ones included
MAX_LAYOUT_TEXT = 4000  # the text of all its text displays together
MAX_GALLERY_DESCRIPTION = 256  # a media gallery item's description


def snowflake() -> int:
    return next(_ids)


def on_shard(guild_id: int | None, shard: tuple[int, int]) -> bool:
    """Whether Discord sends the events of `guild_id` (None: a DM) to `shard` ([i, n])."""
    i, n = shard
    return (0 if guild_id is None else (guild_id >> 22) % n) == i


def guild_snowflake(shard: tuple[int, int]) -> int:
    """A new server id on `shard` ([i, n])."""
    while not on_shard(gid := next(_guild_stamps) << 22, shard):
        pass
    return gid


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    manager: bool = False  # has Manage Server in the first guild
    manages: set[int] = field(default_factory=set)  # other guilds where they have Manage Server
    locale: str = "en-US"  # their Discord client's language (an interaction's `locale`)

    def is_manager(self, guild_id: int, first_guild: int) -> bool:
        return (self.manager and guild_id == first_guild) or guild_id in self.manages

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
                "avatar": None, "bot": self.bot, "public_flags": 0}


@dataclass
class Interaction:
    id: int
    token: str
    user: User
    payload: dict[str, Any]
    created: float
    kind: str  # "command", "component", "autocomplete"
    answered_at: float | None = None
    callback: dict[str, Any] | None = None
    original_id: int | None = None
    followups: list[int] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.created

    @property
    def response_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")


@dataclass
class Logged:
    """One REST request the fake was sent, and the status it answered (0: connection dropped)."""

    method: str
    path: str
    status: int
    at: float  # monotonic
    body: dict[str, Any]
    injected: bool  # answered by a `fail` rule rather than by the fake's model


@dataclass
class PublicItem:
    """Something anyone in the server could see: a message's text and components, a thread
    name, an attachment (name and bytes)."""

    where: str
    text: str
    data: bytes = b""


class FakeDiscord:
    def __init__(self) -> None:
        self.app_id = snowflake()
        self.bot_user = User(snowflake(), "TTR Bot", bot=True)
        self.guild_id = snowflake()
        self.channel_id = snowflake()
        self.owner = User(snowflake(), "Owner", manager=True)
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, str] = {self.guild_id: "Fake Guild"}  # guild id → name
        self.guild_locales: dict[int, str] = {}  # a guild's preferred locale, when not en-US
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: self._text_channel(self.channel_id, self.guild_id)}
        self.messages: dict[int, dict[str, Any]] = {}  # message id → message payload
        # Indexes of `messages`, so that a long test (the fuzz: thousands of messages) looks
        # them up without reading them all each time. They may name deleted messages.
        self._in_channel: dict[int, dict[int, None]] = {}  # channel id → its message ids, oldest first
        self._with_components: set[int] = set()  # ids of messages posted or edited with components
        self.files: dict[int, list[tuple[str, bytes]]] = {}  # message id → attachments' bytes
        self.written: dict[int, float] = {}  # message id → when it was last posted or edited (monotonic)
        self.interactions: dict[str, Interaction] = {}  # token → interaction
        self.by_id: dict[int, Interaction] = {}
        self.public: list[PublicItem] = []
        self.private: list[PublicItem] = []  # DMs and ephemeral answers (for tests that look)
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.syncs: Counter[int | None] = Counter()  # PUTs of the command list: None = global, else guild id
        self.sockets: list[web.WebSocketResponse] = []
        self.shard_of: dict[int, tuple[int, int]] = {}  # id() of an identified socket → its shard [i, n]
        self.identified_shards: list[tuple[int, int]] = []  # every IDENTIFY's shard, in order
        self.seq = 0
        self.changed = asyncio.Condition()
        self.requests: list[tuple[str, str]] = []
        self.log: list[Logged] = []
        self.errors: list[str] = []
        self.failures: list[Failure] = []
        self.denied: dict[int, set[str]] = {}  # channel id → permissions the bot lacks there
        # (channel, author, nonce) → (message id, when): Discord returns the first message again
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.nonce_ttl = 300.0  # "the past few minutes", Discord says
        # message id → the `allowed_mentions` it was sent with (who it may ping), when given
        self.allowed_mentions: dict[int, dict[str, Any]] = {}
        self.identifies = 0  # IDENTIFYs seen: one per (re)started bot
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.identified = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @staticmethod
    def _text_channel(channel_id: int, guild_id: int) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "name": "games", "guild_id": str(guild_id), "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                "last_message_id": None, "rate_limit_per_user": 0}

    async def add_guild(self, name: str = "Other Guild", *, shard: tuple[int, int] | None = None
                        ) -> tuple[int, int]:
        """Another server with one text channel: (guild id, channel id), on `shard` ([i, n]) when
        given. A bot already connected (on its shard) hears of it (GUILD_CREATE)."""
        gid, cid = (snowflake() if shard is None else guild_snowflake(shard)), snowflake()
        self.guilds[gid] = name
        self.channels[cid] = self._text_channel(cid, gid)
        await self.dispatch("GUILD_CREATE", self._guild_payload(gid))
        return gid, cid

    def guild_of(self, channel_id: int) -> int | None:
        """The guild a channel (or thread) belongs to; None for a DM."""
        raw = self.channels[channel_id].get("guild_id")
        return int(raw) if raw is not None else None

    def add_user(self, name: str, *, dms_closed: bool = False, manager: bool = False) -> User:
        user = User(snowflake(), name, dms_closed=dms_closed, manager=manager)
        self.users[user.id] = user
        return user

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until predicate() is truthy (checked after every request the bot makes)."""
        deadline = time.monotonic() + timeout
        # Woken by every request; polled too, for conditions outside the fake (the bot done
        # with its work after its last request): first after 1 ms, then less often, up to 10 ms.
        poll = 0.001
        async with self.changed:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the fake Discord waited in vain")
                try:
                    await asyncio.wait_for(self.changed.wait(), min(left, poll))
                except TimeoutError:
                    poll = min(poll * 2, 0.01)

    # ------------------------------------------------------------------ failing like Discord

    def fail(self, method: str, path: str, status: int, code: int = 0, message: str = "", *,
             times: int | None = None, until: float | None = None, body: str | None = None,
             retry_after: float = 0.05, is_global: bool = False, delay: float = 0.0, after: bool = False) -> Failure:
        """Answer matching REST requests with an error instead of the normal answer.

        `method` is "GET", "POST", … or "*"; `path` a regular expression matched against the
        whole path after /api/v10 (e.g. rf"/channels/{cid}/messages"). The failure holds for
        the next `times` matching requests, until the monotonic deadline `until`, or (both
        None) until `.clear()`. The newest matching rule wins.

        The answer: JSON {"code", "message"} with `status`; for 5xx without code or message,
        the body Discord's edge sends (faults.default_body) unless `body` is given; for 429,
        Retry-After, X-RateLimit-* and Via headers and {"message", "retry_after", "global"}.
        `status` 0 drops the connection without an answer. `delay` answers that late;
        `after=True` carries the request out first and then fails it (Discord did it, the
        bot never heard)."""
        failure = Failure(method.upper(), re.compile(path), status, code, message, times, until, body, retry_after,
                          is_global, delay, after)
        self.failures.append(failure)
        return failure

    def slow(self, method: str, path: str, seconds: float, *, times: int | None = None) -> Failure:
        """Answer matching requests normally, but `seconds` late."""
        failure = Failure(method.upper(), re.compile(path), None, times=times, delay=seconds)
        self.failures.append(failure)
        return failure

    def outage(self, seconds: float, status: int = 503) -> Failure:
        """Every REST request (not the gateway) fails with `status` for `seconds` from now."""
        return self.fail("*", r"(?!/gateway).*", status, until=time.monotonic() + seconds)

    def clear_failures(self) -> None:
        for failure in self.failures:
            failure.clear()

    async def _set_thread(self, thread_id: int, **metadata: Any) -> None:
        thread = self.channels[thread_id]
        assert thread["type"] in THREAD_TYPES, f"{thread_id} is not a thread"
        thread["thread_metadata"].update(metadata)
        if "archived" in metadata:
            thread["thread_metadata"]["archive_timestamp"] = now_iso()
        await self.dispatch("THREAD_UPDATE", dict(thread))

    async def archive(self, thread_id: int) -> None:
        """The thread is archived (as after its auto-archive time). Edits in it then fail with
        400/50083; the next message sent to it unarchives it."""
        await self._set_thread(thread_id, archived=True)

    async def unarchive(self, thread_id: int) -> None:
        await self._set_thread(thread_id, archived=False, locked=False)

    async def lock(self, thread_id: int) -> None:
        """A moderator archived and locked the thread: sending answers 403/160005, editing
        400/50083. (The fake's bot is one without Manage Threads, which on Discord could still
        unarchive it.)"""
        await self._set_thread(thread_id, archived=True, locked=True)

    async def deny(self, channel_id: int, *permissions: str) -> None:
        """The bot loses `permissions` (names from faults.PERMISSIONS) in the channel: the REST
        calls that need them answer 403/50013 (VIEW_CHANNEL: 403/50001 for everything there).
        A thread is also bound by its parent's denials. For a text channel the bot hears of it
        as a member overwrite (CHANNEL_UPDATE), so `permissions_for` agrees."""
        unknown = set(permissions) - set(PERMISSIONS)
        if unknown:
            raise ValueError(f"the fake does not model {sorted(unknown)}; it knows {sorted(PERMISSIONS)}")
        self.denied.setdefault(channel_id, set()).update(permissions)
        await self._overwrites_changed(channel_id)

    async def allow(self, channel_id: int, *permissions: str) -> None:
        """Give back permissions taken with `deny` (all of them when none are named)."""
        if not permissions:
            self.denied.pop(channel_id, None)
        else:
            self.denied.get(channel_id, set()).difference_update(permissions)
        await self._overwrites_changed(channel_id)

    async def _overwrites_changed(self, channel_id: int) -> None:
        channel = self.channels[channel_id]
        if channel["type"] != 0:
            return
        bits = sum(PERMISSIONS[p] for p in self.denied.get(channel_id, ()))
        channel["permission_overwrites"] = [
            {"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(bits)}] if bits else []
        await self.dispatch("CHANNEL_UPDATE", dict(channel))

    async def delete_channel(self, channel_id: int) -> None:
        """The channel (with its threads) or thread is deleted: every later call on it answers
        404/10003. Its messages stay in `messages` for the test to look at."""
        gone = [channel_id] + [cid for cid, c in self.channels.items() if c.get("parent_id") == str(channel_id)]
        for cid in reversed(gone):
            channel = self.channels.pop(cid)
            if channel["type"] in THREAD_TYPES:
                await self.dispatch("THREAD_DELETE", {"id": channel["id"], "guild_id": channel["guild_id"],
                                                      "parent_id": channel["parent_id"], "type": channel["type"]})
            elif channel["type"] != 1:
                await self.dispatch("CHANNEL_DELETE", channel)

    # ------------------------------------------------------------------ counting what happened

    def count(self, method: str = "*", path: str = ".*", *, status: int | None = None) -> int:
        """How many REST requests matched: method ("*" for any), a regular expression for the
        whole path, and (optionally) the status they were answered with (0: dropped)."""
        pattern = re.compile(path)
        return sum(1 for r in self.log if (method == "*" or r.method == method.upper())
                   and pattern.fullmatch(r.path) and (status is None or r.status == status))

    def dm_channel(self, user: User) -> int | None:
        """The id of the bot's DM channel with `user`, once the bot has opened it."""
        return next((cid for cid, c in self.channels.items()
                     if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id)), None)

    # ------------------------------------------------------------------ gateway

    def _guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        gid = guild_id or self.guild_id
        everyone = {"id": str(gid), "name": "@everyone", "permissions": str(EVERYONE), "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(gid)]
        # Discord lists only active threads at connect; archived ones must be fetched.
        threads = [c for c in mine if c["type"] in THREAD_TYPES and not c["thread_metadata"]["archived"]]
        return {
            "id": str(gid), "name": self.guilds[gid], "icon": None, "owner_id": str(self.owner.id),
            "roles": [everyone], "emojis": [], "stickers": [], "features": [], "member_count": len(self.users),
            "large": False, "unavailable": False, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0,
            "preferred_locale": self.guild_locales.get(gid, "en-US"),
            "system_channel_flags": 0, "afk_timeout": 300, "nsfw_level": 0,
            "channels": [c for c in mine if c["type"] == 0],
            "threads": threads, "members": [self._member(self.bot_user, gid)], "voice_states": [], "presences": [],
            "joined_at": now_iso(), "stage_instances": [], "guild_scheduled_events": [],
        }

    def _member(self, user: User, guild_id: int) -> dict[str, Any]:
        manager = user.is_manager(guild_id, self.guild_id)
        perms = 0x7FFFFFFFF if manager else (0x800 | 0x400 | 0x40 | 0x80000000)
        return {"user": user.payload(), "roles": [], "joined_at": now_iso(), "deaf": False, "mute": False,
                "flags": 0, "permissions": str(perms), "nick": None, "avatar": None}

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None}))
            elif op == 2:
                self.identifies += 1
                raw_shard = (data.get("d") or {}).get("shard") or [0, 1]
                shard = (int(raw_shard[0]), int(raw_shard[1]))
                self.identified_shards.append(shard)
                self.shard_of[id(ws)] = shard
                self.sockets.append(ws)
                self.seq += 1
                guilds = [g for g in self.guilds if on_shard(g, shard)]
                ready = {"v": 10, "user": self.bot_user.payload(),
                         "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                         "session_id": f"s{snowflake()}", "resume_gateway_url": self.gateway_url,
                         "shard": list(shard), "application": {"id": str(self.app_id), "flags": 0},
                         "private_channels": [], "relationships": []}
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self.seq, "d": ready}))
                for gid in guilds:
                    self.seq += 1
                    await ws.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self.seq,
                                                  "d": self._guild_payload(gid)}))
                self.identified.set()
            elif op == 6:  # RESUME: say we cannot, so the client identifies again
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        if ws in self.sockets:
            self.sockets.remove(ws)
        self.shard_of.pop(id(ws), None)
        return ws

    def shards_connected(self) -> list[tuple[int, int]]:
        """The shards ([i, n]) of the bot's open gateway connections, sorted."""
        return sorted(self.shard_of[id(ws)] for ws in self.sockets if not ws.closed and id(ws) in self.shard_of)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every connection on the shard of its server (a DM's: shard 0)."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        raw_guild = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
        guild_id = int(raw_guild) if raw_guild is not None else None
        for ws in list(self.sockets):
            if ws.closed or not on_shard(guild_id, self.shard_of.get(id(ws), (0, 1))):
                continue
            try:
                await ws.send_str(frame)
            except ConnectionError:  # a bot killed mid-game: its socket is gone, others still hear
                with contextlib.suppress(ValueError):
                    self.sockets.remove(ws)

    # ------------------------------------------------------------------ interactions (the users' side)

    def channel_payload(self, channel_id: int) -> dict[str, Any]:
        return dict(self.channels[channel_id])

    async def _interact(self, user: User, kind: str, itype: int, data: dict[str, Any], channel_id: int,
                        message: dict[str, Any] | None = None) -> Interaction:
        iid = snowflake()
        token = f"tok{iid}"
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "data": data, "token": token,
            "version": 1, "channel_id": str(channel_id), "channel": self.channel_payload(channel_id),
            "locale": user.locale, "app_permissions": str(self.permissions(channel_id)),
            "attachment_size_limit": 26214400,
            "entitlements": [], "context": 0,
        }
        guild_id = self.guild_of(channel_id)
        if guild_id is None:
            payload["user"] = user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        else:
            payload["guild_id"] = str(guild_id)
            payload["guild_locale"] = self.guild_locales.get(guild_id, "en-US")
            payload["member"] = self._member(user, guild_id)
            payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        if message is not None:
            payload["message"] = message
        it = Interaction(iid, token, user, payload, time.monotonic(), kind)
        self.interactions[token] = it
        self.by_id[iid] = it
        await self.dispatch("INTERACTION_CREATE", payload)
        return it

    def _options(self, sub: str, options: dict[str, Any], focused: str | None = None,
                 guild_id: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        opts = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                resolved.setdefault("members", {})[str(value.id)] = {
                    k: v for k, v in self._member(value, guild_id or self.guild_id).items() if k != "user"}
                opts.append({"name": name, "type": 6, "value": str(value.id)})
                continue
            otype = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(
                value, float) else 3
            entry: dict[str, Any] = {"name": name, "type": otype, "value": value}
            if name == focused:
                entry["focused"] = True
            opts.append(entry)
        cmd = next((c for c in self.commands_for(guild_id) if c["name"] == "ttr"), {"id": "0"})
        group, _, leaf = sub.rpartition(" ")  # "admin kick": a sub-command of a group
        invoked: dict[str, Any] = {"name": leaf, "type": 1, "options": opts}
        if group:
            invoked = {"name": group, "type": 2, "options": [invoked]}
        data = {"id": cmd["id"], "name": "ttr", "type": 1, "options": [invoked]}
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    async def slash(self, user: User, sub: str, channel_id: int | None = None, **options: Any) -> Interaction:
        """Run `/ttr <sub> option:value …` as `user` (`sub` may be "admin kick")."""
        channel_id = channel_id or self.channel_id
        data, _ = self._options(sub, options, guild_id=self.guild_of(channel_id))
        return await self._interact(user, "command", 2, data, channel_id)

    async def autocomplete(self, user: User, sub: str, focused: str, channel_id: int | None = None,
                           **options: Any) -> Interaction:
        channel_id = channel_id or self.channel_id
        data, _ = self._options(sub, options, focused, guild_id=self.guild_of(channel_id))
        return await self._interact(user, "autocomplete", 4, data, channel_id)

    async def click(self, user: User, message_id: int, custom_id: str, values: list[str] | None = None
                    ) -> Interaction:
        """Press a button (or choose in a select menu) on a message the bot posted."""
        message = self.messages[message_id]
        ctype = 3 if values is not None else 2
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if values is not None:
            data["values"] = values
        return await self._interact(user, "component", 3, data, int(message["channel_id"]), message)

    async def answered(self, it: Interaction, timeout: float = 10.0) -> Interaction:
        await asyncio.wait_for(it.answered.wait(), timeout)
        return it

    # ------------------------------------------------------------------ REST

    def _json(self, data: Any, status: int = 200) -> web.Response:
        # Exactly "application/json": discord.py compares the header verbatim (no charset).
        if isinstance(data, dict) and isinstance(data.get("flags"), int) and data["flags"] & IS_COMPONENTS_V2:
            data = dict(data, content="")  # a layout message has no content on the wire (see `_layout_text`)
        return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": JSON})

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"code": code, "message": message}, status)

    def _refuse(self, status: int, error: tuple[int, str]) -> web.Response:
        return self._error(status, *error)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files.append((part.filename or "file", bytes(await part.read())))
            return payload, files
        if request.can_read_body:
            text = await request.text()
            return (json.loads(text) if text else {}), files
        return {}, files

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.requests.append((method, path))
        failure: Failure | None = None
        try:
            body, files = await self._body(request)
            failure = self._failure_for(method, path)
            if failure is not None and failure.delay:
                await asyncio.sleep(failure.delay)
            response: web.Response | None = None
            if failure is None or failure.status is None or failure.after:
                response = await self._route(method, path, body, files, request)
            if failure is not None and failure.status is not None:
                response = None
                if failure.status > 0:
                    status, headers, data = failure.answer()
                    response = web.Response(status=status, headers=headers, body=data)
        except Exception as exc:  # a bug in the fake: make it loud in the test
            self.errors.append(f"{method} {path}: {exc!r}")
            raise
        injected = failure is not None and failure.status is not None
        self.log.append(Logged(method, path, response.status if response is not None else 0, time.monotonic(),
                               body, injected))
        await self._notify()
        if response is None:
            # No answer at all, as when Discord's edge drops the connection.
            if request.transport is not None:
                request.transport.abort()
            # aiohttp finds the transport gone and writes nothing of this.
            return web.Response(status=499)
        return response

    def _failure_for(self, method: str, path: str) -> Failure | None:
        """The newest active failure rule for this request, counted as used."""
        for failure in reversed(self.failures):
            if failure.active and failure.matches(method, path):
                failure.hits += 1
                return failure
        return None

    async def _route(self, method: str, path: str, body: dict[str, Any], files: list[tuple[str, bytes]],
                     request: web.Request) -> web.Response:
        parts = path.strip("/").split("/")
        if path == "/users/@me" and method == "GET":
            return self._json(self.bot_user.payload())
        if path == "/oauth2/applications/@me":
            return self._json({"id": str(self.app_id), "name": "TTR", "icon": None, "description": "",
                               "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                               "owner": self.owner.payload(), "verify_key": "0" * 64, "flags": 0, "team": None,
                               "summary": ""})
        if parts[0] == "applications":
            return self._commands(method, parts, body)
        if path == "/users/@me/channels" and method == "POST":
            uid = int(body["recipient_id"])
            cid = self._dm_channel(uid)
            return self._json(self.channels[cid])
        if parts[0] == "users" and len(parts) == 2 and method == "GET":
            user = self.users.get(int(parts[1]))
            return self._json(user.payload()) if user else self._error(404, 10013, "Unknown User")
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(int(parts[1]), parts[2], body, files)
        if parts[0] == "webhooks":
            return self._webhook(method, parts, body, files, request)
        if parts[0] == "channels":
            return await self._channels(method, parts, body, files)
        return self._error(404, 0, f"the fake has no route {method} {path}")

    # --- application commands

    def _commands(self, method: str, parts: list[str], body: Any) -> web.Response:
        """/applications/{app}/commands (global) and /applications/{app}/guilds/{guild}/commands,
        each its own list. A PUT replaces the list (keeping the id of a command whose name
        stays, as Discord's bulk overwrite does) and is counted in `syncs`."""
        if len(parts) == 3 and parts[2] == "commands":
            scope: int | None = None
            current = self.global_commands
        elif len(parts) == 5 and parts[2] == "guilds" and parts[4] == "commands":
            scope = int(parts[3])
            if scope not in self.guilds:  # not in that server (or no applications.commands scope there)
                return self._refuse(403, MISSING_ACCESS)
            current = self.guild_commands.get(scope, [])
        else:
            return self._error(404, 0, "the fake has no such application route")
        if method == "GET":
            return self._json(current)
        if method != "PUT":
            return self._error(405, 0, "405: Method Not Allowed")
        ids = {c["name"]: c["id"] for c in current}
        made = []
        for c in body:
            cmd = dict(c, id=ids.get(c["name"]) or str(snowflake()), application_id=str(self.app_id),
                       version=str(snowflake()))
            if scope is not None:
                cmd["guild_id"] = str(scope)
            made.append(cmd)
        if scope is None:
            self.global_commands = made
        else:
            self.guild_commands[scope] = made
        self.syncs[scope] += 1
        return self._json(made)

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        """The commands a user sees in that server: its own list if it has one, else the global
        one (also for DMs, guild_id None)."""
        if guild_id is not None and self.guild_commands.get(guild_id):
            return self.guild_commands[guild_id]
        return self.global_commands

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The commands of the first server (where /ttr comes from in most tests)."""
        return self.commands_for(self.guild_id)

    # --- interaction answers

    def _callback(self, iid: int, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]) -> web.Response:
        it = self.interactions.get(token)
        if it is None or it.id != iid:
            return self._error(404, 10062, "Unknown interaction")
        if it.callback is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        it.callback = body
        it.answered_at = time.monotonic()
        it.answered.set()
        rtype = body.get("type")
        data = body.get("data") or {}
        out: dict[str, Any] = {"interaction": {"id": str(iid), "type": it.payload["type"],
                                               "response_message_loading": rtype == 5,
                                               "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL)}}
        channel_id = int(it.payload["channel_id"])
        if rtype in (4, 5):
            flags = data.get("flags", 0)
            content = data.get("content", "") if rtype == 4 else ""
            msg = self._new_message(channel_id, data if rtype == 4 else {"flags": flags}, files if rtype == 4 else [],
                                    flags=flags | (128 if rtype == 5 else 0), interaction=it)
            it.original_id = int(msg["id"])
            out["interaction"]["response_message_id"] = msg["id"]
            if rtype == 4:
                out["resource"] = {"type": 4, "message": msg}
            _ = content
        elif rtype == 7:
            mid = int(it.payload["message"]["id"])
            msg = self._edit_message(mid, data, files)
            out["resource"] = {"type": 7, "message": msg}
        elif rtype == 6:
            pass
        elif rtype == 8:
            choices = data.get("choices", [])
            if len(choices) > 25:
                self.errors.append(f"autocomplete with {len(choices)} choices")
        return self._json(out)

    def _webhook(self, method: str, parts: list[str], body: dict[str, Any], files: list[tuple[str, bytes]],
                 request: web.Request) -> web.Response:
        token = parts[2]
        it = self.interactions.get(token)
        if it is None:
            return self._error(404, 10015, "Unknown Webhook")
        channel_id = int(it.payload["channel_id"])
        if len(parts) == 3 and method == "POST":
            flags = body.get("flags", 0)
            if it.original_id is not None and self.messages[it.original_id]["flags"] & 128:
                # the first follow-up after a "thinking" defer replaces the loading message
                mid = it.original_id
                msg = self._edit_message(mid, body, files, clear_loading=True)
            else:
                msg = self._new_message(channel_id, body, files, flags=flags, interaction=it)
                it.followups.append(int(msg["id"]))
            return self._json(msg)
        if len(parts) >= 5 and parts[3] == "messages":
            mid = it.original_id if parts[4] == "@original" else int(parts[4])
            if mid is None or mid not in self.messages:
                return self._error(404, 10008, "Unknown Message")
            if method == "GET":
                return self._json(self.messages[mid])
            if method == "PATCH":
                return self._json(self._edit_message(mid, body, files, clear_loading=True))
            if method == "DELETE":
                self.messages.pop(mid, None)
                return web.Response(status=204)
        return self._error(404, 0, "the fake has no such webhook route")

    # --- channels

    def _dm_channel(self, uid: int) -> int:
        for cid, c in self.channels.items():
            if c["type"] == 1 and c["recipients"][0]["id"] == str(uid):
                return cid
        cid = snowflake()
        self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [self.users[uid].payload()],
                              "last_message_id": None}
        return cid

    def _denials(self, channel_id: int) -> set[str]:
        """The permissions the bot lacks in a channel: its own denials and, in a thread, those
        of the parent channel (threads have no overwrites of their own on Discord)."""
        channel = self.channels[channel_id]
        out = set(self.denied.get(channel_id, ()))
        if channel["type"] in THREAD_TYPES and channel.get("parent_id"):
            out |= self.denied.get(int(channel["parent_id"]), set())
        return out

    def permissions(self, channel_id: int) -> int:
        """The bot's permission bits in a channel (what `app_permissions` of an interaction says)."""
        if channel_id not in self.channels:
            return EVERYONE
        bits = sum(PERMISSIONS[p] for p in self._denials(channel_id))
        return EVERYONE & ~bits

    async def _channels(self, method: str, parts: list[str], body: dict[str, Any],
                        files: list[tuple[str, bytes]]) -> web.Response:
        cid = int(parts[1])
        channel = self.channels.get(cid)
        if channel is None:
            return self._refuse(404, UNKNOWN_CHANNEL)
        denied = self._denials(cid)
        if "VIEW_CHANNEL" in denied:
            return self._refuse(403, MISSING_ACCESS)
        is_thread = channel["type"] in THREAD_TYPES
        meta = channel.get("thread_metadata") or {}
        if len(parts) == 2 and method == "GET":
            return self._json(channel)
        if len(parts) == 3 and parts[2] == "messages" and method == "POST":
            return await self._post_message(cid, channel, denied, body, files)
        if len(parts) == 4 and parts[2] == "messages":
            mid = int(parts[3])
            if mid not in self.messages or self.messages[mid]["channel_id"] != str(cid):
                return self._refuse(404, UNKNOWN_MESSAGE)
            if method == "GET":
                return self._json(self.messages[mid])
            if method in ("PATCH", "DELETE") and is_thread and meta.get("archived"):
                return self._refuse(400, ARCHIVED_THREAD)
            if method == "PATCH":
                if files and "ATTACH_FILES" in denied:
                    return self._refuse(403, MISSING_PERMISSIONS)
                problem = layout_problem(body, files, self.messages[mid])
                if problem:
                    return self._json({"code": INVALID_FORM[0], "message": INVALID_FORM[1],
                                       "errors": {"components": problem}}, 400)
                return self._json(self._edit_message(mid, body, files))
            if method == "DELETE":
                del self.messages[mid]
                return web.Response(status=204)
        if len(parts) == 5 and parts[2] == "messages" and parts[4] == "threads" and method == "POST":
            if channel["type"] != 0:
                return self._error(400, 50024, "Cannot execute action on this channel type")
            if "CREATE_PUBLIC_THREADS" in denied:
                return self._refuse(403, MISSING_PERMISSIONS)
            mid = int(parts[3])
            if mid not in self.messages or self.messages[mid]["channel_id"] != str(cid):
                return self._refuse(404, UNKNOWN_MESSAGE)
            tid = mid  # Discord gives a thread started from a message the message's id
            if tid in self.channels:
                return self._refuse(400, THREAD_EXISTS)
            thread = {"id": str(tid), "type": 11, "guild_id": channel["guild_id"], "parent_id": str(cid),
                      "owner_id": str(self.bot_user.id), "name": body["name"], "last_message_id": None,
                      "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                      "thread_metadata": {"archived": False, "auto_archive_duration": body.get(
                          "auto_archive_duration", 1440), "archive_timestamp": now_iso(), "locked": False}}
            self.channels[tid] = thread
            self.public.append(PublicItem(f"thread name {tid}", body["name"]))
            await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))  # as Discord tells its bots
            return self._json(thread)
        if len(parts) == 3 and parts[2] == "threads" and method == "POST":
            return await self._private_thread(cid, channel, denied, body)
        if len(parts) == 4 and parts[2] == "thread-members" and method == "PUT" and is_thread:
            channel.setdefault("members", []).append(int(parts[3]))
            return web.Response(status=204)
        return self._error(404, 0, "the fake has no such channel route")

    async def _private_thread(self, cid: int, channel: dict[str, Any], denied: set[str],
                              body: dict[str, Any]) -> web.Response:
        """POST /channels/{id}/threads: a thread of no message (a private one, type 12), as a
        tutorial makes; its members are added with PUT .../thread-members/{user}."""
        if channel["type"] != 0:
            return self._error(400, 50024, "Cannot execute action on this channel type")
        kind = int(body.get("type", 12))
        if ("CREATE_PRIVATE_THREADS" if kind == 12 else "CREATE_PUBLIC_THREADS") in denied:
            return self._refuse(403, MISSING_PERMISSIONS)
        tid = snowflake()
        thread = {"id": str(tid), "type": kind, "guild_id": channel["guild_id"], "parent_id": str(cid),
                  "owner_id": str(self.bot_user.id), "name": body["name"], "last_message_id": None,
                  "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0, "members": [],
                  "thread_metadata": {"archived": False, "auto_archive_duration": body.get(
                      "auto_archive_duration", 1440), "archive_timestamp": now_iso(), "locked": False,
                      "invitable": bool(body.get("invitable", True))}}
        self.channels[tid] = thread
        self.public.append(PublicItem(f"thread name {tid}", body["name"]))
        await self.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return self._json(thread)

    async def _post_message(self, cid: int, channel: dict[str, Any], denied: set[str], body: dict[str, Any],
                            files: list[tuple[str, bytes]]) -> web.Response:
        """POST /channels/{id}/messages, refused as Discord would refuse it."""
        if channel["type"] == 1:
            uid = int(channel["recipients"][0]["id"])
            if self.users[uid].dms_closed:
                return self._refuse(403, CANNOT_DM)
        elif channel["type"] in THREAD_TYPES:
            if "SEND_MESSAGES_IN_THREADS" in denied:
                return self._refuse(403, MISSING_PERMISSIONS)
        elif "SEND_MESSAGES" in denied:
            return self._refuse(403, MISSING_PERMISSIONS)
        if files and "ATTACH_FILES" in denied:
            return self._refuse(403, MISSING_PERMISSIONS)
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        if nonce is not None and len(nonce) > NONCE_MAX:
            return self._json({"code": INVALID_FORM[0], "message": INVALID_FORM[1], "errors": {"nonce": {"_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {NONCE_MAX} or fewer in length."}]}}}, 400)
        key = (cid, self.bot_user.id, nonce or "")
        if nonce is not None and body.get("enforce_nonce"):
            seen = self.nonces.get(key)
            if seen is not None and time.monotonic() - seen[1] < self.nonce_ttl:
                # The same message again: nothing new is created or recorded.
                if seen[0] not in self.messages:  # deleted meanwhile
                    return self._refuse(404, UNKNOWN_MESSAGE)
                return self._json(self.messages[seen[0]])
        problem = layout_problem(body, files, None)
        if problem:
            return self._json({"code": INVALID_FORM[0], "message": INVALID_FORM[1], "errors": {"components": problem}},
                              400)
        meta = channel.get("thread_metadata") or {}
        if meta.get("archived"):
            if meta.get("locked"):
                return self._refuse(403, THREAD_LOCKED)
            await self._set_thread(cid, archived=False)  # a message wakes an unlocked thread up
        msg = self._new_message(cid, body, files, flags=body.get("flags", 0))
        if nonce is not None:
            msg["nonce"] = nonce
            if body.get("enforce_nonce"):
                self.nonces[key] = (int(msg["id"]), time.monotonic())
        return self._json(msg)

    # --- messages

    def _is_public(self, channel_id: int, flags: int) -> bool:
        return self.channels[channel_id]["type"] != 1 and not flags & EPHEMERAL

    def _record(self, msg: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        channel_id = int(msg["channel_id"])
        sink = self.public if self._is_public(channel_id, msg["flags"]) else self.private
        where = f"message {msg['id']} in {channel_id}"
        sink.append(PublicItem(where, msg.get("content") or ""))
        sink.append(PublicItem(where + " components", json.dumps(msg.get("components") or [])))
        self._in_channel.setdefault(channel_id, {})[int(msg["id"])] = None
        if msg.get("components"):
            self._with_components.add(int(msg["id"]))
        for name, data in files:
            sink.append(PublicItem(where + f" file {name}", name, data))
        for kind, words in layout_words(msg.get("components") or []):  # a layout's texts, each on its own
            sink.append(PublicItem(where + f" {kind}", words))
        for a in msg.get("attachments") or []:  # what a screen reader reads: the leak scan reads it too
            if a.get("description"):
                sink.append(PublicItem(where + f" file {a['filename']} description", a["description"]))

    def _attachments(self, mid: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                     keep: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        out = []
        stored = []
        # discord.py names each new file in `attachments` by its index, with its description
        described = {str(a.get("id")): a.get("description") for a in body.get("attachments", []) or []
                     if isinstance(a, dict) and a.get("description") is not None}
        for i, (name, data) in enumerate(files):
            aid = snowflake()
            item = {"id": str(aid), "filename": name, "size": len(data), "url": f"https://fake/{aid}/{name}",
                    "proxy_url": f"https://fake/{aid}/{name}", "content_type": "image/png"}
            if str(i) in described:
                if len(str(described[str(i)])) > MAX_DESCRIPTION:
                    self.errors.append(f"an attachment description of {len(str(described[str(i)]))} characters")
                item["description"] = str(described[str(i)])
            out.append(item)
            stored.append((name, data))
        if keep:
            wanted = {str(a.get("id")) for a in body.get("attachments", []) or []}
            for a in keep:
                if a["id"] in wanted:
                    out.append(a)
        self.files[mid] = stored + [f for f in self.files.get(mid, []) if any(a["filename"] == f[0] for a in out)
                                    and not stored]
        return out

    def _new_message(self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]], *, flags: int,
                     interaction: Interaction | None = None) -> dict[str, Any]:
        mid = snowflake()
        msg = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0 if interaction is None else 20,
            "content": body.get("content") or "", "author": self.bot_user.payload(), "attachments": [],
            "embeds": body.get("embeds") or [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": now_iso(), "edited_timestamp": None,
            "flags": flags, "components": body.get("components") or [],
        }
        if channel_id in self.channels and self.channels[channel_id]["type"] != 1:
            msg["guild_id"] = self.channels[channel_id]["guild_id"]
        if interaction is not None:
            msg["application_id"] = str(self.app_id)
            msg["webhook_id"] = str(self.app_id)
        msg["attachments"] = self._attachments(mid, body, files, None)
        if msg["flags"] & IS_COMPONENTS_V2:
            msg["content"] = _layout_text(msg["components"])
        if isinstance(body.get("allowed_mentions"), dict):
            self.allowed_mentions[mid] = body["allowed_mentions"]
        self.messages[mid] = msg
        self.written[mid] = time.monotonic()
        self._record(msg, files)
        return msg

    def _edit_message(self, mid: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                      clear_loading: bool = False) -> dict[str, Any]:
        msg = self.messages[mid]
        if "content" in body and body["content"] is not None:
            msg["content"] = body["content"]
        if "components" in body and body["components"] is not None:
            msg["components"] = body["components"]
        if "embeds" in body and body["embeds"] is not None:
            msg["embeds"] = body["embeds"]
        if "attachments" in body or files:
            msg["attachments"] = self._attachments(mid, body, files, msg["attachments"])
        if isinstance(body.get("flags"), int) and body["flags"] & IS_COMPONENTS_V2:
            msg["flags"] |= IS_COMPONENTS_V2
        if msg["flags"] & IS_COMPONENTS_V2:
            msg["content"] = _layout_text(msg["components"])
        if clear_loading:
            msg["flags"] = msg["flags"] & ~128
            if "flags" in body and body["flags"]:
                msg["flags"] |= body["flags"]
        msg["edited_timestamp"] = now_iso()
        self.written[mid] = time.monotonic()
        self._record(msg, files)
        return msg

    # ------------------------------------------------------------------ looking at what happened

    def thread_messages(self, thread_id: int) -> list[dict[str, Any]]:
        """The messages of a channel or thread, oldest first."""
        return [self.messages[mid] for mid in self._in_channel.get(thread_id, ()) if mid in self.messages]

    def messages_with_components(self) -> list[dict[str, Any]]:
        """Every message that has components now, oldest first."""
        return [self.messages[mid] for mid in sorted(self._with_components)
                if mid in self.messages and self.messages[mid].get("components")]

    def dms_to(self, user: User) -> list[dict[str, Any]]:
        cids = {cid for cid, c in self.channels.items() if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id)}
        return [m for m in self.messages.values() if int(m["channel_id"]) in cids]

    def reply_messages(self, it: Interaction) -> list[dict[str, Any]]:
        """Every message the interaction produced (its original answer, follow-ups, the panel
        it edited), latest content."""
        out = []
        if it.original_id is not None and it.original_id in self.messages:
            out.append(self.messages[it.original_id])
        out += [self.messages[m] for m in it.followups if m in self.messages]
        if it.response_type == 7:
            out.append(self.messages[int(it.payload["message"]["id"])])
        return out


def install(fake: FakeDiscord) -> None:
    """Point discord.py at the fake (discord.py internals; the version is pinned)."""
    install_urls(fake.base, fake.gateway_url)


def install_urls(base: str, gateway_url: str) -> None:
    """Point discord.py at a fake by its URLs (FakeDiscord.base, .gateway_url): how a child
    process that runs the bot finds the fake its parent runs."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones included (an action row's buttons, a container's parts, a
    section's accessory), in the order they show."""
    out = []
    for c in components:
        out.append(c)
        out += walk(list(c.get("components") or []))
        if isinstance(c.get("accessory"), dict):
            out += walk([c["accessory"]])
    return out


def _layout_text(components: list[dict[str, Any]]) -> str:
    """The text a layout message shows (its text displays, in order). Discord sends such a
    message with empty `content`, and so does the fake to the bot; the fake's own copy keeps
    this text as `content`, so that tests read a layout post as they read any other."""
    return "\n".join(str(c.get("content", "")) for c in walk(components) if c.get("type") == TEXT_DISPLAY)


def layout_words(components: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """("text display" or "media description", its words) for each in a message's components."""
    out = []
    for c in walk(components):
        if c.get("type") == TEXT_DISPLAY:
            out.append(("text display", str(c.get("content", ""))))
        elif c.get("type") == MEDIA_GALLERY:
            out += [("media description", str(i["description"])) for i in c.get("items", []) if i.get("description")]
    return out


def layout_problem(body: dict[str, Any], files: list[tuple[str, bytes]], existing: dict[str, Any] | None
                   ) -> dict[str, Any] | None:
    """What Discord would refuse in a message sent or edited with IS_COMPONENTS_V2 (None: nothing):
    content beside it, a component type the fake does not know, more than 40 components or
    4,000 characters of text, a gallery item's description over 256 characters or naming a
    file that is not attached; and an edit that would turn an old-style message into a layout
    or back (the fake allows neither, so the bot must keep each message's form)."""
    flags = body.get("flags") if isinstance(body.get("flags"), int) else 0
    v2 = bool(flags & IS_COMPONENTS_V2)
    if existing is not None:
        was = bool(existing["flags"] & IS_COMPONENTS_V2)
        if "flags" in body and v2 != was or (not was and v2):
            return {"_errors": [{"code": "MESSAGE_CANNOT_CHANGE_FORM",
                                 "message": "A message cannot change between components v1 and v2."}]}
        v2 = was
    if not v2:
        return None
    errors = []
    if body.get("content"):
        errors.append("content cannot be used with IS_COMPONENTS_V2")
    parts = walk(list(body.get("components") or []))
    if len(parts) > MAX_LAYOUT_COMPONENTS:
        errors.append(f"{len(parts)} components (at most {MAX_LAYOUT_COMPONENTS})")
    if len(_layout_text(list(body.get("components") or []))) > MAX_LAYOUT_TEXT:
        errors.append(f"more than {MAX_LAYOUT_TEXT} characters of text")
    names = {name for name, _ in files} | {a.get("filename") for a in (existing or {}).get("attachments", [])}
    for c in parts:
        if c.get("type") not in LAYOUT_TYPES | {BUTTON, SELECT, THUMBNAIL}:
            errors.append(f"unknown component type {c.get('type')}")
        for item in c.get("items", []) if c.get("type") == MEDIA_GALLERY else []:
            url = str((item.get("media") or {}).get("url", ""))
            if len(str(item.get("description") or "")) > MAX_GALLERY_DESCRIPTION:
                errors.append(f"a media description over {MAX_GALLERY_DESCRIPTION} characters")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                errors.append(f"{url} is not attached")
    return {"_errors": [{"code": "LAYOUT", "message": e} for e in errors]} if errors else None


def custom_ids(message: dict[str, Any]) -> list[tuple[str, str]]:
    """(label or placeholder, custom_id) of every component of a message (in a layout too)."""
    return [(c.get("label") or c.get("placeholder") or "", c["custom_id"])
            for c in walk(list(message.get("components") or [])) if c.get("custom_id")]


def select_options(message: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(custom_id, value, option) for every select option of a message."""
    return [(c["custom_id"], o["value"], c) for c in walk(list(message.get("components") or []))
            if c.get("type") == SELECT for o in c.get("options", [])]
