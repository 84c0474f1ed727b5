"""Moving the games to another database (`python bot.py --copy-db TARGET`): every game is
copied with its ids (store/copy.py), then checked by loading it through a service on each side
— which replays its log from the seed and compares it with its snapshot — and comparing the
two: the same state, the same seq, the same rows. A target that holds any data is refused.

Stop the bot (every process) first: moves made during the copy would be missing from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.errors import ServiceError
from app.limits import Limits
from app.service import GameService
from store import Store
from store.copy import (
    CopyRefused,
    bot_state_rows,
    game_rows,
    rows_in,
    server_rows,
    user_settings_rows,
    write_bot_state,
    write_game,
    write_server_rows,
    write_user_settings,
)
from store.opening import open_store

ALL_STATUSES = ("lobby", "cancelled", "setup", "playing", "over", "broken")
PLAYED = ("setup", "playing", "over")


@dataclass
class CopyReport:
    """What a copy did."""

    source: str
    target: str
    games: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    replayed: int = 0  # games loaded (replayed and checked) on both sides and found equal

    def summary(self) -> str:
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(self.by_status.items()))
        return (f"copied {self.games} games ({statuses or 'none'}; {self.actions} log entries) from {self.source} "
                f"to {self.target}; {self.replayed} played games replayed on both sides and found equal, and "
                "every row compared")


async def copy_database(source: str | Path, target: str | Path, *,
                        progress: Callable[[str], None] = lambda _: None) -> CopyReport:
    """Copy every game of `source` into the empty database `target` and check each one.
    Raises CopyRefused (target not empty, unreadable data, a game that differs after the copy)
    or a DatabaseUnusable subclass (a database that cannot be opened)."""
    if isinstance(source, Path) and not source.exists():
        raise CopyRefused(f"There is no database at {source} to copy (set TTR_DATABASE to the one to copy).")
    source_store = await open_store(source)
    try:
        target_store = await open_store(target, allow_init=True)
        try:
            return await _copy(source_store, target_store, progress)
        finally:
            await target_store.close()
    finally:
        await source_store.close()


async def _copy(source: Store, target: Store, progress: Callable[[str], None]) -> CopyReport:
    report = CopyReport(source.label, target.label)
    if source.label == target.label:
        raise CopyRefused(f"The source and the target are the same database ({source.label}). Nothing was written.")
    held = {table: n for table, n in (await rows_in(target)).items() if n}
    if held:
        shown = ", ".join(f"{table}: {n}" for table, n in held.items())
        raise CopyRefused(
            f"The target {target.label} is not empty ({shown} rows): --copy-db only copies into an empty game "
            "database, so that no game is mixed with or overwrites another. Point it at a new database "
            "(createdb, or a new file), or empty that one yourself if you are sure. Nothing was written."
        )
    game_ids = await source.games.ids(ALL_STATUSES)
    for n, game_id in enumerate(game_ids, start=1):
        await write_game(target, await game_rows(source, game_id))
        if n % 500 == 0:
            progress(f"  {n}/{len(game_ids)} games copied")
    await write_bot_state(target, await bot_state_rows(source))
    await write_user_settings(target, await user_settings_rows(source))
    await write_server_rows(target, await server_rows(source))
    await target.reset_ids()
    progress(f"  {len(game_ids)} games copied; checking each one on both sides …")

    # The check: through the service, as the bot would load them (a replay of each log).
    limits = Limits.unlimited()
    before = GameService(source, limits=limits, cache_size=1)
    after = GameService(target, limits=limits, cache_size=1)
    for n, game_id in enumerate(game_ids, start=1):
        row = await source.games.get(game_id)
        assert row is not None
        report.games += 1
        report.by_status[row.status] = report.by_status.get(row.status, 0) + 1
        mine_rows, theirs_rows = await game_rows(source, game_id), await game_rows(target, game_id)
        if mine_rows != theirs_rows:
            table = next(a.table for a, b in zip(mine_rows, theirs_rows, strict=True) if a != b)
            raise CopyRefused(f"Game #{game_id}'s {table} rows differ after the copy. The target {target.label} "
                              "holds a partial copy: drop it before trying again.")
        report.actions += len(mine_rows[2].rows)
        if row.status in PLAYED:
            # Loading replays the log and checks the snapshot on each side (a repair, should one
            # be needed, happens on both: the log wins).
            mine, theirs = await _state(before, game_id), await _state(after, game_id)
            if mine != theirs:
                raise CopyRefused(f"Game #{game_id} differs after the copy ({_which(mine, theirs)}). The target "
                                  f"{target.label} holds a partial copy: drop it before trying again.")
            report.replayed += mine[0] is not None
        if n % 500 == 0:
            progress(f"  {n}/{len(game_ids)} games checked")
    if await bot_state_rows(source) != await bot_state_rows(target):
        raise CopyRefused("The bot's own state (bot_state) differs after the copy.")
    if await user_settings_rows(source) != await user_settings_rows(target):
        raise CopyRefused("The players' settings (user_settings) differ after the copy.")
    if await server_rows(source) != await server_rows(target):
        raise CopyRefused("The servers' leaderboard seasons or settings differ after the copy.")
    return report


async def _state(service: GameService, game_id: int) -> tuple[str | None, int, str]:
    """(the replayed state as canonical JSON, its seq, "") — or (None, 0, why) when the game
    cannot be loaded (a broken game stays broken on both sides)."""
    try:
        await service.loader.check(game_id)  # its whole log replayed and compared with its snapshot
        loaded = await service.loader.load(game_id)
    except ServiceError as exc:
        return None, 0, exc.code
    state = (loaded.state.to_canonical(), loaded.seq, "")
    service.loader.forget(game_id)
    return state


def _which(mine: tuple[str | None, int, str], theirs: tuple[str | None, int, str]) -> str:
    if mine[2] != theirs[2]:
        return f"it loads as {mine[2] or 'a game'} on the source and as {theirs[2] or 'a game'} on the target"
    if mine[1] != theirs[1]:
        return f"seq {mine[1]} on the source, {theirs[1]} on the target"
    return "its replayed state"
