"""Clocks and absence: turn timers, pausing, and the AI standing in for absent players.

The rules (DISCORD_UX.md, "Timers"): each turn a person gets a reminder at half their turn
limit; at the limit the AI plays that one turn for them; after three such turns in a row the
AI keeps the seat until they come back with any game command. The host, or a manager of the
game's server, may pause the clocks, start them again, or hand a seat to the AI at once.

Everything here is stored: the timers, the paused state and its reason, each seat's count of
turns played by the AI and who holds the seat. A timer acts once (it is claimed in the same
transaction as what it does), and a restart loses none.

Each player's own clock (app/player_clock.py) counts: a turn limit acts only once the player
has had their whole turn of running time (their quiet hours and vacation do not count; when
their settings changed meanwhile, the limit moves on instead), and a reminder never goes out
in their quiet hours or while they are away (it waits until they end), nor to a player who
takes a daily digest. The digests themselves are stored per player (`digest_due`) and sent
here once a day each: one DM listing every game waiting for them, and carrying the news of
every game of theirs that ended since the last one (held for it: app/owed.py).
"""

from __future__ import annotations

import logging
from typing import Any

from app import records
from app.availability import clock_of, seat_infos, settings_rows
from app.core import ACTIVE, CommitExtras, SeatChange, ServiceCore
from app.errors import GameNotFound, ServiceError, StaleAction
from app.loaded import Loaded
from app.models import Caller, Timer
from app.moves import MoveOps, stand_in_level
from app.owed import (
    ABSENT_LIMIT,
    DIGEST,
    LIMIT,
    NOTICE,
    REMINDER,
    TURN_TIMERS,
    same_turn,
    timers_for_turn,
)
from app.player_clock import local_day
from app.settings_ops import digest_due, held_for_digest
from engine.game import actors
from engine.state import canonical_json
from store import WriteConflict

log = logging.getLogger("app.service")

HOST_PAUSE = "paused by the host"
# How long a process holds the due timers it claimed (several processes on PostgreSQL); a timer
# still fires once whoever acts on it (its guarded UPDATE), the claim only saves double work.
TIMER_CLAIM_SECONDS = 60.0
# A turn limit acts when less than this much of the player's running time is left (seconds).
LIMIT_SLACK = 1.0
# How often a timer is looked at again when the game moved on while it acted.
FIRE_ATTEMPTS = 3


