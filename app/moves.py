"""Moves: a player's, and the bot's for computer seats and for absent players.

`submit` plays one move of a person, checked against the `expected_seq` they saw, so a double
click or an old button gets StaleAction ("that already happened") and changes nothing. A
person who moves is back: if the AI was holding their seat, it lets go in the same commit.
`play_bots` then lets every seat the bot plays (an AI, or an AI standing in for an absent
player) take its turn, each turn one commit, until a person must act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.levels import AI_LEVELS, decision_seed, make_ai
from app import records
from app.core import CommitExtras, Move, SeatChange, ServiceCore
from app.errors import NotAPlayer, ServiceError, StaleAction
from app.loaded import Loaded
from app.models import Actor, Seat, SubmitResult
from app.owed import turn_began
from app.tutorial_moves import check_tutorial_move
from engine.actions import Action
from engine.game import actors, apply
from engine.game import legal_actions as legal_for
from engine.game import view as view_for

# A bot turn is at most this many decisions (a turn has a handful; this only stops a bug).
MAX_TURN_DECISIONS = 50
# `play_bots` plays at most this many turns in a row (an all-AI game ends well within it).
MAX_BOT_TURNS = 5000
DEFAULT_STAND_IN = "greedy"


def stand_in_level(state: Any) -> str:
    """The AI level that plays for absent players: the host's choice (the table option
    "stand_in_level"), or the default."""
    level = state.options.get("stand_in_level")
    return level if isinstance(level, str) and level in AI_LEVELS else DEFAULT_STAND_IN


class MoveOps:
    """Playing moves."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def submit(self, game_id: int, actor: Actor, action: Action | Mapping[str, Any],
                     expected_seq: int) -> SubmitResult:
        """Apply one move of a person, durably, with what it owes the players.

        `expected_seq` is the seq the player saw (put it in the button). If the game has moved
        on, StaleAction ("that already happened") and nothing is applied. An illegal move
        raises the engine's IllegalAction."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            if expected_seq != loaded.seq:
                raise StaleAction(game_id, loaded.seq)
            seat = self._seat_for(loaded, actor)
            move = records.bind(action, seat)
            await check_tutorial_move(self.store, loaded, seat, move)  # a guided game's step
            after, events = apply(loaded.state, move)
            extras = CommitExtras(seat_changes=_back(loaded.seats[seat]))
            return await self.core.commit(loaded, [Move(seat, actor.user_id, move, events)], after, extras)

    async def play_ai(self, game_id: int, expected_seq: int) -> SubmitResult | None:
        """Let one seat the bot plays make one decision; None when the game does not wait for
        one. (`play_bots` plays whole turns; this is the single step, for tests of races.)"""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            if expected_seq != loaded.seq:
                raise StaleAction(game_id, loaded.seq)
            seat = _bot_seat(loaded)
            if seat is None:
                return None
            move = _choose(loaded.state, seat)
            after, events = apply(loaded.state, move)
            return await self.core.commit(loaded, [Move(seat.seat, None, move, events)], after)

    async def play_bots(self, game_id: int) -> list[SubmitResult]:
        """Let every seat the bot plays take its turn, one commit per turn, until the game waits
        for a person (or ends). Returns what each turn did."""
        done: list[SubmitResult] = []
        while len(done) < MAX_BOT_TURNS:
            async with self.core.lock(game_id):
                loaded = await self.loader.load(game_id)
                seat = _bot_seat(loaded)
                if seat is None:
                    break
                done.append(await self.bot_turn(loaded, seat, CommitExtras()))
        return done

    async def bot_turn(self, loaded: Loaded, seat: Seat, extras: CommitExtras, level: str | None = None
                        ) -> SubmitResult:
        """The bot plays `seat`'s whole turn (until the seat no longer waits, or a new turn
        begins) and stores it as one commit. The caller holds the game's lock (the clocks and
        the vote to skip play a turn this way)."""
        state = loaded.state
        moves: list[Move] = []
        for _ in range(MAX_TURN_DECISIONS):
            if state.status == "over" or seat.seat not in actors(state):
                break
            move = _choose(state, seat, level)
            state, events = apply(state, move)
            moves.append(Move(seat.seat, None, move, events))
            if turn_began(events):
                break
        if not moves:
            raise ServiceError(f"Seat {seat.seat} has nothing to play.", "nothing_to_play")
        return await self.core.commit(loaded, moves, state, extras)

    def _seat_for(self, loaded: Loaded, actor: Actor) -> int:
        game_id = loaded.row.id
        if actor.user_id is not None:
            for s in loaded.seats:
                if s.user_id == actor.user_id:
                    return s.seat
            raise NotAPlayer(game_id)
        if actor.seat is None or not 0 <= actor.seat < len(loaded.seats):
            raise NotAPlayer(game_id)
        if not loaded.seats[actor.seat].bot_plays:
            raise ServiceError("The bot only moves for computer players, or for a player whose time ran out.",
                               "not_ai")
        return actor.seat


def _bot_seat(loaded: Loaded) -> Seat | None:
    """A seat the game waits for that the bot plays, if any."""
    if loaded.state.status == "over":
        return None
    waiting = actors(loaded.state)
    return next((s for s in loaded.seats if s.seat in waiting and s.bot_plays), None)


def _choose(state: Any, seat: Seat, level: str | None = None) -> Action:
    # A fresh seed per decision, derived from the game's seed and the moment: an AI keeps no
    # memory between moves, so a restart cannot change how it plays, and the same game always
    # gets the same moves.
    ai = make_ai(level or seat.ai_level or seat.stand_in or stand_in_level(state), decision_seed(state, seat.seat))
    return ai.choose(view_for(state, seat.seat), legal_for(state, seat.seat))


def _back(seat: Seat) -> dict[int, SeatChange]:
    """A person who acts is back: the AI stops counting their absence and lets go of the seat."""
    if seat.absent_turns or seat.stand_in is not None:
        return {seat.seat: SeatChange(0, None)}
    return {}
