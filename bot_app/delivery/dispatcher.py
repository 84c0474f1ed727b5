"""The dispatcher: sends what moves owe the players, from the outbox, until it gets there.

Every move stores its deliveries in its own transaction (app.owed); this loop sends them —
after a crash too, since they wait in the database. For each game, in order:

- the turn post: every pending post of the game becomes ONE message (the newest board wins):
  a new message when a turn began, else an edit of the current one. A new message carries a
  nonce derived from the delivery, so if the bot dies after Discord took it but before the
  database heard, the retry gets the same message back instead of posting twice (Discord keeps
  nonces a few minutes). An archived thread (Discord archives after 7 days of silence) is
  reopened by posting anew instead of editing;
- direct messages (a player's hand, a seat handed to a substitute, a daily digest, the news
  that a game ended), and notices in the thread. A DM goes straight to the player's DM channel
  when its id is stored (discord.py remembers only 128 DM channels: with more players, most
  DMs would first ask Discord to open the channel again); Discord's word that the channel is
  gone (10003) opens a new one, and each channel opened is stored. A turn post pings only the players who may
  be pinged now (not in their quiet hours, not away, not taking a daily digest instead), and
  says who is away until when.

A game's round costs the outbox one read and one write: what the turn post and the DMs of the
turn need is read at once (`outbox_data`: one store call), and the post and those DMs are
settled together in one transaction once they went out (`settle`); any other delivery of the
round (a notice, a digest, the news of a game's end) is settled before the next one starts.

What Discord says decides what happens next:

- it worked: the delivery is settled with the message it made (a retry then edits, never
  posts twice; a message Discord took before a crash, with its settlement not yet stored, is
  asked for again with the same nonce and Discord gives back the same message);
- a 5xx, a timeout, a dropped connection: try again later, waiting longer each time
  (discord.py itself retries a 5xx a few times and waits out a 429 before we see it);
- the player's DMs are closed (50007): they are not DMed again until they say so, and the
  thread gets one notice;
- a refusal for good (a missing permission, a locked thread, a channel that is gone): the
  service pauses the game with that reason and holds its other deliveries; the host is told in
  the game's channel, else by DM; `/ttr admin resume` tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

import aiohttp
import discord

from app import Delivery, OutboxData, ServiceError, Settlement
from app.owed import (
    DIGEST,
    DM,
    DM_CLOSED,
    FINAL,
    GAME_OVER,
    HOST_NOTICE,
    NOTICE,
    POST,
    REMINDER,
    SEAT_DM,
    TAKEN_BACK,
    TURN_DM,
)
from app.plan_runs import PLAN_DM
from bot_app import lang
from bot_app.delivery import game_over_news
from bot_app.delivery.direct_messages import DirectMessages
from bot_app.delivery.discord_refusals import ARCHIVED, UNKNOWN_MESSAGE, Refused, classify, describe, nonce, refusals
from bot_app.delivery.timers import pause_after_errors
from bot_app.presentation import layout, plan_words, player_posts, posts, tutorial

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk

log = logging.getLogger("bot_app.delivery.dispatcher")

# The DMs of a turn, settled with its turn post in one transaction; any other kind is settled
# on its own (what it reads — the turn post's message, a turn DM's fate — is stored by then).
WITH_THE_POST = (DM, TURN_DM, SEAT_DM, PLAN_DM)
MAX_PARALLEL_GAMES = 8
# While games are being delivered, the outbox is looked at again after a pause that grows with
# what the last look read (seconds per delivery read, and at most): each look reads every due
# delivery of the busy games again, so a hundred busy games are looked at ~15 times a second,
# a few at once within milliseconds.
FETCH_GAP_PER_ROW = 0.0005
FETCH_GAP_MOST = 0.075


class Dispatcher:
    """Delivers the outbox of one running bot (see the module's docstring)."""

    def __init__(self, desk: Desk, clock: Callable[[], float] = time.time, max_sleep: float = 60.0) -> None:
        self.desk = desk
        self.service = desk.service
        self.client = desk.client
        self.clock = clock
        self.max_sleep = max_sleep
        self.working = 0
        self.sent = 0  # messages sent or edited (metrics)
        self._games = asyncio.Semaphore(MAX_PARALLEL_GAMES)
        # One pass at a time: two passes could both pick up the same due delivery.
        self._pass = asyncio.Lock()
        self.dms = DirectMessages(self.client, self.service)

    # --- the loop ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Deliver what is due, then sleep until the next retry is due or a move stores more."""
        errors = 0
        while True:
            try:
                await self.run_once()
                nxt, errors = await self.service.outbox.next_delivery_due(), 0
            except asyncio.CancelledError:
                raise
            except Exception:
                errors += 1
                log.exception("the dispatcher failed (%d in a row); it will look again soon", errors)
                nxt = self.clock() + pause_after_errors(errors)  # seconds, not a minute: the database may be back
            delay = self.max_sleep if nxt is None else min(max(nxt - self.clock(), 0.01), self.max_sleep)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.service.deliveries_waiting.wait(), delay)

    async def run_once(self) -> int:
        """Deliver everything due now (several games at once, each game in order), and what
        falls due meanwhile, until nothing is due. Returns how many deliveries were looked at."""
        self.working += 1
        try:
            async with self._pass:
                return await self._deliver_due()
        finally:
            self.working -= 1

    async def _deliver_due(self) -> int:
        """Each game with something due gets a lane: a task that sends its deliveries in order.
        A game has at most one lane; what it is owed meanwhile waits in the outbox for the
        lane's next round, where one post settles every pending post with the newest board (so
        three moves made while a picture was being drawn cost one more picture, not three).
        A game whose lane is done starts again at once: no game waits for the slowest of a
        batch."""
        looked = 0
        lanes: dict[int, asyncio.Task[None]] = {}
        try:
            while True:
                self.service.deliveries_waiting.clear()
                due = await self.service.outbox.due_deliveries(self.clock(), limit=200)
                by_game: dict[int, list[Delivery]] = {}
                behind: set[int] = set()  # busy games with more due: their lanes go round again
                for d in due:
                    if d.game_id in lanes:
                        behind.add(d.game_id)
                    else:
                        by_game.setdefault(d.game_id, []).append(d)
                for g, ds in by_game.items():
                    looked += len(ds)
                    lanes[g] = asyncio.create_task(self._game(g, ds), name=f"ttr-deliver-{g}")
                if not lanes:
                    return looked
                await self._until_more(lanes, behind, min(FETCH_GAP_MOST, FETCH_GAP_PER_ROW * len(due)))
        finally:
            for task in lanes.values():
                task.cancel()
            await asyncio.gather(*lanes.values(), return_exceptions=True)

    async def _until_more(self, lanes: dict[int, asyncio.Task[None]], behind: set[int], gap: float) -> None:
        """Wait until there may be something new to start: a move stored more deliveries, a
        lane finished whose game has more due, or every lane finished. Finished lanes leave
        `lanes`. While other lanes work, the next look waits `gap` seconds more, so that a
        burst of moves costs one look at the outbox rather than one each."""
        while True:
            more = asyncio.create_task(self.service.deliveries_waiting.wait())
            try:
                await asyncio.wait([more, *lanes.values()], return_when=asyncio.FIRST_COMPLETED)
            finally:
                more.cancel()
            finished = [g for g, task in lanes.items() if task.done()]
            for g in finished:
                task = lanes.pop(g)
                if not task.cancelled() and task.exception() is not None:
                    log.error("game %d: delivery failed", g, exc_info=task.exception())
            if not lanes:
                return
            if self.service.deliveries_waiting.is_set() or behind.intersection(finished):
                await asyncio.sleep(gap)
                return

    async def _game(self, game_id: int, due: list[Delivery]) -> None:
        """The game's due deliveries, in order: first its turn post (one message settles every
        pending post), then the rest one by one; the post and the DMs of the turn read in one
        call and settled in one transaction. A refusal for good of the post puts the game on
        hold; a failure for now retries the whole group later."""
        async with self._games:
            posts = [d for d in due if d.kind in (POST, FINAL)]
            dms = [d for d in due if d.kind in WITH_THE_POST]
            data = await self._outbox_data(game_id, posts, dms)
            if data is None:
                return
            settlement = Settlement(game_id)
            try:
                if posts and not await self._attempt(game_id, posts, self._post(data, posts, settlement)):
                    return  # on hold (or to be retried): the thread shows nothing newer meanwhile
                for d in due:
                    if d.kind in (POST, FINAL):
                        continue
                    alone = d.kind not in WITH_THE_POST
                    if alone:
                        await self._settle(settlement)
                    await self._attempt(game_id, [d], self._single(d, data, settlement))
                    if alone:
                        await self._settle(settlement)
            finally:
                await self._settle(settlement)

    async def _settle(self, settlement: Settlement) -> None:
        if settlement:
            await self.service.outbox.settle(settlement)

    async def _outbox_data(self, game_id: int, posts: list[Delivery], dms: list[Delivery]) -> OutboxData | None:
        """What the post and the DMs of the turn need, in one read; None when it could not be
        read (they are tried again later)."""
        if not posts and not dms:
            return OutboxData()
        try:
            return await self.service.outbox.outbox_data(game_id, dms)
        except Exception as exc:  # the database failed: log it, and do not retry in a tight loop
            log.exception("game %d: its deliveries could not be read", game_id)
            for d in [*posts, *dms]:
                await self.service.outbox.retry_later(d, type(exc).__name__)
            return None

    async def _attempt(self, game_id: int, group: list[Delivery], work: Awaitable[None]) -> bool:
        """Deliver `group` with `work`; settle what Discord answered. True when it went out."""
        first = group[0]
        try:
            await work
            return True
        except Refused as exc:
            await self.service.outbox.delivery_refused(first, exc.reason)
        except ServiceError as exc:  # the game is gone or broken: nothing to deliver
            log.info("game %d: delivery %d dropped (%s)", game_id, first.id, exc.code)
            for d in group:
                await self.service.outbox.delivered(d.id, dropped=True, note=exc.code)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            for d in group:
                await self.service.outbox.retry_later(d, describe(exc))
        except Exception as exc:  # a bug: log it, and do not retry in a tight loop
            log.exception("game %d: delivery %d (%s) failed", game_id, first.id, first.kind)
            for d in group:
                await self.service.outbox.retry_later(d, type(exc).__name__)
        return False

    # --- the turn post ------------------------------------------------------------------------

    async def _post(self, outbox: OutboxData, due: list[Delivery], settlement: Settlement) -> None:
        data = outbox.post
        if outbox.dropped is not None:  # the game is gone or broken: nothing to show
            log.info("game %d: its turn post dropped (%s)", settlement.game_id, outbox.dropped)
            settlement.dropped += [(d.id, outbox.dropped) for d in due]
            return
        if data is None:
            return
        thread_id = data.summary.thread_id
        if thread_id is None:
            settlement.dropped += [(delivery_id, "no thread") for delivery_id in data.deliveries]
            return
        message = player_posts.with_away(await posts.turn_post(data, self.desk.renderer), data)
        thread = self.client.get_partial_messageable(thread_id, type=discord.ChannelType.public_thread)
        current = data.summary.turn_post_id
        sent_id: int | None = None
        if current is not None and not data.new_turn and not data.final:
            sent_id = await self._edit(thread, current, message)
        as_layout = False
        if sent_id is None:  # one layout if it fits (bot_app/presentation/layout.py), else today's form
            sent, as_layout = await refusals(thread_id, layout.send_post(
                thread, message, nonce=nonce(min(data.deliveries)), allowed_mentions=player_posts.ping_only(data)))
            if layout.shown_text(sent) != layout.text_shown(message, layout.is_layout(sent)):
                # Discord gave back a message sent before a crash (same nonce): bring it up to date.
                await refusals(thread_id, layout.edit_post(sent, message, layout_first=layout.is_layout(sent)))
            sent_id, as_layout = sent.id, layout.is_layout(sent)
        for i, extra in enumerate([] if as_layout else message.more, 1):  # long final results, never cut
            await refusals(thread_id, thread.send(extra, nonce=nonce(min(data.deliveries), i)))
        self.sent += 1
        settlement.post = (data.deliveries, sent_id, data.summary.seq)

    async def _edit(self, thread: discord.PartialMessageable, message_id: int, message: posts.Message) -> int | None:
        """Edit the turn post; None when it must be posted anew (an archived thread, a deleted
        message)."""
        try:  # in the post's own form (a layout, or an old-style post from before): bot_app/presentation/layout.py
            await layout.edit_post(thread.get_partial_message(message_id), message, layout_first=True)
        except discord.HTTPException as exc:
            if exc.code in (ARCHIVED, UNKNOWN_MESSAGE, layout.INVALID_FORM):  # neither form will do: post anew
                return None
            raise classify(exc, thread.id) from exc
        return message_id

    # --- everything else ----------------------------------------------------------------------

    async def _single(self, d: Delivery, outbox: OutboxData, settlement: Settlement) -> None:
        if d.kind in WITH_THE_POST:
            await self._dm(d, outbox, settlement)
            return
        if d.kind == DIGEST:
            await self._digest(d, settlement)
            return
        if d.kind == TAKEN_BACK:
            await self._taken_back(d, settlement)
            return
        if d.kind == GAME_OVER:
            await self._game_over(d, settlement)
            return
        summary = await self.service.reads.game(d.game_id)
        if d.kind == REMINDER and not summary.still_waits_for(d.payload.get("seat"), d.user_id):
            await self.service.outbox.delivered(d.id, dropped=True,
                                                note="no longer their turn")  # sent late: not true now
            return
        message = tutorial.notice(d, summary) or player_posts.notice(d, summary) or posts.notice(d, summary)
        if d.kind == HOST_NOTICE:
            await self._tell_host(d, summary.channel_id, summary.host_user_id, message)
            return
        if d.kind in (DM_CLOSED, REMINDER, NOTICE) and summary.thread_id is not None:
            thread = self.client.get_partial_messageable(summary.thread_id, type=discord.ChannelType.public_thread)
            sent = await refusals(summary.thread_id, thread.send(
                message.content, view=message.view or discord.utils.MISSING, nonce=nonce(d.id)))
            self.sent += 1
            await self.service.outbox.delivered(d.id, sent.id)
            return
        await self.service.outbox.delivered(d.id, dropped=True, note="nowhere to send it")

    async def _dm(self, d: Delivery, outbox: OutboxData, settlement: Settlement) -> None:
        hand = outbox.hands.get(d.id)
        if hand is None or d.user_id is None or hand.summary.status == "over":
            settlement.dropped.append((d.id, outbox.dropped or "no longer needed"))
            return
        if hand.summary.seats[hand.seat].dm_closed:
            await self.service.outbox.dm_refused(d)  # closed meanwhile: the thread's notice covers it
            return
        if d.kind == TURN_DM and hand.seat not in hand.summary.waiting_for:
            # Held until the player's quiet hours ended, and they moved meanwhile.
            settlement.dropped.append((d.id, "the turn is over"))
            return
        if d.kind == SEAT_DM:
            message = await player_posts.seat_dm(hand, self.desk.renderer)
        elif d.kind == PLAN_DM:
            message = plan_words.plan_dm(d, hand)
        else:
            message = await posts.hand_dm(d, hand, self.desk.renderer)
        await self._send_dm(d, d.user_id, message, settlement, outbox.dm_channels)

    async def _taken_back(self, d: Delivery, settlement: Settlement) -> None:
        """The word that a turn this player was pinged for was taken back; dropped when the ping
        never went out. After that turn DM in the game's lane, so its fate is settled by now."""
        summary = await self.service.outbox.taken_back_data(d)
        if summary is None or d.user_id is None:
            await self.service.outbox.delivered(d.id, dropped=True, note="not pinged")
            return
        table = lang.language(summary.language)
        with lang.reading(lang.for_reader(await self.service.settings.user_language(d.user_id), table)):
            message = player_posts.taken_back(d, summary)
        await self._send_dm(d, d.user_id, message, settlement)

    async def _digest(self, d: Delivery, settlement: Settlement) -> None:
        """A player's daily digest, listing the games waiting for them as it is sent, and the
        news of the games of theirs that ended since the last one."""
        waiting = await self.service.outbox.digest_data(d)
        news = await self.service.outbox.digest_news(d)
        if not (waiting or news) or d.user_id is None:
            await self.service.outbox.delivered(d.id, dropped=True, note="no game waits")
            return
        if await self.service.outbox.dms_known_closed(d.user_id):
            if news:  # the news still reaches them: a mention in each game's thread
                await self.service.outbox.dm_refused(d)
            else:
                await self.service.outbox.delivered(d.id, dropped=True, note="DMs closed")
            return
        # In the player's own language, else the language of the first game it lists.
        table = lang.language(waiting[0][0].language) if waiting else lang.english()
        with lang.reading(lang.for_reader(await self.service.settings.user_language(d.user_id), table)):
            lines = [game_over_news.digest_line(n) for n in news]
            message = player_posts.digest(d, waiting, lines)
        await self._send_dm(d, d.user_id, message, settlement)

    async def _game_over(self, d: Delivery, settlement: Settlement) -> None:
        """The news of a game's end to one player: by DM, or a mention in the thread where
        their DMs are closed (a DM Discord refuses with 50007 becomes that mention too)."""
        news = await self.service.outbox.hand_data(d)
        if news is None or d.user_id is None:
            await self.service.outbox.delivered(d.id, dropped=True, note="no longer seated")
            return
        if d.payload.get("mention") or news.summary.seats[news.seat].dm_closed:
            thread_id = news.summary.thread_id
            if thread_id is None:
                await self.service.outbox.delivered(d.id, dropped=True, note="no thread")
                return
            message = game_over_news.mention(d.user_id, news)
            thread = self.client.get_partial_messageable(thread_id, type=discord.ChannelType.public_thread)
            only_them = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(d.user_id)])
            sent = await refusals(thread_id, thread.send(message.content, nonce=nonce(d.id),
                                                          allowed_mentions=only_them))
            self.sent += 1
            await self.service.outbox.delivered(d.id, sent.id)
            return
        await self._send_dm(d, d.user_id, game_over_news.direct_message(news), settlement)

    async def _send_dm(self, d: Delivery, user_id: int, message: posts.Message, settlement: Settlement,
                       known: Mapping[int, int] | None = None) -> None:
        if await self.dms.send(d, user_id, message, settlement, known):
            self.sent += 1

    async def _tell_host(self, d: Delivery, channel_id: int, host_id: int | None, message: posts.Message) -> None:
        """The host's notice: in the game's text channel, else by DM, else only the log."""
        try:
            channel = self.client.get_partial_messageable(channel_id)
            sent = await channel.send(message.content, nonce=nonce(d.id))
        except discord.HTTPException:
            if host_id is None:
                raise
            try:
                dm = await self.client.create_dm(discord.Object(host_id))
                sent = await dm.send(message.content, nonce=nonce(d.id))
            except discord.Forbidden:
                log.warning("game %d: could not tell the host that the game is paused", d.game_id)
                await self.service.outbox.delivered(d.id, dropped=True, note="host unreachable")
                return
        self.sent += 1
        await self.service.outbox.delivered(d.id, sent.id)