class ClockOps:
    """Timers, pause and resume, kick, and coming back."""

    def __init__(self, core: ServiceCore, moves: MoveOps) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        self.moves = moves

    # --- timers -----------------------------------------------------------------------------

    async def schedule_timer(self, game_id: int, kind: str, due_at: float, *, seat: int | None = None,
                             for_seq: int | None = None, payload: dict[str, Any] | None = None) -> Timer:
        """Set a timer, replacing a pending one of the same kind for the same seat. With
        `for_seq` it only matters while the game is at that seq."""
        async with self.core.lock(game_id):
            tx = self.store.tx()
            index = tx.timers.schedule(game_id, kind, due_at, seat=seat, for_seq=for_seq,
                                       payload_json=canonical_json(dict(payload or {})))
            try:
                done = await self.store.write(tx)
            except WriteConflict as exc:
                if await self.store.games.get(game_id) is None:
                    raise GameNotFound(game_id) from exc
                raise StaleAction(game_id, None) from exc
        self.core.timers_changed.set()
        timer_id = done.lastrowids[index]
        assert timer_id is not None
        row = await self.store.timers.get(timer_id)
        assert row is not None
        return records.timer(row)

    async def cancel_timers(self, game_id: int, kind: str | None = None) -> None:
        """Cancel a game's pending timers (of one kind, or all)."""
        tx = self.store.tx()
        tx.timers.cancel(game_id, kind=kind)
        await self.store.write(tx)

    async def pending_timers(self, game_id: int) -> list[Timer]:
        return [records.timer(r) for r in await self.store.timers.pending(game_id)]

    async def due_timers(self, now: float | None = None, limit: int = 100) -> list[Timer]:
        """Pending timers that are due, earliest first (leaving out those for a point the game
        has passed) and, with several processes, not claimed by another one for now."""
        rows = await self.store.timers.claim(self.core.clock() if now is None else now, limit, owner=self.core.owner,
                                             lease=TIMER_CLAIM_SECONDS)
        return [records.timer(r) for r in rows]

    async def next_timer_due(self) -> float | None:
        """When the next pending timer or daily digest falls due (for the timer loop's sleep)."""
        times = [t for t in (await self.store.timers.next_claimable(self.core.clock(), self.core.owner),
                             await self.store.user_settings.next_digest_due()) if t is not None]
        return min(times) if times else None

    async def mark_timer_fired(self, timer_id: int, rev: int | None = None) -> bool:
        """Claim a timer: True for exactly one caller, ever (across restarts and processes);
        False if it already fired or was cancelled, or (`rev` given) was rescheduled since."""
        tx = self.store.tx()
        tx.timers.fire(timer_id, rev)
        try:
            await self.store.write(tx)
        except WriteConflict:
            return False
        return True

    async def fire_timer(self, timer: Timer) -> str:
        """Act on one due timer, once. A reminder owes the player a mention in the thread; a
        turn limit lets the AI play the turn (and keep the seat after ABSENT_LIMIT turns in a
        row). Returns what happened: "reminded", "played", or "stale" (the turn it was set for
        is over, or the timer already acted)."""
        if timer.kind not in TURN_TIMERS:
            return "stale" if not await self.mark_timer_fired(timer.id, timer.rev) else "fired"
        # The game may move on between loading it and storing the AI's turn (a move in another
        # process): then look again, so that the timer is settled — acted on, moved on or found
        # stale — before this returns, and never handed out to this process a second time.
        for _ in range(FIRE_ATTEMPTS):
            outcome = await self._fire_once(timer)
            if outcome == "played":
                await self.moves.play_bots(timer.game_id)
            if outcome is not None:
                return outcome
        return "stale"

    async def _fire_once(self, timer: Timer) -> str | None:
        """One try of `fire_timer`; None when the game moved on under it (try again)."""
        async with self.core.lock(timer.game_id):
            try:
                loaded = await self.loader.load(timer.game_id)
            except ServiceError:
                await self.mark_timer_fired(timer.id, timer.rev)
                return "stale"
            seat = loaded.seats[timer.seat] if timer.seat is not None and timer.seat < len(loaded.seats) else None
            current = (seat is not None and seat.user_id is not None and seat.stand_in is None
                       and seat.seat in actors(loaded.state) and same_turn(timer.payload, loaded.state)
                       and loaded.row.paused_reason is None)
            if not current or seat is None or seat.user_id is None:
                await self.mark_timer_fired(timer.id, timer.rev)
                return "stale"
            verdict = await self._not_yet(loaded, timer, seat.user_id)
            if verdict is not None:
                return verdict
            if timer.kind == REMINDER:
                limit = next((t.due_at for t in await self.store.timers.pending(loaded.row.id)
                              if t.kind == LIMIT and t.seat == seat.seat), None)
                tx = self.store.tx()
                tx.timers.fire(timer.id, timer.rev)
                tx.deliveries.owe(loaded.row.id, loaded.seq, REMINDER, f"{REMINDER}:{timer.id}", user_id=seat.user_id,
                                  payload_json=canonical_json({"seat": seat.seat, "due_at": limit}))
                try:
                    await self.store.write(tx)
                except WriteConflict:
                    return "stale"
                self.core.deliveries_waiting.set()
                return "reminded"
            misses = seat.absent_turns + 1
            keeps = misses >= ABSENT_LIMIT
            level = stand_in_level(loaded.state)  # the host's choice for absent players
            change = SeatChange(misses, level if keeps else None)
            extras = CommitExtras(timer_id=timer.id, timer_rev=timer.rev, seat_changes={seat.seat: change},
                                  notes=[{"kind": "time_ran_out", "seat": seat.seat, "turns": misses, "keeps": keeps}])
            try:
                await self.moves.bot_turn(loaded, seat, extras, level=level)
            except ServiceError:
                return None  # StaleAction: the timer fired elsewhere or the game moved on: look again
            log.info("game %d: time ran out for seat %d (%d in a row)", timer.game_id, seat.seat, misses)
        return "played"

    async def _not_yet(self, loaded: Loaded, timer: Timer, user_id: int) -> str | None:
        """Whether a due turn timer must wait by its player's own clock: a limit until they had
        their whole turn of running time (their settings may have changed since it was set), a
        reminder until their quiet hours or vacation end (none with a daily digest). Moves the
        timer on and says "moved" (or "stale" for a reminder a digest replaces); None: act now.
        The caller holds the game's lock."""
        start, left = timer.payload.get("from"), timer.payload.get("left")
        if not isinstance(start, int | float) or not isinstance(left, int | float):
            return None  # set before clocks were per player: it acts as it always did
        mine = (await settings_rows(self.store, [user_id]))[user_id]
        if timer.kind == REMINDER and mine.digest_hour is not None:
            await self.mark_timer_fired(timer.id, timer.rev)
            return "stale"
        clock = clock_of(mine, loaded.row.max_away_days)
        now = self.core.clock()
        remaining = float(left) - clock.running(float(start), now)
        if remaining > LIMIT_SLACK:
            due, payload = clock.advance(now, remaining), {**timer.payload, "from": now, "left": remaining}
        elif timer.kind == REMINDER and clock.stopped_at(now):
            due, payload = clock.resumes(now), {**timer.payload, "from": now, "left": 0.0}
        else:
            return None
        tx = self.store.tx()
        tx.timers.fire(timer.id, timer.rev)
        tx.timers.schedule(loaded.row.id, timer.kind, due, seat=timer.seat, payload_json=canonical_json(payload))
        try:
            await self.store.write(tx)
        except WriteConflict:
            return "stale"
        self.core.timers_changed.set()
        return "moved"

    # --- daily digests ------------------------------------------------------------------------

    async def fire_digests(self, now: float | None = None, limit: int = 100) -> int:
        """Send every daily digest that is due: each player's next one is set for tomorrow, and
        if any game waits for them, one DM listing those games is owed — in one transaction,
        guarded, so a digest goes out once (after a restart too, with several processes too).
        Returns how many were owed."""
        now = self.core.clock() if now is None else now
        sent = 0
        for row in await self.store.user_settings.due_digests(now, limit):
            assert row.digest_due is not None
            mine = (await settings_rows(self.store, [row.user_id]))[row.user_id]
            waiting = await self.games_waiting_for(row.user_id)
            # The news of games that ended since the last digest rides with this one.
            news = await held_for_digest(self.store, row.user_id)
            tx = self.store.tx()
            tx.user_settings.advance_digest(row.user_id, row.digest_due,
                                            digest_due(mine, max(now, row.digest_due)) or now + 86400)
            if waiting or news:
                game_id, seq = waiting[0] if waiting else (news[0].game_id, news[0].seq)
                day = local_day(mine.timezone, row.digest_due)
                payload: dict[str, Any] = {"day": day}
                if news:
                    payload["news"] = [d.id for d in news]
                    tx.deliveries.carried([d.id for d in news], f"in the daily digest of {day}")
                tx.deliveries.owe(game_id, seq, DIGEST, f"{DIGEST}:{row.user_id}:{day}", user_id=row.user_id,
                                  payload_json=canonical_json(payload))
            try:
                await self.store.write(tx)
            except WriteConflict:
                continue  # sent by another process meanwhile
            sent += bool(waiting or news)
        if sent:
            self.core.deliveries_waiting.set()
        return sent

    async def games_waiting_for(self, user_id: int) -> list[tuple[int, int]]:
        """(game id, seq) of the games being played that wait for this person now (not while
        the AI holds their seat), most recently active first."""
        pairs = await self.store.games.seats_of_user(user_id, ACTIVE)
        players = await self.store.games.players_of(row.id for row, _ in pairs)
        out = []
        for row, seat in pairs:
            summary = records.summary(row, players[row.id], user_id)
            held = any(p.seat == seat and p.stand_in is not None for p in summary.seats)
            if seat in summary.waiting_for and not held:
                out.append((row.id, row.seq))
        return out

    # --- pause, resume, kick ----------------------------------------------------------------

    async def pause(self, game_id: int, caller: Caller, reason: str = HOST_PAUSE) -> bool:
        """Stop a game's clocks (host or server manager). False if they were stopped already."""
        async with self.core.lock(game_id):
            loaded = await self.managed(game_id, caller)
            if loaded.row.paused_reason is not None:
                return False
            await self._set_paused(loaded, reason)
        return True

    async def resume(self, game_id: int, caller: Caller) -> bool:
        """Start a game's clocks again (host or server manager): each person the game waits for
        gets a full turn from now, and deliveries Discord refused are tried again. False if the
        clocks were running and nothing was waiting to be retried."""
        async with self.core.lock(game_id):
            loaded = await self.managed(game_id, caller)
            failed = await self.store.deliveries.of_game(game_id, "failed")
            if loaded.row.paused_reason is None and not failed:
                return False
            tx = self.store.tx()
            tx.games.set_paused(game_id, None)
            tx.deliveries.retry_failed(game_id)
            infos = await seat_infos(self.store, loaded.seats, loaded.row.max_away_days)
            for t in timers_for_turn(after=loaded.state, waiting=actors(loaded.state), seats=infos, now=tx.now,
                                     turn_hours=loaded.row.turn_hours):
                tx.timers.schedule(game_id, t.kind, t.due_at, seat=t.seat, payload_json=canonical_json(dict(t.payload)))
            await self.store.write(tx)
            await self.loader.refresh(game_id)
        self.core.deliveries_waiting.set()
        self.core.timers_changed.set()
        log.info("game %d: resumed", game_id)
        return True

    async def kick(self, game_id: int, seat: int, caller: Caller, level: str | None = None) -> None:
        """Hand a person's seat to the AI until they come back (host or server manager); the
        AI moves at once if it is their turn. `level`: the AI's level (default: the table's
        stand-in level)."""
        async with self.core.lock(game_id):
            loaded = await self.managed(game_id, caller)
            if not 0 <= seat < len(loaded.seats) or loaded.seats[seat].user_id is None:
                raise ServiceError("That seat is not a person's.", "not_a_person")
            tx = self.store.tx()
            tx.seats.set_absence(game_id, seat, max(ABSENT_LIMIT, loaded.seats[seat].absent_turns),
                                 level or stand_in_level(loaded.state))
            tx.timers.cancel(game_id, kind=REMINDER)
            tx.timers.cancel(game_id, kind=LIMIT)
            tx.deliveries.owe(game_id, loaded.seq, NOTICE, f"kick:{seat}:{loaded.seq}",
                              payload_json=canonical_json({"notice": "stand_in", "seat": seat}))
            await self.store.write(tx)
            await self.loader.refresh(game_id)
        self.core.deliveries_waiting.set()
        log.info("game %d: the AI now plays seat %d", game_id, seat)
        await self.moves.play_bots(game_id)

    async def player_seen(self, game_id: int, user_id: int) -> None:
        """A person used a game command: if the AI was holding their seat or counting their
        absence, it stops (their own next move does the same)."""
        async with self.core.lock(game_id):
            try:
                loaded = await self.loader.load(game_id)
            except ServiceError:
                return
            seat = next((s for s in loaded.seats if s.user_id == user_id), None)
            if seat is None or (not seat.absent_turns and seat.stand_in is None):
                return
            tx = self.store.tx()
            tx.seats.set_absence(game_id, seat.seat, 0, None)
            await self.store.write(tx)
            await self.loader.refresh(game_id)
        log.info("game %d: seat %d is back", game_id, seat.seat)

    async def managed(self, game_id: int, caller: Caller) -> Loaded:
        """The game, if `caller` may manage it (its host, or a manager of its server) and it is
        being played. The caller holds the game's lock."""
        row = await self.store.games.get(game_id)
        if row is None:
            raise GameNotFound(game_id)
        if caller.user_id != row.host_user_id and not caller.manages_server:
            raise ServiceError("Only the game's host or a server manager can do that.", "not_manager")
        if row.status not in ("setup", "playing"):
            raise ServiceError(f"Game #{game_id} is not being played.", "not_playing")
        return await self.loader.load(game_id)

    async def _set_paused(self, loaded: Loaded, reason: str) -> None:
        tx = self.store.tx()
        tx.games.set_paused(loaded.row.id, reason)
        tx.timers.cancel(loaded.row.id, kind=REMINDER)
        tx.timers.cancel(loaded.row.id, kind=LIMIT)
        await self.store.write(tx)
        await self.loader.refresh(loaded.row.id)
        log.info("game %d: paused (%s)", loaded.row.id, reason)
