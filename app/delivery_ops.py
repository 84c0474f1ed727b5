"""The delivery outbox, as the dispatcher sees it: what is due, what one post or DM needs, and
what came of sending it.

Policy lives here, Discord does not: a delivery that failed for now is tried again later, with
a growing wait; one that Discord refused for good (no permission, a locked thread, a channel
that is gone) stops the game's clocks with that reason, puts the game's other deliveries on
hold, and owes the host a notice; `/ttr admin resume` tries again. A player whose DMs are
closed is not DMed again until they ask: their hand stays one button away in the thread.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence

from app import records
from app.availability import away_until, settings_of_row, unreachable
from app.core import ACTIVE, ServiceCore
from app.errors import ServiceError
from app.loaded import Loaded
from app.models import Delivery, GameSummary, HandData, OutboxData, PlayerSettings, PostData, Settlement
from app.owed import DIGEST, DM_CLOSED, FINAL, GAME_OVER, HOST_NOTICE, LIMIT, POST, SEAT_DM
from app.plan_runs import PLAN_DM
from app.replays import final_timeline
from app.settings_ops import board_colorblind
from engine.events import PUBLIC, Event
from engine.game import actors
from engine.game import legal_actions as legal_for
from engine.game import view as view_for
from engine.state import canonical_json
from store import WriteConflict
from store.deliveries import DROPPED, FAILED, SENT, OutboxRead

log = logging.getLogger("app.service")

BACKOFF_FIRST = 2.0  # seconds before the first retry; doubles each time
BACKOFF_MOST = 300.0  # never wait longer than this between tries
# How long a process holds the deliveries it claimed (several processes on PostgreSQL): long
# enough to render and send a game's posts through Discord's rate limits; if the process dies,
# another sends them after this.
CLAIM_SECONDS = 300.0
DELIVERY_PAUSE = "Discord refused a message for this game"
# Sent even while their game waits for a resume: the host's notice, and a player's daily digest
# (a DM about all their games, which only borrows one game's outbox).
ALWAYS = (HOST_NOTICE, DIGEST)


def backoff(attempts: int) -> float:
    """Seconds to wait before try number `attempts + 1`."""
    return min(BACKOFF_FIRST * 2.0 ** max(0, attempts), BACKOFF_MOST)


class DeliveryOps:
    """What the dispatcher (bot_app.delivery.dispatcher) asks of the service."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def due_deliveries(self, now: float | None = None, limit: int = 100) -> list[Delivery]:
        """Deliveries due now that this process is to send, oldest first (a game on hold sends
        only its host notices). With several processes on one database they are claimed: a
        game's deliveries go to one process at a time, for CLAIM_SECONDS (store.deliveries.claim)."""
        rows = await self.store.deliveries.claim(self.core.clock() if now is None else now, limit, always=ALWAYS,
                                                 owner=self.core.owner, lease=CLAIM_SECONDS)
        return [records.delivery(r) for r in rows]

    async def next_delivery_due(self) -> float | None:
        """When the next delivery this process could send falls due (for the dispatcher's sleep)."""
        return await self.store.deliveries.next_claimable(self.core.clock(), self.core.owner, always=ALWAYS)

    async def deliveries(self, game_id: int, status: str | None = None) -> list[Delivery]:
        """A game's deliveries (for tests and for operators)."""
        return [records.delivery(r) for r in await self.store.deliveries.of_game(game_id, status)]

    async def outbox_data(self, game_id: int, hands: Sequence[Delivery] = ()) -> OutboxData:
        """What the game's due deliveries need, read at one moment in one store call (one
        thread hop; the game itself from the cache): its next turn post, settling every
        pending post of the game at once (the newest board wins; None when no post is
        pending), and the view of each DM in `hands` (a player's hand, a seat handed over),
        with what only they saw at the delivery's seq, and their DM channels. A game that is
        gone or broken comes back with `dropped` saying so."""
        async with self.core.lock(game_id):
            try:
                loaded = await self.loader.load(game_id)
            except ServiceError as exc:
                return OutboxData(dropped=exc.code)
            row = loaded.row
            from_seq = 0 if row.turn_post_seq is None else row.turn_post_seq + 1
            after = min([from_seq - 1, *(_seqs(d)[0] - 1 for d in hands)])
            users = [s.user_id for s in loaded.seats if s.user_id is not None]
            read = await self.store.deliveries.outbox_read(game_id, after_seq=after, user_ids=users,
                                                           dm_users=(d.user_id for d in hands if d.user_id is not None))
            mine = {u: settings_of_row(read.settings.get(u)) for u in users}
            post = await self._post_of(loaded, read, mine, from_seq)
            return OutboxData(post=post, hands={d.id: _hand_of(loaded, read, mine, d) for d in hands},
                              dm_channels=read.dm_channels)

    async def _post_of(self, loaded: Loaded, read: OutboxRead, mine: dict[int, PlayerSettings],
                       from_seq: int) -> PostData | None:
        pending = [d for d in read.pending if d.kind in (POST, FINAL)]
        if not pending:
            return None
        row, game_id = loaded.row, loaded.row.id
        events = tuple(e for r in read.actions if r.seq >= from_seq for e in _events(r.events_json)
                       if e.visibility == PUBLIC)
        payloads = [records.delivery(d).payload for d in pending]
        final = any(d.kind == FINAL for d in pending)
        waiting = actors(loaded.state)
        humans = [s for s in loaded.seats if s.seat in waiting and s.user_id is not None and s.stand_in is None]
        legal = tuple(legal_for(loaded.state, humans[0].seat)) if len(humans) == 1 and not final else ()
        view = view_for(loaded.state, None).at(loaded.seq, game_id)
        deadlines = {t.seat: t.due_at for t in read.timers if t.kind == LIMIT and t.seat is not None}
        now = self.core.clock()
        away = {s.seat: until for s in loaded.seats if s.user_id is not None and s.user_id in mine
                and (until := away_until(mine[s.user_id], row.max_away_days, now)) is not None}
        replay = await final_timeline(self.store, loaded) if final else ()
        return PostData(
            summary=records.summary_of(loaded), view=view, events=events, from_seq=from_seq,
            new_turn=row.turn_post_id is None or any(p.get("new_turn") for p in payloads),
            notes=tuple(n for p in payloads for n in p.get("notes", ()) if isinstance(n, dict)),
            deliveries=tuple(d.id for d in pending), legal=legal, final=final, deadlines=deadlines,
            colorblind=board_colorblind(mine), away=away,
            quiet_users=unreachable(loaded.seats, mine, row.max_away_days, now), replay=replay)

    async def post_data(self, game_id: int) -> PostData | None:
        """What the game's next turn post must show (see `outbox_data`); None when no post is
        pending. Raises the ServiceError of a game that is gone or broken."""
        data = await self.outbox_data(game_id)
        if data.dropped is not None:
            async with self.core.lock(game_id):
                await self.loader.load(game_id)  # raises what made it unreadable
        return data.post

    async def settle(self, settlement: Settlement) -> None:
        """Store what came of a game's deliveries in ONE transaction: the turn post (it settles
        its deliveries, and is now the message that shows the game), every delivery sent or
        dropped, the DM channels opened or gone. A delivery already settled stays as it was."""
        if not settlement:
            return
        game_id = settlement.game_id
        async with self.core.lock(game_id):
            tx = self.store.tx()
            post_at: int | None = None
            if settlement.post is not None:
                deliveries, message_id, seq = settlement.post
                for delivery_id in deliveries:
                    tx.deliveries.settle_sent(delivery_id, message_id)
                post_at = tx.games.set_turn_post(game_id, message_id, seq)
            for delivery_id, made in settlement.sent:
                tx.deliveries.settle_sent(delivery_id, made)
            for delivery_id, note in settlement.dropped:
                tx.deliveries.settle_sent(delivery_id, None, note)
            for user_id, channel_id in settlement.gone:
                tx.deliveries.forget_dm_channel(user_id, channel_id)
            for user_id, channel_id in settlement.opened.items():
                tx.deliveries.remember_dm_channel(user_id, channel_id)
            done = await self.store.write(tx)
            if settlement.post is not None and post_at is not None:
                self.loader.turn_posted(game_id, settlement.post[1], settlement.post[2],
                                        written=done.rowcounts[post_at] if post_at < len(done.rowcounts) else 0)
        settlement.clear()

    async def posted(self, game_id: int, deliveries: Sequence[int], message_id: int, seq: int) -> None:
        """A turn post was sent or edited: it settles `deliveries`, and it is now the message
        that shows the game (at `seq`)."""
        await self.settle(Settlement(game_id, post=(tuple(deliveries), message_id, seq)))

    async def dm_channels(self, user_ids: Sequence[int]) -> Mapping[int, int]:
        """The DM channels known for these users (user id → channel id)."""
        return await self.store.deliveries.dm_channels(user_ids)

    async def taken_back_data(self, delivery: Delivery) -> GameSummary | None:
        """The game, for the word to a player that the turn they were pinged for was taken
        back (app/owed.py `taken_back`); None when that ping — the turn DM the delivery names —
        never went out (held for their quiet hours and dropped, DMs closed), or they no longer
        play there: then there is nothing to take back."""
        key = delivery.payload.get("turn_dm")
        seat = delivery.payload.get("seat")
        turn_dm = await self.store.deliveries.by_key(delivery.game_id, key) if isinstance(key, str) else None
        if turn_dm is None or turn_dm.status != "sent" or turn_dm.user_id != delivery.user_id:
            return None
        async with self.core.lock(delivery.game_id):
            summary = records.summary_of(await self.loader.load(delivery.game_id), delivery.user_id)
        if not isinstance(seat, int) or not 0 <= seat < len(summary.seats) \
                or summary.seats[seat].user_id != delivery.user_id or summary.status != "playing":
            return None
        return summary

    async def hand_data(self, delivery: Delivery) -> HandData | None:
        """A player's own view for a DM, with what only they saw at the delivery's seq; None
        when they no longer play the game. Raises the ServiceError of a game gone or broken."""
        data = await self.outbox_data(delivery.game_id, [delivery])
        if data.dropped is not None:
            async with self.core.lock(delivery.game_id):
                await self.loader.load(delivery.game_id)  # raises what made it unreadable
        return data.hands.get(delivery.id)

    async def digest_data(self, delivery: Delivery) -> list[tuple[GameSummary, float | None]]:
        """What a player's daily digest lists, as it is sent: every game being played that
        waits for them now (not one the AI holds for them), with its thread, and when the AI
        plays for them there (None: no limit pending), most recently active first."""
        user = delivery.user_id
        if user is None:
            return []
        pairs = await self.store.games.seats_of_user(user, ACTIVE)
        players = await self.store.games.players_of(row.id for row, _ in pairs)
        out: list[tuple[GameSummary, float | None]] = []
        for row, seat in pairs:
            summary = records.summary(row, players[row.id], user)
            if seat not in summary.waiting_for or summary.seats[seat].stand_in is not None:
                continue
            limit = next((t.due_at for t in await self.store.timers.pending(row.id)
                          if t.kind == LIMIT and t.seat == seat), None)
            out.append((summary, limit))
        return out

    async def digest_news(self, delivery: Delivery) -> list[HandData]:
        """The news of ended games a daily digest carries (app/clocks.py), each drawn from the
        player's own view of that game as the digest is sent."""
        out = []
        for news in await self._carried(delivery):
            hand = await self.hand_data(news)
            if hand is not None:
                out.append(hand)
        return out

    async def _carried(self, delivery: Delivery) -> list[Delivery]:
        """The game-over news a delivery was to bring: itself, or what a digest carries."""
        if delivery.kind == GAME_OVER:
            return [delivery]
        ids = delivery.payload.get("news") if delivery.kind == DIGEST else None
        rows = [await self.store.deliveries.get(i) for i in ids if isinstance(i, int)] if isinstance(ids, list) else []
        return [records.delivery(r) for r in rows if r is not None and r.kind == GAME_OVER]

    async def delivered(self, delivery_id: int, message_id: int | None = None, *, dropped: bool = False,
                        note: str | None = None) -> None:
        """A delivery is done: sent (making `message_id`), or dropped as no longer needed."""
        tx = self.store.tx()
        tx.deliveries.delivered(delivery_id, message_id, DROPPED if dropped else SENT, note)
        try:
            await self.store.write(tx)
        except WriteConflict:
            log.info("delivery %d was already settled", delivery_id)

    async def note_message(self, delivery_id: int, message_id: int) -> None:
        """Remember a message a delivery made before it is settled, so a retry edits it."""
        tx = self.store.tx()
        tx.deliveries.note_message(delivery_id, message_id)
        await self.store.write(tx)

    async def retry_later(self, delivery: Delivery, error: str) -> float:
        """A delivery failed for now: try again after a growing wait. Returns when."""
        due = self.core.clock() + backoff(delivery.attempts)
        tx = self.store.tx()
        tx.deliveries.retry(delivery.id, due, error)
        await self.store.write(tx)
        log.warning("game %d: delivery %d (%s) failed (%s); trying again in %.0f s", delivery.game_id, delivery.id,
                    delivery.kind, error, due - self.core.clock())
        return due

    async def delivery_refused(self, delivery: Delivery, reason: str) -> None:
        """Discord refused a delivery for good: the game's clocks stop with `reason`, its other
        deliveries wait, and the host is owed a notice. `/ttr admin resume` tries again."""
        async with self.core.lock(delivery.game_id):
            tx = self.store.tx()
            tx.deliveries.delivered(delivery.id, None, FAILED, reason)
            if delivery.kind != HOST_NOTICE:
                tx.games.set_paused(delivery.game_id, f"{DELIVERY_PAUSE}: {reason}")
                tx.timers.cancel(delivery.game_id, kind="reminder")
                tx.timers.cancel(delivery.game_id, kind="limit")
                tx.deliveries.owe(delivery.game_id, delivery.seq, HOST_NOTICE, f"{HOST_NOTICE}:{delivery.id}",
                                  payload_json=canonical_json({"reason": reason, "kind": delivery.kind}))
            try:
                await self.store.write(tx)
            except WriteConflict:
                return
            await self.loader.refresh(delivery.game_id)
        self.core.deliveries_waiting.set()
        log.warning("game %d: Discord refused delivery %d (%s): %s; the game is paused", delivery.game_id,
                    delivery.id, delivery.kind, reason)

    async def dm_refused(self, delivery: Delivery) -> None:
        """Discord will not DM this player (their DMs are closed): the DM is dropped, they are
        not DMed again in any game until they ask, and the thread gets one notice (none for a
        game that is over: no hand to keep a button away). News of a game's end that the DM was
        to bring (itself, or carried by a digest) becomes a mention in that game's thread."""
        if delivery.user_id is None:
            raise ServiceError("That delivery is not a direct message.", "not_a_dm")
        tx = self.store.tx()
        tx.deliveries.delivered(delivery.id, None, DROPPED, "DMs closed")
        tx.seats.set_dm_closed_for_user(delivery.user_id, True)
        if delivery.kind != GAME_OVER:
            tx.deliveries.owe(delivery.game_id, delivery.seq, DM_CLOSED, f"{DM_CLOSED}:{delivery.user_id}",
                              user_id=delivery.user_id)
        for news in await self._carried(delivery):
            seat = news.payload.get("seat")
            tx.deliveries.owe(news.game_id, news.seq, GAME_OVER, f"{GAME_OVER}:{seat}:mention", user_id=news.user_id,
                              payload_json=canonical_json({"seat": seat, "mention": True}))
        try:
            await self.store.write(tx)
        except WriteConflict:
            return
        for game_id in await self.store.games.ids_of_user(delivery.user_id):
            await self.loader.refresh(game_id)
        self.core.deliveries_waiting.set()

    async def dms_open(self, user_id: int) -> None:
        """The player says their DMs are open again: DM them again in every game."""
        await self._set_dms(user_id, closed=False)

    async def dms_closed(self, user_id: int) -> None:
        """The player asks not to be DMed (their hand stays a button away in each thread)."""
        await self._set_dms(user_id, closed=True)

    async def dms_known_closed(self, user_id: int) -> bool:
        """Whether the bot will not DM this player (Discord refused, or they asked)."""
        return await self.store.games.dm_closed(user_id)

    async def _set_dms(self, user_id: int, *, closed: bool) -> None:
        tx = self.store.tx()
        tx.seats.set_dm_closed_for_user(user_id, closed)
        await self.store.write(tx)
        for game_id in await self.store.games.ids_of_user(user_id):
            await self.loader.refresh(game_id)


