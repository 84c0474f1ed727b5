"""A tutorial's moves: where its player stands (folded from the log), the move that does not
fit their step (refused before it is applied), and the notices a commit owes (app.core).
Kept apart from app.tutorial_ops so that the commit can use it without the service's parts."""

from __future__ import annotations

import json
from collections.abc import Sequence

from app import tutorial
from app.errors import ServiceError
from app.loaded import Loaded
from app.owed import Owed
from engine.actions import Action, action_from_json
from engine.game import legal_actions
from engine.maps import load_map
from engine.state import GameState
from store import Store


async def own_moves(store: Store, loaded: Loaded, seat: int) -> list[Action]:
    """The moves the player at `seat` made themselves, in order (the AI's for them not)."""
    rows = await store.log.actions(loaded.row.id)
    return [action_from_json(json.loads(r.action_json)) for r in rows
            if r.seq > 0 and r.actor == seat and r.user_id is not None]


def player_seat(loaded: Loaded) -> int | None:
    """The seat of the tutorial's one person."""
    return next((s.seat for s in loaded.seats if s.user_id is not None), None)


async def tutorial_owed(store: Store, loaded: Loaded, new_moves: Sequence[tuple[int, int | None, Action]],
                        after: GameState) -> list[Owed]:
    """The tutorial notices a commit owes: the step its player's moves reached, the finale at
    the end. `new_moves`: the commit's (seat, user, action); `loaded` is the game before."""
    lesson = tutorial.lesson_of(after.options)
    seat = player_seat(loaded)
    if lesson is None or seat is None:
        return []
    game_map = load_map(after.map_id)
    mine = [a for s, u, a in new_moves if s == seat and u is not None]
    if not mine and after.status != "over":
        return []
    earlier = await own_moves(store, loaded, seat)
    before = tutorial.progress(lesson, earlier, game_map)
    now = tutorial.progress(lesson, [*earlier, *mine], game_map)
    return [Owed(tutorial.NOTICE_KIND, key, None, payload)
            for key, payload in tutorial.notes_between(lesson, before, now, after.status == "over")]


async def check_tutorial_move(store: Store, loaded: Loaded, seat: int, action: Action) -> None:
    """Refuse, in one kind sentence, a move that does not fit the tutorial's step (while one
    that fits is legal); nothing is changed."""
    lesson = tutorial.lesson_of(loaded.state.options)
    if lesson is None or seat != player_seat(loaded):
        return
    game_map = load_map(loaded.state.map_id)
    index = tutorial.progress(lesson, await own_moves(store, loaded, seat), game_map)
    why = tutorial.wrong_move(lesson, index, action, legal_actions(loaded.state, seat), game_map)
    if why is not None:
        raise ServiceError(why, "tutorial_step")


def tutorial_opening(state: GameState) -> list[Owed]:
    """The notices a tutorial's start owes: its first step (and any to read before it)."""
    lesson = tutorial.lesson_of(state.options)
    if lesson is None:
        return []
    first = tutorial.progress(lesson, [], load_map(state.map_id))
    return [Owed(tutorial.NOTICE_KIND, key, None, payload)
            for key, payload in tutorial.notes_between(lesson, -1, first, False)]
