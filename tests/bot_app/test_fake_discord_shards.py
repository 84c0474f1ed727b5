"""The fake Discord's gateway shards, as Discord's: a connection that IDENTIFYs with shard
[i, n] hears only of the servers on shard i (`(guild id >> 22) % n`) — in READY, GUILD_CREATE
and every later event of theirs — and DMs only on shard 0; one without a shard hears all."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from tests.fake_discord import FakeDiscord
from tests.fake_discord.server import on_shard


async def _connect(session: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None
                   ) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any], list[int]]:
    """A gateway connection: its READY and the servers of its GUILD_CREATEs."""
    ws = await session.ws_connect(fake.gateway_url)
    await ws.receive_json()  # HELLO
    await ws.send_json({"op": 2, "d": {"token": "t", "intents": 0, **({"shard": shard} if shard else {})}})
    ready = (await ws.receive_json())["d"]
    guilds = [int((await ws.receive_json())["d"]["id"]) for _ in ready["guilds"]]
    return ws, ready, guilds


async def _events(ws: aiohttp.ClientWebSocketResponse) -> list[str]:
    """The events that reached the connection so far."""
    seen = []
    while True:
        try:
            msg = await ws.receive(timeout=0.2)
        except TimeoutError:
            return seen
        seen.append(json.loads(msg.data)["t"])


async def test_each_shard_hears_only_of_its_servers_and_dms_come_on_shard_0(fake: FakeDiscord) -> None:
    on = [(await fake.add_guild(f"Server {i}", shard=(i, 2)))[0] for i in range(2)]
    assert [on_shard(g, (i, 2)) for i, g in enumerate(on)] == [True, True]
    user = fake.add_user("Alice")
    async with aiohttp.ClientSession() as session:
        (ws0, ready0, guilds0), (ws1, ready1, guilds1) = [await _connect(session, fake, [i, 2]) for i in range(2)]
        ws_all, _, guilds_all = await _connect(session, fake, None)
        assert (ready0["shard"], ready1["shard"]) == ([0, 2], [1, 2])
        assert on[0] in guilds0 and on[1] not in guilds0 and on[1] in guilds1 and on[0] not in guilds1
        assert set(guilds_all) == set(fake.guilds)
        assert fake.shards_connected() == [(0, 1), (0, 2), (1, 2)]
        channel = next(int(c["id"]) for c in fake.channels.values() if c.get("guild_id") == str(on[1]))
        await fake.slash(user, "help", channel_id=channel)  # on shard 1
        assert (await _events(ws0), await _events(ws1), await _events(ws_all)) == (
            [], ["INTERACTION_CREATE"], ["INTERACTION_CREATE"])
        await fake.slash(user, "help", channel_id=fake._dm_channel(user.id))  # a DM: shard 0
        assert (await _events(ws0), await _events(ws1)) == (["INTERACTION_CREATE"], [])
        for ws in (ws0, ws1, ws_all):
            await ws.close()
