"""A finished game's replay, as the table saw it: the public timeline rebuilt from the stored
seed and actions (`engine.timeline.public_timeline`).

The seed and the actions stay here; what leaves is one public view per move shown (no hand,
no ticket, no deck). The replay is rebuilt in a worker thread, off the event loop. A game
played under older rules cannot be replayed by this engine (its log may mean something else
now): it has no replay, and asking for one gets a sentence saying so.
"""

from __future__ import annotations

import asyncio
import json
import logging

from app.core import ServiceCore
from app.errors import ServiceError
from app.loaded import Loaded
from engine.state import RULES_VERSION
from engine.timeline import TimelineStep, public_timeline
from store import Store

log = logging.getLogger("app.service")


async def timeline_of(store: Store, loaded: Loaded) -> tuple[TimelineStep, ...]:
    """The public timeline of a loaded, finished game (replayed in a worker thread)."""
    seed = _rebuildable(loaded)
    row = loaded.row
    rows = await store.log.actions(row.id)
    actions = [json.loads(r.action_json) for r in rows[1:]]
    options = json.loads(row.options_json)
    names = [s.name for s in loaded.seats]
    steps = await asyncio.to_thread(public_timeline, row.variant, len(names), seed, actions, options, names)
    return tuple(steps)


async def final_timeline(store: Store, loaded: Loaded) -> tuple[TimelineStep, ...]:
    """The timeline for the final post; empty (the post goes without its replay) when it
    cannot be rebuilt."""
    try:
        return await timeline_of(store, loaded)
    except ServiceError:
        return ()
    except Exception:  # a replay must never keep the final scores from the thread
        log.exception("game %d: its replay could not be rebuilt", loaded.row.id)
        return ()


class ReplayOps:
    """Replays of finished games."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def check_replay(self, game_id: int) -> None:
        """Refuse, in a sentence, the replay of a game still being played or played under older
        rules (cheap: before anything is drawn or said in public)."""
        async with self.core.lock(game_id):
            _replayable(await self.loader.load(game_id))

    async def replay_timeline(self, game_id: int) -> tuple[TimelineStep, ...]:
        """The public pictures of a finished game, one per claim or station (for `/ttr
        replay`). The caller checks that the game may be reached from where it is asked
        (`game_for`). A game still being played, or one from older rules, is refused in a
        sentence."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            _replayable(loaded)
            return await timeline_of(self.store, loaded)


def _replayable(loaded: Loaded) -> None:
    if loaded.state.status != "over":
        raise ServiceError(f"Game #{loaded.row.id} is not over yet: its replay is posted when it ends.", "not_over")
    _rebuildable(loaded)


def _rebuildable(loaded: Loaded) -> int:
    """The game's seed, when this engine can replay its log."""
    row = loaded.row
    if row.rules_version != RULES_VERSION or row.seed is None:
        raise ServiceError(f"Game #{row.id} was played under older rules; its replay cannot be rebuilt.",
                           "old_rules")
    return row.seed
