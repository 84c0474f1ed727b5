"""Crash safety: a process that plays moves through the service is killed with SIGKILL at
random moments, again and again. After each kill, every move it reported as done is in the
log exactly once, and a replay of every log equals its snapshot. On SQLite (the file and its
-wal are left as the kill left them) and on PostgreSQL (the server sees its client vanish in
the middle of transactions)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
import time
from pathlib import Path

import pytest

from app import GameService, Limits
from engine.game import apply, new_game
from tests.databases import Database
from tests.fork_server import ForkServer

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().parents[1] / "store_child.py"
KILLS = 30  # kills per back end at random moments (more: bench-like depth, not the suite's)


def wait_for_killed_sessions(db: Database) -> None:
    """On PostgreSQL, a killed client's server sessions may still be finishing a COMMIT it had
    sent: wait until they are gone, so that the check reads one settled database rather than
    the log before that commit and the games after it."""
    if not db.is_postgres:
        return
    deadline = time.monotonic() + 30
    while db.fetch("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                   " AND pid <> pg_backend_pid()"):
        assert time.monotonic() < deadline, "the killed child's database sessions did not end"
        time.sleep(0.05)


def state_difference(stored: object, replayed: object, path: str = "") -> str:
    """Where two states first part, as a path and both values (shortened): a CI failure then
    says what differs without a rerun."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed)):
            if stored.get(key) != replayed.get(key):
                return state_difference(stored.get(key), replayed.get(key), f"{path}.{key}")
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            if a != b:
                return state_difference(a, b, f"{path}[{i}]")
    if isinstance(stored, str) and isinstance(replayed, str) and stored.startswith("{"):
        try:
            return state_difference(json.loads(stored), json.loads(replayed), f"{path}(json)")
        except ValueError:
            pass
    return f"at {path or 'the top'}: stored {str(stored)[:300]!r}, replayed {str(replayed)[:300]!r}"


class Checked:
    """The games found right at the last checks, each with everything its check read (a game
    that no run has touched since is found right again without replaying it: the replay is a
    function of exactly that)."""

    def __init__(self) -> None:
        self.inputs: dict[int, tuple[object, ...]] = {}


def check_database(db: Database, acknowledged: dict[tuple[int, int], str], checked: Checked | None = None) -> int:
    """Read the database as a restarted bot would, and check it. Returns the number of moves."""
    checked = checked or Checked()
    stored: dict[tuple[int, int], str] = {}
    log_of: dict[int, dict[int, str]] = {}
    for game_id, seq, action in db.fetch("SELECT game_id, seq, action FROM actions"):
        assert (game_id, seq) not in stored
        stored[(game_id, seq)] = action
        log_of.setdefault(game_id, {})[seq] = action
    lost = [key for key, action in acknowledged.items() if stored.get(key) != action]
    assert lost == [], f"acknowledged moves missing or different after the kill: {lost[:5]}"
    games = db.fetch("SELECT id, variant, seed, options, seq, status FROM games"
                     " WHERE status IN ('setup', 'playing', 'over')")
    names_of: dict[int, list[str]] = {}
    for game_id, name in db.fetch("SELECT game_id, name FROM players ORDER BY game_id, seat"):
        names_of.setdefault(game_id, []).append(name)
    snapshots = {g: (s, state) for g, s, state in db.fetch("SELECT game_id, seq, state FROM snapshots")}
    for game_id, variant, seed, options, seq, status in games:
        log = log_of.get(game_id, {})
        seqs = sorted(log)
        assert seqs == list(range(seq + 1)), f"game {game_id}: log {seqs[-3:]} but games.seq {seq}"
        names = names_of[game_id]
        snap_seq, snap = snapshots[game_id]
        inputs = (variant, seed, options, tuple(names), seq, status, snap_seq, snap, tuple(log[s] for s in seqs))
        if checked.inputs.get(game_id) == inputs:
            continue
        moves = [json.loads(log[s]) for s in range(1, seq + 1)]
        # The snapshot (written every few moves) is the state after an entry of the log.
        assert 0 <= snap_seq <= seq, f"game {game_id}: snapshot at {snap_seq}, log at {seq}"
        # One replay of the log (what `engine.game.replay` does), read at the snapshot and at the end.
        state, _ = new_game(variant, len(names), seed, json.loads(options), names=names)
        at_snapshot = state.to_canonical() if snap_seq == 0 else None
        for done, move in enumerate(moves, start=1):
            state, _ = apply(state, move)
            if done == snap_seq:
                at_snapshot = state.to_canonical()
        assert state.status == status
        assert snap == at_snapshot, (
            f"game {game_id} ({variant}, log at {seq}, {status}): the snapshot at {snap_seq} differs from a replay: "
            + state_difference(json.loads(snap), json.loads(at_snapshot or "{}")))
        checked.inputs[game_id] = inputs
    return len(stored)


