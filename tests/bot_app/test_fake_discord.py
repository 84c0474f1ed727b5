"""The fake Discord itself: that it fails the way Discord does, as discord.py 2.7.1 sees it.

Most tests drive discord.py's own REST layer (a logged-in `discord.Client` without a gateway:
`PartialMessageable.send`, `PartialMessage.edit`, `HTTPClient` routes), so what comes out is
exactly what the bot would get: the exception class, `.status` and `.code`, or a message after
discord.py's own retries. The last tests run the real bot in a child process (child.py)."""

from __future__ import annotations

import asyncio
import io
import signal
import time
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from tests.fake_discord import FakeDiscord, install
from tests.fake_discord.child import ChildBot, CrashPoint, arm
from tests.fake_discord.faults import ENVOY_503
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


@pytest.fixture
def fake(fake: FakeDiscord) -> FakeDiscord:
    """tests/bot_app/conftest.py's fake, with discord.py in this process pointed at it."""
    install(fake)
    return fake


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """discord.py's REST side only: logged in, never connected to the gateway."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    await client.login("fake-token")
    yield client
    await client.close()


def channel(client: discord.Client, channel_id: int) -> discord.PartialMessageable:
    return client.get_partial_messageable(channel_id)


async def thread_of(client: discord.Client, fake: FakeDiscord) -> tuple[int, discord.Message]:
    """A thread made from a message in the main channel, with one message of its own in it."""
    lobby = await channel(client, fake.channel_id).send("lobby")
    data = await client.http.start_thread_with_message(fake.channel_id, lobby.id, name="game",
                                                       auto_archive_duration=1440)
    tid = int(data["id"])
    return tid, await channel(client, tid).send("turn post")


# ---------------------------------------------------------------- raw failures


async def test_injected_errors_come_out_as_discord_exceptions(fake: FakeDiscord, client: discord.Client) -> None:
    path = rf"/channels/{fake.channel_id}/messages"
    rule = fake.fail("POST", path, 404, 10008, "Unknown Message", times=1)
    with pytest.raises(discord.NotFound) as caught:
        await channel(client, fake.channel_id).send("one")
    assert (caught.value.status, caught.value.code, caught.value.text) == (404, 10008, "Unknown Message")
    assert rule.hits == 1 and not rule.active
    await channel(client, fake.channel_id).send("two")  # only once

    rule = fake.fail("*", path, 403, 50001, "Missing Access")  # until cleared
    for _ in range(2):
        with pytest.raises(discord.Forbidden) as caught:
            await channel(client, fake.channel_id).send("three")
        assert caught.value.code == 50001
    rule.clear()
    await channel(client, fake.channel_id).send("four")

    fake.fail("POST", path, 400, 50083, "Operation cannot be performed on an archived thread",
              until=time.monotonic() + 0.2)
    with pytest.raises(discord.HTTPException) as caught:
        await channel(client, fake.channel_id).send("five")
    assert type(caught.value) is discord.HTTPException and caught.value.code == 50083
    await asyncio.sleep(0.25)
    await channel(client, fake.channel_id).send("six")
    # Injected failures change nothing: only the messages that got through exist.
    assert [m["content"] for m in fake.messages.values()] == ["two", "four", "six"]
    assert fake.count("POST", path) == 7 and fake.count("POST", path, status=200) == 3
    assert [r.injected for r in fake.log if r.method == "POST"].count(True) == 4


async def test_503_is_not_retried_by_discord_py_and_an_outage_ends(fake: FakeDiscord, client: discord.Client
                                                                  ) -> None:
    fake.outage(0.3)
    with pytest.raises(discord.DiscordServerError) as caught:
        await channel(client, fake.channel_id).send("in the outage")
    assert (caught.value.status, caught.value.code, caught.value.text) == (503, 0, ENVOY_503)
    assert fake.count("POST") == 1, "discord.py's HTTP client raises a 503 at once"
    with pytest.raises(discord.DiscordServerError):
        await client.fetch_user(fake.owner.id)
    await asyncio.sleep(0.35)
    await channel(client, fake.channel_id).send("after it")
    assert [m["content"] for m in fake.messages.values()] == ["after it"]


async def test_502_is_retried_and_the_nonce_keeps_the_retry_from_doubling(fake: FakeDiscord,
                                                                          client: discord.Client) -> None:
    # Discord made the message, then the edge answered 502: discord.py sends it again (after
    # 1 s) with the same nonce, and gets the same message back.
    path = rf"/channels/{fake.channel_id}/messages"
    fake.fail("POST", path, 502, times=1, after=True)
    began = time.monotonic()
    message = await channel(client, fake.channel_id).send("once", nonce="g1-s5-post")
    assert time.monotonic() - began >= 1.0
    assert fake.count("POST", path) == 2 and fake.count("POST", path, status=502) == 1
    assert list(fake.messages) == [message.id]


async def test_429_is_waited_out_by_discord_py_until_its_tries_run_out(fake: FakeDiscord,
                                                                        client: discord.Client) -> None:
    path = rf"/channels/{fake.channel_id}/messages"
    fake.fail("POST", path, 429, times=2, retry_after=0.05)
    message = await channel(client, fake.channel_id).send("after two 429s")
    assert fake.count("POST", path, status=429) == 2 and fake.count("POST", path, status=200) == 1
    assert list(fake.messages) == [message.id]

    fake.fail("POST", path, 429, times=5, retry_after=0.01)
    with pytest.raises(discord.HTTPException) as caught:
        await channel(client, fake.channel_id).send("never")
    assert caught.value.status == 429 and fake.count("POST", path, status=429) == 7

    # The headers discord.py needs (Via: without it a 429 is a Cloudflare ban, raised at once).
    fake.fail("GET", r"/users/\d+", 429, times=1, retry_after=0.01, is_global=True)
    await client.fetch_user(fake.owner.id)
    assert fake.count("GET", r"/users/\d+") == 2


async def test_a_dropped_connection_is_an_aiohttp_error_and_not_retried(fake: FakeDiscord,
                                                                         client: discord.Client) -> None:
    path = rf"/channels/{fake.channel_id}/messages"
    fake.fail("POST", path, 0, times=1, after=True)  # made, but the answer never came
    with pytest.raises(aiohttp.ServerDisconnectedError):  # not a discord.DiscordException
        await channel(client, fake.channel_id).send("lost answer", nonce="n1")
    assert len(fake.messages) == 1 and fake.count("POST", path, status=0) == 1
    again = await channel(client, fake.channel_id).send("lost answer", nonce="n1")
    assert list(fake.messages) == [again.id]


async def test_slow_answers(fake: FakeDiscord, client: discord.Client) -> None:
    fake.slow("POST", r"/channels/\d+/messages", 0.3, times=1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(channel(client, fake.channel_id).send("slow"), 0.1)
    await fake.wait_until(lambda: fake.messages)  # Discord still made it


# ---------------------------------------------------------------- nonces


async def test_nonce_with_enforce_nonce_returns_the_first_message(fake: FakeDiscord, client: discord.Client) -> None:
    games = channel(client, fake.channel_id)
    first = await games.send("move 12", nonce="g7-m12-post")
    again = await games.send("move 12, sent again", nonce="g7-m12-post")
    assert again.id == first.id and again.content == "move 12" and again.nonce == "g7-m12-post"
    assert len(fake.messages) == 1 and fake.count("POST", r"/channels/\d+/messages") == 2
    assert len([i for i in fake.public if i.text.startswith("move 12")]) == 1  # recorded once

    # Per channel; without a nonce discord.py makes a random one, so sends never merge.
    _, elsewhere = await fake.add_guild()
    other = await channel(client, elsewhere).send("move 12", nonce="g7-m12-post")
    assert other.id != first.id
    a, b = await games.send("x"), await games.send("x")
    assert a.id != b.id and a.nonce and b.nonce

    # Only for a few minutes.
    fake.nonce_ttl = 0.0
    assert (await games.send("move 12", nonce="g7-m12-post")).id != first.id

    # Discord's limit of 25 characters.
    with pytest.raises(discord.HTTPException) as caught:
        await games.send("long", nonce="x" * 26)
    assert (caught.value.status, caught.value.code) == (400, 50035) and "nonce" in caught.value.text


async def test_nonce_of_a_deleted_message(fake: FakeDiscord, client: discord.Client) -> None:
    games = channel(client, fake.channel_id)
    first = await games.send("gone soon", nonce="n2")
    await first.delete()
    with pytest.raises(discord.NotFound) as caught:
        await games.send("gone soon", nonce="n2")
    assert caught.value.code == 10008


# ---------------------------------------------------------------- Discord's own rules


async def test_archived_thread_refuses_edits_and_wakes_up_on_a_send(fake: FakeDiscord,
                                                                    client: discord.Client) -> None:
    tid, post = await thread_of(client, fake)
    await fake.archive(tid)
    with pytest.raises(discord.HTTPException) as caught:
        await post.edit(content="edited")
    assert (caught.value.status, caught.value.code) == (400, 50083)
    with pytest.raises(discord.HTTPException):
        await post.delete()
    assert fake.channels[tid]["thread_metadata"]["archived"]

    await channel(client, tid).send("new turn")  # unarchives it
    assert not fake.channels[tid]["thread_metadata"]["archived"]
    await post.edit(content="edited")
    assert fake.messages[post.id]["content"] == "edited"


async def test_locked_thread(fake: FakeDiscord, client: discord.Client) -> None:
    tid, post = await thread_of(client, fake)
    await fake.lock(tid)
    with pytest.raises(discord.Forbidden) as caught:
        await channel(client, tid).send("new turn")
    assert (caught.value.status, caught.value.code) == (403, 160005)
    with pytest.raises(discord.HTTPException) as caught:
        await post.edit(content="edited")
    assert caught.value.code == 50083
    assert fake.channels[tid]["thread_metadata"] | {"archive_timestamp": None} == {
        "archived": True, "locked": True, "auto_archive_duration": 1440, "archive_timestamp": None}
    await fake.unarchive(tid)
    await channel(client, tid).send("new turn")


async def test_denied_permissions(fake: FakeDiscord, client: discord.Client) -> None:
    tid, post = await thread_of(client, fake)
    games, thread = channel(client, fake.channel_id), channel(client, tid)

    await fake.deny(fake.channel_id, "SEND_MESSAGES")
    with pytest.raises(discord.Forbidden) as caught:
        await games.send("x")
    assert (caught.value.status, caught.value.code, caught.value.text) == (403, 50013, "Missing Permissions")
    await thread.send("threads are governed by Send Messages in Threads")

    await fake.deny(fake.channel_id, "SEND_MESSAGES_IN_THREADS")  # the thread inherits it
    with pytest.raises(discord.Forbidden) as caught:
        await thread.send("x")
    assert caught.value.code == 50013
    await post.edit(content="editing needs no send permission")
    await fake.allow(fake.channel_id)

    await fake.deny(tid, "ATTACH_FILES")
    with pytest.raises(discord.Forbidden):
        await thread.send("picture", file=discord.File(io.BytesIO(b"png"), "board.png"))
    with pytest.raises(discord.Forbidden):
        await post.edit(attachments=[discord.File(io.BytesIO(b"png"), "board.png")])
    await thread.send("no picture")
    await fake.allow(tid, "ATTACH_FILES")
    await thread.send("picture", file=discord.File(io.BytesIO(b"png"), "board.png"))

    lobby = await games.send("another lobby")
    await fake.deny(fake.channel_id, "CREATE_PUBLIC_THREADS")
    with pytest.raises(discord.Forbidden):
        await client.http.start_thread_with_message(fake.channel_id, lobby.id, name="t", auto_archive_duration=60)
    await fake.allow(fake.channel_id, "CREATE_PUBLIC_THREADS")
    await client.http.start_thread_with_message(fake.channel_id, lobby.id, name="t", auto_archive_duration=60)
    with pytest.raises(discord.HTTPException) as caught:  # one thread per message
        await client.http.start_thread_with_message(fake.channel_id, lobby.id, name="t", auto_archive_duration=60)
    assert caught.value.code == 160004

    await fake.deny(fake.channel_id, "VIEW_CHANNEL")
    for attempt in (thread.send("x"), games.send("x"), client.fetch_channel(tid)):
        with pytest.raises(discord.Forbidden) as caught:
            await attempt
        assert caught.value.code == 50001
    with pytest.raises(ValueError):
        await fake.deny(fake.channel_id, "MANAGE_ROLES")


async def test_deleted_channel(fake: FakeDiscord, client: discord.Client) -> None:
    tid, post = await thread_of(client, fake)
    await fake.delete_channel(fake.channel_id)  # its threads go with it
    for attempt in (channel(client, fake.channel_id).send("x"), channel(client, tid).send("x"),
                    post.edit(content="x"), client.fetch_channel(tid)):
        with pytest.raises(discord.NotFound) as caught:
            await attempt
        assert caught.value.code == 10003
    assert post.id in fake.messages  # still there to look at


# ---------------------------------------------------------------- commands, DMs, counting


async def test_command_lists_are_kept_per_scope_and_syncs_counted(fake: FakeDiscord, client: discord.Client) -> None:
    app = fake.app_id
    ttr = [{"name": "ttr", "description": "Ticket to Ride", "type": 1, "options": []}]
    assert fake.commands == [] and not fake.syncs
    made = await client.http.bulk_upsert_global_commands(app, ttr)
    assert fake.commands == made and fake.syncs == {None: 1}
    again = await client.http.bulk_upsert_global_commands(app, ttr)
    assert again[0]["id"] == made[0]["id"], "Discord keeps a command's id across overwrites"

    guild = await client.http.bulk_upsert_guild_commands(app, fake.guild_id, ttr)
    assert fake.commands == guild and guild[0]["guild_id"] == str(fake.guild_id)
    await client.http.bulk_upsert_global_commands(app, [])  # GUILD_ID set: the global list cleared
    assert fake.syncs == {None: 3, fake.guild_id: 1}
    assert await client.http.get_global_commands(app) == []
    assert await client.http.get_guild_commands(app, fake.guild_id) == guild
    assert fake.commands_for(None) == [] and fake.commands == guild

    with pytest.raises(discord.Forbidden) as caught:  # a server the bot is not in
        await client.http.bulk_upsert_guild_commands(app, 12345, ttr)
    assert caught.value.code == 50001


async def test_counting_user_fetches_and_dms(fake: FakeDiscord, client: discord.Client) -> None:
    closed = fake.add_user("Bob", dms_closed=True)
    for _ in range(2):
        user = await client.fetch_user(closed.id)
        with pytest.raises(discord.Forbidden) as caught:
            await user.send("your hand")
        assert caught.value.code == 50007
    assert fake.count("GET", r"/users/\d+") == 2
    dm = fake.dm_channel(closed)
    assert dm is not None
    assert fake.count("POST", rf"/channels/{dm}/messages", status=403) == 2
    assert fake.count("POST", r"/users/@me/channels") == 1  # discord.py keeps the DM channel it opened
    assert fake.dm_channel(fake.add_user("Carol")) is None


# ---------------------------------------------------------------- what a connected bot hears


async def test_a_connected_bot_hears_of_denials_archives_and_deletions(fake: FakeDiscord, tmp_path) -> None:
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer(), guild_id=fake.guild_id)
    try:
        bot = running.bot
        # GUILD_ID set: the commands went to that server only.
        assert fake.syncs[fake.guild_id] == 1 and fake.commands is fake.guild_commands[fake.guild_id]
        assert any(c["name"] == "ttr" for c in fake.commands)

        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.me is not None
        games = guild.get_channel(fake.channel_id)
        assert isinstance(games, discord.TextChannel)

        def perms() -> discord.Permissions:
            return guild.get_channel(fake.channel_id).permissions_for(guild.me)

        assert perms().send_messages
        await fake.deny(fake.channel_id, "SEND_MESSAGES", "SEND_MESSAGES_IN_THREADS")
        await fake.wait_until(lambda: not perms().send_messages)  # CHANNEL_UPDATE with an overwrite
        assert not perms().send_messages_in_threads and perms().create_public_threads
        await fake.allow(fake.channel_id)
        await fake.wait_until(lambda: perms().send_messages)

        lobby = await games.send("lobby")
        thread = await lobby.create_thread(name="game")
        await fake.wait_until(lambda: guild.get_thread(thread.id))  # THREAD_CREATE
        await fake.archive(thread.id)
        await fake.wait_until(lambda: guild.get_thread(thread.id) is None)  # discord.py drops archived threads
        await bot.get_partial_messageable(thread.id).send("wakes it up")
        await fake.wait_until(lambda: guild.get_thread(thread.id))
        assert fake.identifies == 1

        await fake.delete_channel(fake.channel_id)
        await fake.wait_until(lambda: guild.get_channel(fake.channel_id) is None)
        assert guild.get_thread(thread.id) is None
    finally:
        await running.stop()


async def test_archived_threads_are_not_in_guild_create(fake: FakeDiscord, client: discord.Client) -> None:
    tid, _ = await thread_of(client, fake)
    assert [t["id"] for t in fake._guild_payload()["threads"]] == [str(tid)]
    await fake.archive(tid)
    assert fake._guild_payload()["threads"] == []


# ---------------------------------------------------------------- crash points and the child-process bot


class Target:
    """Something to put crash points on, in this process."""

    seen: list[str] = []

    def plain(self, x: int) -> int:
        Target.seen.append(f"plain {x}")
        return x

    async def coro(self, x: int) -> int:
        await asyncio.sleep(0)
        Target.seen.append(f"coro {x}")
        return x

    @staticmethod
    def static(x: int) -> int:
        Target.seen.append(f"static {x}")
        return x

    @classmethod
    def klass(cls, x: int) -> int:
        Target.seen.append(f"klass {x}")
        raise ValueError(x)


async def test_crash_points_wrap_sync_async_static_and_class_methods() -> None:
    seen = Target.seen
    seen.clear()
    counting = False
    undo = [
        arm(CrashPoint.parse(f"{__name__}:Target.plain:2"), "before", lambda: seen.append("crash")),
        arm(CrashPoint.parse(f"{__name__}:Target.coro:2"), "after", lambda: seen.append("crash")),
        arm(CrashPoint.parse(f"{__name__}:Target.static:1"), "after", lambda: seen.append("crash"),
            counting=lambda: counting),
        arm(CrashPoint.parse(f"{__name__}:Target.klass:1"), "after", lambda: seen.append("crash")),
    ]
    try:
        t = Target()
        assert [t.plain(1), t.plain(2), t.plain(3)] == [1, 2, 3]
        assert [await t.coro(1), await t.coro(2), await t.coro(3)] == [1, 2, 3]
        assert Target.static(1) == 1
        counting = True
        assert Target.static(2) == 2 and t.static(3) == 3
        with pytest.raises(ValueError):
            Target.klass(1)  # after: also when it raises
        assert seen == ["plain 1", "crash", "plain 2", "plain 3", "coro 1", "coro 2", "crash", "coro 3",
                        "static 1", "static 2", "crash", "static 3", "klass 1", "crash"]
        assert Target.plain.__name__ == "plain"
    finally:
        for put_back in undo:
            put_back()
    seen.clear()
    Target().plain(2)
    assert seen == ["plain 2"]
    for bad in ("nomodule", "a:b", "a:b:0", "a:b:x", ":b:1"):
        with pytest.raises(ValueError):
            CrashPoint.parse(bad)


async def test_child_bot_killed_at_crash_points_and_restarted(fake: FakeDiscord, tmp_path) -> None:
    db = tmp_path / "ttr.sqlite3"
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")

    async def new_table(user) -> str:
        it = await fake.answered(await fake.slash(user, "new", variant="europe", seats=2), timeout=20)
        return fake.reply_messages(it)[-1]["content"]

    # A bot in a child process answers /ttr, and dies at once on SIGKILL.
    bot = await ChildBot.start(fake, db)
    async with bot:
        assert "#" in await new_table(fake.owner), bot.output()
        assert bot.alive and fake.identifies == 1
        assert await bot.kill() == -signal.SIGKILL
    assert not bot.alive

    # SIGKILL right after the store's first commit once ready: Alice's table is written, but
    # she never gets an answer. The next bot finds the table she made.
    crashing = await ChildBot.start(fake, db, crash_after=["store.writer:GroupCommitWriter.run:1"],
                                    count_from_ready=True)
    async with crashing:
        it = await fake.slash(alice, "new", variant="europe", seats=2)
        assert await crashing.wait_exit() == -signal.SIGKILL, crashing.output()
        assert "crash after store.writer:GroupCommitWriter.run:1" in crashing.lines()
        assert it.callback is None
    restarted = await ChildBot.start(fake, db, crash_before=["bot_app.adapter.lobby:open_table:2"])
    async with restarted:
        assert "already have an open table" in await new_table(alice)
        # ... and this one dies right before its second new game (the refusal was the first).
        it = await fake.slash(bob, "new", variant="europe", seats=2)
        assert await restarted.wait_exit() == -signal.SIGKILL
        assert it.callback is None and "crash before bot_app.adapter.lobby:open_table:2" in restarted.output()

    # A graceful stop, on the same database, after all that.
    last = await ChildBot.start(fake, db)
    async with last:
        assert "#" in await new_table(bob)
        assert await last.stop() == 0 and "stopped" in last.lines()
    assert fake.identifies == 4 and not fake.errors
    assert sorted(p.name for p in tmp_path.glob("bot-child-*")) == [
        f"bot-child-{n}.{kind}" for n in range(1, 5) for kind in ("err", "out")]
