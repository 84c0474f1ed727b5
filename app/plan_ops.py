"""A player's planned moves (issue 29), as the bot reads and changes them: view, set, cancel.

A plan is for the seat's next turn (and, where the table allows it — the table option
`plans_ahead`, 2 — the one after). It may be set, changed or cancelled at any time until that
turn arrives, also while it is the player's turn now (it is then for their next one); the
service runs it when the turn arrives (app/plan_runs.py). Setting one takes the game's lock,
so it cannot cross the commit that would run it: the commit sees the plan as it stands then,
whole. A plan is private: it is read only by its own player, and no log line holds it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from app.core import ACTIVE, ServiceCore
from app.errors import NotAPlayer, ServiceError
from app.loaded import Loaded
from app.plans import PlanBook, PlanError
from app.plans.run import check_plan
from engine.actions import ClaimRoute
from engine.core import Turn
from engine.game import legal_actions_of
from engine.state import canonical_json

PLANS_AHEAD = "plans_ahead"  # the table option: how many turns a player may plan (1 or 2)


def plans_allowed(options: Mapping[str, Any]) -> int:
    """How many turns ahead a player may plan at a table with these options."""
    return 2 if options.get(PLANS_AHEAD) == 2 else 1


class PlanOps:
    """Reading and changing a player's own plans."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def plans_of(self, game_id: int, user_id: int) -> PlanBook:
        """`user_id`'s plans in the game (an empty book when none waits)."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = _seat(loaded, user_id)
            rows = await self.store.plans.get(game_id, seat)
        if not rows or rows[0].user_id != user_id:
            return PlanBook()
        try:
            return PlanBook.from_json(json.loads(rows[0].plans))
        except (PlanError, ValueError):
            return PlanBook()

    async def set_plans(self, game_id: int, user_id: int, plans: PlanBook | Sequence[Any]) -> PlanBook:
        """Store `user_id`'s plans (a book, or its JSON), replacing any they had. PlanError, in
        one sentence, when a plan cannot mean anything in this game or goes further ahead
        than the table allows; nothing is changed then."""
        book = plans if isinstance(plans, PlanBook) else PlanBook.from_json(plans)
        if not book.plans:
            raise PlanError("That plan is empty; to have none, cancel it.")
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = _seat(loaded, user_id)
            allowed = plans_allowed(loaded.state.options)
            if len(book.plans) > allowed:
                raise PlanError("This table lets players plan one turn ahead only." if allowed == 1 else
                                f"This table lets players plan {allowed} turns ahead at most.")
            check_plan(book, loaded.state, seat)
            tx = self.store.tx()
            tx.plans.put(game_id, seat, user_id, canonical_json(book.to_json()))
            await self.store.write(tx)
        return book

    async def plan_claims(self, game_id: int, user_id: int) -> list[ClaimRoute]:
        """The claims `user_id` could pay for with their hand as it is now, were it their turn
        (what a plan may offer them to claim; none with the Dice Expansion, whose dice are
        rolled when the turn comes). Only their own hand and the board decide it."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = _seat(loaded, user_id)
            state = loaded.state
            if state.status != "playing" or state.options.get("dice"):
                return []
            what_if = state.clone()
            what_if.current, what_if.pending = seat, Turn().to_pending()
            return legal_actions_of(what_if, seat, ClaimRoute)

    async def cancel_plans(self, game_id: int, user_id: int) -> bool:
        """Forget `user_id`'s plans in the game; False when they had none."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            seat = _seat(loaded, user_id)
            had = bool(await self.store.plans.get(game_id, seat))
            if had:
                tx = self.store.tx()
                tx.plans.drop(game_id, seat)
                await self.store.write(tx)
        return had


def _seat(loaded: Loaded, user_id: int) -> int:
    """The caller's seat in a running game; NotAPlayer or a sentence otherwise."""
    seat = next((s.seat for s in loaded.seats if s.user_id == user_id), None)
    if seat is None:
        raise NotAPlayer(loaded.row.id)
    if loaded.row.status not in ACTIVE:
        raise ServiceError(f"Game #{loaded.row.id} is not being played: there is no turn to plan.", "not_playing")
    return seat