def _hand_of(loaded: Loaded, read: OutboxRead, mine: Mapping[int, PlayerSettings],
             delivery: Delivery) -> HandData | None:
    """A DM's player view (see `outbox_data`); None when they no longer play the game."""
    seat = delivery.payload.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(loaded.seats) or loaded.seats[seat].user_id != delivery.user_id:
        return None
    # What they saw at the delivery's seq; a plan's line (app/plan_runs.py): over the entries its
    # moves made.
    first, last = _seqs(delivery)
    private = tuple(e for r in read.actions if first <= r.seq <= last for e in _events(r.events_json)
                    if e.seat == seat and e.visible_to(seat) and e.visibility != PUBLIC)
    if delivery.kind == PLAN_DM:  # everything the plan's moves did, as the player saw it
        private = tuple(e for r in read.actions if first <= r.seq <= last for e in _events(r.events_json)
                        if e.visible_to(seat))
    if delivery.kind == SEAT_DM:
        private = ()  # a seat handed over: its hand now, not what its last holder saw
    view = view_for(loaded.state, seat).at(loaded.seq, delivery.game_id)
    user = delivery.user_id
    settings = PlayerSettings() if user is None else mine.get(user, PlayerSettings())
    return HandData(records.summary_of(loaded, user), seat, view, private, settings)


def _events(events_json: str) -> list[Event]:
    try:
        data = json.loads(events_json)
    except ValueError:
        return []
    return [Event.from_json(d) for d in data] if isinstance(data, list) else []


def _seqs(delivery: Delivery) -> tuple[int, int]:
    """The log entries a DM tells of: its own seq, or the range its payload names."""
    first, last = delivery.payload.get("from_seq"), delivery.payload.get("to_seq")
    if isinstance(first, int) and isinstance(last, int) and 0 < first <= last <= delivery.seq:
        return first, last
    return delivery.seq, delivery.seq
