"""What the loader hands out: a game as it is held in memory (`Loaded`), what the loader did
(`LoaderStats`), and the service's view of a stored seat."""

from __future__ import annotations

from dataclasses import dataclass

from app.errors import GameBroken, GameNotFound, ServiceError
from app.models import Seat
from engine.state import GameState
from store import GameRow, PlayerRow


@dataclass(slots=True)
class Loaded:
    """A game in the cache: its row, its seats, and its state after action `seq`.

    `snapshot_seq`: the entry the stored snapshot is at (a reload starts there). `verified`:
    whether the state descends from a full replay of the log (or a snapshot checked against
    one, or the deal itself); a state loaded from a snapshot not known good is not, until the
    background check has run. `votes`: whether votes to skip a turn may be stored for the
    game (app/core.py clears them when a turn begins only then): True unless this process
    cleared them all since and cast none (a new game has none).

    `turn_timers`: the game's pending reminders and limits as this process last wrote them
    (kind, seat, due time, payload JSON; app/core.py), good while the store's
    `timers_stamp` for the game is still `timers_stamp`; None: not known (read them)."""

    row: GameRow
    seats: tuple[Seat, ...]
    state: GameState
    seq: int
    snapshot_seq: int = 0
    verified: bool = True
    votes: bool = True
    turn_timers: tuple[tuple[str, int, float, str], ...] | None = None
    timers_stamp: tuple[int, int] | None = None
    version: int | None = None


@dataclass(slots=True)
class LoaderStats:
    """What the loader did (for tests and the benchmark)."""

    from_snapshot: int = 0  # loads from a snapshot and the entries after it
    full_replays: int = 0  # loads that replayed the whole log
    checked: int = 0  # snapshots checked in the background
    check_failures: int = 0  # of which differed from the log, or found it damaged
    row_reads: int = 0  # checks of a cached game that read its row and seats again (PostgreSQL)


def playable(game_id: int, row: GameRow | None) -> GameRow:
    """The game's row, if the game can be loaded; else the error to show."""
    if row is None:
        raise GameNotFound(game_id)
    if row.status == "broken":
        raise GameBroken(game_id, row.broken_reason or "its stored data could not be read.")
    if row.status == "lobby":
        raise ServiceError(f"Game #{game_id} has not started yet.", "not_started")
    if row.status == "cancelled":
        raise ServiceError(f"Game #{game_id} was closed before it started.", "cancelled")
    return row


def seat_of_row(p: PlayerRow) -> Seat:
    """The service's view of a stored seat."""
    return Seat(p.seat, p.user_id, p.is_ai, p.ai_level, p.name, p.dm_closed, p.absent_turns, p.stand_in)
