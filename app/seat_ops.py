"""Seats changing hands without a move: a substitute, and the other players' vote to skip.

**Substitutes.** The host, or a manager of the game's server, may hand any seat of a running
game — a person's, an AI's, or one the AI holds for an absent person — to another person who
has no seat there yet. The seat keeps its cards, tickets and score; the new player gets its
hand privately (a DM through the outbox, or the thread's notice to press **My hand** when their
DMs are closed), its turn clock if it is that seat's turn, and the seat's name. The thread is
told who plays the seat now (no secret in it), and the turn post is edited to mention them.
The previous holder's hand DMs are not sent any more (a DM is drawn for the seat's holder when
it is sent, and dropped for anyone else).

**Vote to skip.** While a person's turn limit is still far off (more than FAR_OFF_SECONDS, or a
quarter of the turn, whichever is less), every other person at the table may vote to hand that
turn to the AI now. Each vote is stored; once every other person who is present (not on
vacation, not held by the AI) has voted, the AI plays that turn exactly as when time runs out
(app/clocks.py: it counts as a turn missed, three in a row and the AI keeps the seat). The
votes are for that one turn: they are cleared when a turn begins. A player on vacation cannot
be voted out: their clock is stopped on purpose.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.availability import away_until, seat_infos, settings_rows
from app.clocks import ClockOps
from app.core import CommitExtras, SeatChange, ServiceCore
from app.errors import NotAPlayer, ServiceError
from app.models import Caller, Seat
from app.moves import MoveOps, stand_in_level
from app.owed import (
    ABSENT_LIMIT,
    DEFAULT_TURN_HOURS,
    DM_CLOSED,
    LIMIT,
    NOTICE,
    POST,
    REMINDER,
    SEAT_DM,
    Owed,
    timers_for_turn,
    turn_key,
)
from engine.game import actors
from engine.state import canonical_json
from engine.undo import renamed
from store import WriteConflict

log = logging.getLogger("app.service")

FAR_OFF_SECONDS = 3600.0  # a vote is refused once the limit is this close (or a quarter turn)
MAX_NAME = 100


@dataclass(frozen=True, slots=True)
class SkipVote:
    """Where a vote to skip stands: whose turn, who voted, who must, and whether the AI played."""

    game_id: int
    seat: int
    name: str
    votes: int
    needed: int
    played: bool


class SeatOps:
    """Substitutes and votes to skip."""

    def __init__(self, core: ServiceCore, moves: MoveOps, clocks: ClockOps) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        self.moves = moves
        self.clocks = clocks

    async def replace(self, game_id: int, seat: int, user_id: int, name: str, caller: Caller) -> Seat:
        """Hand `seat` of a running game to the person `user_id` (named `name`), in place of
        whoever holds it (see the module's docstring). Host or server manager only."""
        name = (name or "").strip()[:MAX_NAME] or "player"
        async with self.core.lock(game_id):
            loaded = await self.clocks.managed(game_id, caller)
            if not 0 <= seat < len(loaded.seats):
                raise ServiceError(f"Game #{game_id} has no seat {seat + 1}.", "no_such_seat")
            if any(s.user_id == user_id for s in loaded.seats):
                raise ServiceError(f"{name} already has a seat in game #{game_id}.", "already_seated")
            old = loaded.seats[seat]
            dm_closed = await self.store.games.dm_closed(user_id)
            names = [s.name for s in loaded.seats]
            names[seat] = name
            state = renamed(loaded.state, names)
            now_seat = Seat(seat, user_id, False, None, name, dm_closed)
            seats = tuple(now_seat if s.seat == seat else s for s in loaded.seats)
            seq = loaded.seq
            tx = self.store.tx()
            tx.seats.hand(game_id, seat, user_id=user_id, name=name, dm_closed=dm_closed)
            tx.plans.drop(game_id, seat)  # the plans were the previous holder's
            tx.log.put_snapshot(game_id, seq, rules_version=state.rules_version, state_json=state.to_canonical())
            for kind in (REMINDER, LIMIT):  # the previous holder's clock, if it was their turn
                tx.timers.cancel(game_id, kind=kind, seat=seat, any_seat=False)
            waiting = actors(state)
            if seat in waiting and loaded.row.paused_reason is None:
                infos = await seat_infos(self.store, seats, loaded.row.max_away_days)
                for t in timers_for_turn(after=state, waiting=[seat], seats=infos, now=tx.now,
                                         turn_hours=loaded.row.turn_hours):
                    tx.timers.schedule(game_id, t.kind, t.due_at, seat=t.seat,
                                       payload_json=canonical_json(dict(t.payload)))
            if dm_closed:
                tx.deliveries.owe(game_id, seq, DM_CLOSED, f"{DM_CLOSED}:{user_id}", user_id=user_id)
            else:
                tx.deliveries.owe(game_id, seq, SEAT_DM, f"{SEAT_DM}:{seq}:{seat}:{user_id}", user_id=user_id,
                                  payload_json=canonical_json({"seat": seat, "seq": seq}))
            tx.deliveries.owe(game_id, seq, NOTICE, f"replace:{seq}:{seat}:{user_id}", user_id=user_id,
                              payload_json=canonical_json({"notice": "replaced", "seat": seat, "was_ai": old.is_ai,
                                                           "was_user": old.user_id,
                                                           "stand_in": old.stand_in is not None}))
            tx.deliveries.owe(game_id, seq, POST, f"{POST}:seat:{seq}:{seat}:{user_id}",
                              payload_json=canonical_json({"new_turn": False}))
            try:
                await self.store.write(tx)
            except WriteConflict as exc:
                self.loader.forget(game_id)
                raise ServiceError(f"{name} already has a seat in game #{game_id}.", "already_seated") from exc
            loaded.state = state
            await self.loader.refresh(game_id)
        self.core.deliveries_waiting.set()
        self.core.timers_changed.set()
        log.info("game %d: seat %d handed to another player", game_id, seat)
        return now_seat

    async def vote_skip(self, game_id: int, voter: int, seat: int | None = None) -> SkipVote:
        """`voter` votes to hand `seat`'s turn (None: the one person the game waits for) to
        the AI now (see the module's docstring). Refusals are ServiceErrors, one sentence."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            mine = next((s for s in loaded.seats if s.user_id == voter), None)
            if mine is None:
                raise NotAPlayer(game_id)
            if loaded.row.paused_reason is not None:
                raise ServiceError(f"Game #{game_id} is paused: its clocks are stopped.", "paused")
            waiting = actors(loaded.state)
            people = [s for s in loaded.seats if s.seat in waiting and s.user_id is not None and s.stand_in is None]
            if seat is None:
                others = [s for s in people if s.seat != mine.seat]
                if not others and mine.seat in waiting:
                    raise ServiceError("That is your own turn: play it, or wait for the AI.", "own_turn")
                if len(others) != 1:
                    raise ServiceError("Name the player whose turn you vote to skip." if others else
                                       "The game is not waiting for another player.", "whose_turn")
                seat = others[0].seat
            target = next((s for s in people if s.seat == seat), None)
            if target is None or target.user_id is None:
                raise ServiceError("The game is not waiting for that player.", "not_waiting")
            if target.seat == mine.seat:
                raise ServiceError("That is your own turn: play it, or wait for the AI.", "own_turn")
            now = self.core.clock()
            mine_settings = await settings_rows(self.store, (s.user_id for s in loaded.seats))
            until = away_until(mine_settings[target.user_id], loaded.row.max_away_days, now)
            if until is not None:
                raise ServiceError(f"{target.name} is away until <t:{int(until)}:f>: their clock is stopped.",
                                   "away")
            limit = next((t.due_at for t in await self.store.timers.pending(game_id)
                          if t.kind == LIMIT and t.seat == target.seat), None)
            turn = (loaded.row.turn_hours or DEFAULT_TURN_HOURS) * 3600
            if limit is None or limit - now <= min(FAR_OFF_SECONDS, turn / 4):
                raise ServiceError(f"{target.name}'s time runs out soon anyway"
                                   + (f" (<t:{int(limit)}:R>)." if limit is not None else "."), "soon")
            needed = {s.user_id for s in loaded.seats
                      if s.user_id is not None and s.seat != target.seat and s.stand_in is None
                      and away_until(mine_settings[s.user_id], loaded.row.max_away_days, now) is None}
            needed.add(voter)
            key = canonical_json(turn_key(loaded.state))
            votes = set(await self.store.seats.skip_votes(game_id, target.seat, key)) | {voter}
            if not needed <= votes:
                tx = self.store.tx()
                tx.seats.add_skip_vote(game_id, target.seat, voter, key)
                tx.deliveries.owe(game_id, loaded.seq, NOTICE, f"vote:{loaded.seq}:{target.seat}:{voter}",
                                  user_id=voter, payload_json=canonical_json({
                                      "notice": "vote", "seat": target.seat, "votes": len(votes),
                                      "needed": len(needed)}))
                await self.store.write(tx)
                loaded.votes = True  # the next turn's start clears them (app/core.py)
                self.core.deliveries_waiting.set()
                return SkipVote(game_id, target.seat, target.name, len(votes), len(needed), False)
            misses = target.absent_turns + 1
            keeps = misses >= ABSENT_LIMIT
            outcome = Owed(NOTICE, f"skipped:{loaded.seq}:{target.seat}",
                           payload={"notice": "skipped", "seat": target.seat, "votes": len(votes), "keeps": keeps})
            level = stand_in_level(loaded.state)  # the host's choice for absent players
            extras = CommitExtras(seat_changes={target.seat: SeatChange(misses, level if keeps else None)},
                                  owed=[outcome])
            await self.moves.bot_turn(loaded, target, extras, level=level)
        log.info("game %d: the others voted; the AI played seat %d's turn", game_id, target.seat)
        await self.moves.play_bots(game_id)
        return SkipVote(game_id, target.seat, target.name, len(votes), len(needed), True)