def record(lines: list[str], acknowledged: dict[tuple[int, int], str], started_games: set[int]) -> None:
    """What a killed child said it had done."""
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "done":
            game, seq, action = rest.split(" ", 2)
            key = (int(game), int(seq))
            assert key not in acknowledged, f"move {key} acknowledged twice"
            acknowledged[key] = action
        elif kind == "started":
            started_games.add(int(rest))


def test_killed_at_random_moments_nothing_acknowledged_is_lost_or_doubled(
        database: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = database
    rng = random.Random(1234)
    acknowledged: dict[tuple[int, int], str] = {}
    started_games: set[int] = set()
    began = time.monotonic()
    checked = Checked()
    # Each child is forked from a process that has imported it already: a real process, ready
    # in milliseconds instead of the 0.4 s a new interpreter takes to import the service.
    with ForkServer(CHILD) as children:
        for run in range(KILLS):
            with (tmp_path / "child.err").open("w") as err:
                child = children.start([str(db.target), str(run)], stderr=err)
                if run % 5 == 4:
                    # Some kills land while the store opens: migrations, WAL recovery, the first moves.
                    time.sleep(rng.uniform(0.0, 0.3))
                    early: list[str] = []
                else:
                    assert child.stdout.readline().strip() == "ready", (tmp_path / "child.err").read_text()
                    # Killed at a random moment once it has acknowledged a first move, so that a
                    # busy machine (which slows the child, not the clock) still sees it at work.
                    early = [child.stdout.readline().strip()]
                    while early[-1] and not early[-1].startswith("done"):
                        early.append(child.stdout.readline().strip())
                    time.sleep(rng.uniform(0.005, 0.25))
                child.kill()
                lines = [*early, *child.stdout.read().splitlines()]
                child.wait(timeout=30)
            assert child.returncode == -signal.SIGKILL, (tmp_path / "child.err").read_text()
            record(lines, acknowledged, started_games)
            wait_for_killed_sessions(db)
            check_database(db, acknowledged, checked)

    elapsed = time.monotonic() - began
    assert len(acknowledged) >= 100, "the child barely moved; the test proves little"

    # A restarted service loads every game (from its snapshot and the entries after it), and
    # checks every snapshot against a full replay, without finding anything to repair.
    async def reload() -> None:
        service = await GameService.open(db.target, limits=Limits.unlimited())
        try:
            for game_id in sorted(started_games):
                seen = await service.reads.view(game_id)
                reported = [s for g, s in acknowledged if g == game_id]
                assert seen.seq is not None and seen.seq >= max(reported, default=0)
            await service.loader.checks_done()
            stats = service.loader.stats
            assert stats.checked > 0 and stats.check_failures == 0
        finally:
            await service.close()

    caplog.set_level(logging.WARNING)
    asyncio.run(reload())
    assert caplog.text == ""
    print(f"{db.kind}: {KILLS} kills, {len(acknowledged)} acknowledged moves, {len(started_games)} games, "
          f"{elapsed:.1f} s")
