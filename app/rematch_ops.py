"""Rematch (issue 27): the players of a finished game ask for the same table again.

Each human player presses **Rematch** under the final post; each press is stored
(`rematch_votes`, migration 15), so a restart loses none. When the last of them presses, the
same transaction opens the new table (`rematches` links it, and refuses a second one): the same
board, options (a lesson's rematch without the lesson), turn limit and vacations, the same seats
in the same order (computer seats with their levels), the same host, and as first player the
seat after the one that started the finished game — Alsace's rule A26 ("subsequently you take it
in turn, clockwise, to start"), which the other rule sets do not contradict, so every table
follows it. The seed is new: it is drawn when the table starts (app/lobby_ops.py). The bot then
gives the table its lobby message and thread and starts it (bot_app/adapter/rematch.py).

Refusals are one plain sentence (ServiceError): not a player, the game not over, pressing
twice, a rematch already opened.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from app.core import ServiceCore
from app.errors import NotAPlayer, ServiceError
from app.tutorial import TUTORIAL
from engine.state import canonical_json
from store import WriteConflict

log = logging.getLogger("app.service")


@dataclass(frozen=True, slots=True)
class RematchPress:
    """Where a game's rematch stands after a press: who pressed and who has not yet (names),
    and the new table once everyone has (`opened_now`: by this press)."""

    game_id: int
    pressed: tuple[str, ...]
    waiting: tuple[str, ...]
    new_game_id: int | None = None
    opened_now: bool = False


def next_first_player(first_player: int | None, players: int) -> int:
    """Who starts the rematch: the seat after the finished game's first player (A26)."""
    return ((first_player or 0) + 1) % players


def rematch_options(options: dict[str, object], first_player: int | None, players: int) -> dict[str, object]:
    """The new table's options: the finished game's, with the next first player (A26). The
    rematch of a lesson is a game: the same board and opponent, hints still on, no lesson steps
    (a lesson's situations need its own deal, and the new seed is random)."""
    out = {k: v for k, v in options.items() if k != TUTORIAL}
    out["first_player"] = next_first_player(first_player, players)
    return out


class RematchOps:
    """Asking for a rematch, and opening it when every human player has."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader

    async def rematch_of(self, game_id: int) -> int | None:
        """The table opened as `game_id`'s rematch (None: none yet)."""
        return await self.store.rematches.of(game_id)

    async def press_rematch(self, game_id: int, user_id: int) -> RematchPress:
        """`user_id` presses Rematch under game `game_id`. When that makes every human player,
        the new table opens in the same transaction (see the module's docstring)."""
        async with self.core.lock(game_id):
            loaded = await self.loader.load(game_id)
            row, seats = loaded.row, loaded.seats
            mine = next((s for s in seats if s.user_id == user_id), None)
            if mine is None:
                raise NotAPlayer(game_id)
            if loaded.state.status != "over":
                raise ServiceError(f"Game #{game_id} is not over yet: a rematch is for a finished game.",
                                   "not_over")
            already = await self.store.rematches.of(game_id)
            if already is not None:
                raise ServiceError(f"Game #{game_id} already has its rematch: game #{already}.", "rematch_opened")
            pressed = await self.store.rematches.votes(game_id)
            if user_id in pressed:
                raise ServiceError("You already asked for a rematch; it opens when everyone at the table has.",
                                   "rematch_twice")
            pressed = [*pressed, user_id]
            humans = [s for s in seats if s.user_id is not None]
            waiting = tuple(s.name for s in humans if s.user_id not in pressed)
            names = tuple(s.name for s in humans if s.user_id in pressed)
            tx = self.store.tx()
            tx.rematches.add_vote(game_id, user_id)
            index = None
            if not waiting:
                options = rematch_options(json.loads(row.options_json), loaded.state.first_player, len(seats))
                index = tx.games.create(guild_id=row.guild_id, channel_id=row.channel_id,
                                        host_user_id=row.host_user_id, variant=row.variant,
                                        options_json=canonical_json(options), seats_wanted=len(seats),
                                        turn_hours=row.turn_hours, max_away_days=row.max_away_days)
                for s in seats:
                    tx.games.join_lobby(None, user_id=s.user_id, is_ai=s.is_ai, ai_level=s.ai_level, name=s.name,
                                        seats_wanted=len(seats))
                tx.rematches.link(game_id)
            try:
                done = await self.store.write(tx)
            except WriteConflict as exc:
                raise ServiceError("A rematch of this game was opened meanwhile.", "rematch_opened") from exc
        if index is None:
            return RematchPress(game_id, names, waiting)
        new_game_id = done.lastrowids[index]
        assert new_game_id is not None
        log.info("game %d: rematch opened as game %d", game_id, new_game_id)
        return RematchPress(game_id, names, waiting, new_game_id, opened_now=True)
