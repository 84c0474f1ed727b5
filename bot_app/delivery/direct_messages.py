"""Direct messages of the outbox: to the player's stored DM channel without a request, else a
channel opened now and kept to be stored (discord.py remembers only 128 DM channels), and a
stored channel Discord says is gone (10003) replaced by a new one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord

from app import Delivery, Settlement
from bot_app.delivery.discord_refusals import classify, nonce
from bot_app.presentation import posts

if TYPE_CHECKING:
    from app import GameService

CLOSED_DMS = 50007
UNKNOWN_CHANNEL = 10003


class DirectMessages:
    """Sends one delivery's DM (the dispatcher's, for every kind that goes by DM)."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service

    async def send(self, d: Delivery, user_id: int, message: posts.Message, settlement: Settlement,
                   known: Mapping[int, int] | None = None) -> bool:
        """Send a DM: to the player's stored DM channel (`known`, else read), or one opened now
        (and stored); a stored channel Discord says is gone is replaced by a new one. True when
        it went out; False when the player's DMs are closed (the service was told)."""
        if known is None:
            known = await self.service.outbox.dm_channels([user_id])
        stored = settlement.opened.get(user_id) or known.get(user_id)
        try:
            channel = await self.channel(user_id, stored, settlement)
            try:
                sent = await channel.send(message.content, files=message.discord_files(), nonce=nonce(d.id))
            except discord.NotFound as exc:
                if stored is None or exc.code != UNKNOWN_CHANNEL:
                    raise
                settlement.gone.append((user_id, stored))
                settlement.opened.pop(user_id, None)
                channel = await self.channel(user_id, None, settlement, fresh=True)
                sent = await channel.send(message.content, files=message.discord_files(), nonce=nonce(d.id))
            for i, extra in enumerate(message.more, 1):
                await channel.send(extra, nonce=nonce(d.id, i))
        except discord.Forbidden as exc:
            if exc.code == CLOSED_DMS:
                await self.service.outbox.dm_refused(d)
                return False
            raise classify(exc, None) from exc
        settlement.sent.append((d.id, sent.id))
        return True

    async def channel(self, user_id: int, stored: int | None, settlement: Settlement, *,
                      fresh: bool = False) -> discord.abc.Messageable:
        """The player's DM channel: the stored one as it is (no request), else opened (one
        request, unless discord.py still has it) and kept in `settlement` to be stored.
        `fresh`: asked of Discord even if discord.py has one (the one it has is gone)."""
        if stored is not None:
            return self.client.get_partial_messageable(stored, type=discord.ChannelType.private)
        if fresh:
            data = await self.client.http.start_private_message(user_id)
            channel: discord.abc.Messageable = self.client.get_partial_messageable(
                int(data["id"]), type=discord.ChannelType.private)
            settlement.opened[user_id] = int(data["id"])
            return channel
        dm = await self.client.create_dm(discord.Object(user_id))
        settlement.opened[user_id] = dm.id
        return dm
