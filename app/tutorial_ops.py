"""Tutorials and hints, as the service offers them.

A tutorial is an ordinary stored game: a table for the player and one computer opponent,
opened with the table options `tutorial` (the lesson) and `hints` (on), dealt from the
lesson's seed so its situations come up, and unrated (app.core stores no result for it).
Where the player stands is folded from the log (app.tutorial), and each step's text is a
notice owed with the move that reached it, so nothing of a tutorial lives in memory.

A hint is the normal AI's move from the player's own view, with one line of why (ai.hints);
it is refused at a table whose `hints` option is off.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ai.hints import Hint, hint
from ai.levels import decision_seed
from app import tutorial
from app.core import OPEN, ServiceCore
from app.errors import LobbyError, NotAPlayer, ServiceError
from app.lobby_ops import LobbyOps
from app.models import Lobby, SubmitResult
from app.tutorial_moves import own_moves, player_seat
from engine.game import actors, legal_actions
from engine.game import view as view_for
from engine.maps import load_map
from engine.view import View

# A tutorial waits for its one player as long as a table may (no AI takes their turn).
TUTORIAL_TURN_HOURS = 720.0


@dataclass(frozen=True)
class TutorialPlace:
    """A tutorial game and the step its player is at (None once the lesson is done)."""

    game_id: int
    thread_id: int | None
    status: str
    lesson: tutorial.Lesson
    step: int


@dataclass(frozen=True)
class HintAnswer:
    """A hint, with the player's view to say it in."""

    view: View
    hint: Hint


class TutorialOps:
    """Opening and resuming tutorials, checking their moves, and hints."""

    def __init__(self, core: ServiceCore, tables: LobbyOps) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        self.tables = tables

    async def open_tutorial(self, guild_id: int, channel_id: int, user_id: int, name: str, lesson_id: str,
                            language: str = tutorial.ENGLISH) -> Lobby:
        """A tutorial's table: the player and the lesson's computer opponent, not started yet
        (the bot first makes its thread, then calls `start_tutorial`); played in `language`
        (the player's: its thread is theirs alone)."""
        lesson = tutorial.lessons().get(lesson_id)
        if lesson is None:
            raise LobbyError(f"There is no lesson for {lesson_id[:20]!r}; choose one of "
                             f"{', '.join(tutorial.lessons())}.", "no_lesson")
        options = {**lesson.options, tutorial.TUTORIAL: lesson.id, tutorial.HINTS: True, tutorial.LANGUAGE: language}
        lobby: Lobby = await self.tables.create_lobby(guild_id, channel_id, user_id, name, lesson.variant, options,
                                        seats_wanted=2, turn_hours=TUTORIAL_TURN_HOURS, max_away_days=0)
        if lobby.changed:
            lobby = await self.tables.add_ai(lobby.game_id, user_id, lesson.opponent, 1)
        return lobby

    async def start_tutorial(self, game_id: int, user_id: int) -> SubmitResult:
        """Deal a tutorial from its lesson's seed (the same deal every time)."""
        row = await self.store.games.get(game_id)
        lesson = tutorial.lesson_of(json.loads(row.options_json)) if row is not None else None
        if lesson is None:
            raise LobbyError("That table is not a tutorial.", "not_tutorial")
        result: SubmitResult = await self.tables.start(game_id, user_id, seed=lesson.seed)
        return result

    async def tutorial_of(self, guild_id: int | None, user_id: int) -> TutorialPlace | None:
        """The player's unfinished tutorial on this server, and their step in it (None: none)."""
        for row, _seat in await self.store.games.seats_of_user(user_id, OPEN, guild_id):
            lesson = tutorial.lesson_of(json.loads(row.options_json))
            if lesson is None:
                continue
            step = 0
            if row.status != "lobby":
                async with self.core.lock(row.id):
                    loaded = await self.loader.load(row.id)
                seat = player_seat(loaded)
                mine = await own_moves(self.store, loaded, seat) if seat is not None else []
                step = tutorial.progress(lesson, mine, load_map(loaded.state.map_id))
            return TutorialPlace(row.id, row.thread_id, row.status, lesson, step)
        return None

    async def tutorial_step(self, game_id: int) -> tuple[tutorial.Lesson, int] | None:
        """A tutorial's lesson and the step its player is at (None: not a tutorial)."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
        lesson = tutorial.lesson_of(loaded.state.options)
        seat = player_seat(loaded)
        if lesson is None or seat is None:
            return None
        mine = await own_moves(self.store, loaded, seat)
        return lesson, tutorial.progress(lesson, mine, load_map(loaded.state.map_id))

    async def hint(self, game_id: int, user_id: int) -> HintAnswer:
        """What the normal AI would do in the caller's place now, and why — from their own
        view only. Refused where the table gives no hints, or when it is not their move."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = next((s.seat for s in loaded.seats if s.user_id == user_id), None)
            if seat is None:
                raise NotAPlayer(game_id)
            state = loaded.state
            if not state.options.get(tutorial.HINTS):
                raise ServiceError("This table gives no hints: the host opened it without them.", "no_hints")
            if state.status == "over":
                raise ServiceError("The game is over; there is nothing left to play.", "game_over")
            if seat not in actors(state):
                raise ServiceError("A hint is for your own move, and the game is not waiting for you now.",
                                   "not_your_turn")
            own = view_for(state, seat)
            legal = legal_actions(state, seat)
            seed = decision_seed(state, seat)
        return HintAnswer(own, hint(own, legal, seed))
