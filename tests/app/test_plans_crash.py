"""A plan runs exactly once, whatever kills the bot (issue 29): a process plays a 2-player game
where one player's every turn is played by his plan (tests/plans_child.py), and is killed with
SIGKILL at random moments — also in the middle of the commit that brings his turn and runs his
plan — again and again, on SQLite and PostgreSQL. After each kill the log reads Ann, Ann, Ben,
Ben, … in every game: the turn never arrived without its plan running (Ben never waits), and no
plan ran twice; each plan that ran left exactly one private line in the outbox and is gone;
every move acknowledged is there."""

from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path

from tests.databases import Database
from tests.fork_server import ForkServer
from tests.store.test_store_crash import wait_for_killed_sessions

CHILD = Path(__file__).resolve().parents[1] / "plans_child.py"
KILLS = 10


def check(db: Database, acknowledged: set[tuple[int, int]]) -> int:
    """The invariants above; returns how many plans have run."""
    rows = db.fetch("SELECT game_id, seq, actor, user_id, action FROM actions WHERE seq > 0 ORDER BY game_id, seq")
    seqs = {(g, s) for g, s, _, _, _ in rows}
    assert acknowledged <= seqs, f"acknowledged moves lost: {sorted(acknowledged - seqs)[:5]}"
    games: dict[int, list[tuple[int, int, str]]] = {}
    for g, _, actor, user, action in rows:
        games.setdefault(g, []).append((actor, user, json.loads(action)["type"]))
    ran = 0
    for g, moves in games.items():
        turns = [m for m in moves if m[2] == "draw_card"]  # after the opening tickets
        pattern = [0, 0, 1, 1] * (len(turns) // 4 + 1)
        actors = [a for a, _, _ in turns]
        assert actors == pattern[:len(actors)], f"game {g}: the draws went {actors}"
        assert all(user == 2 for a, user, _ in turns if a == 1), f"game {g}: Ben's moves are his plan's"
        complete = len(actors) // 4 * 4 + (2 if len(actors) % 4 == 2 else 0)
        plans_ran = actors[:complete].count(1) // 2
        lines = db.fetch("SELECT count(*) FROM deliveries WHERE game_id = ? AND kind = 'plan'", g)[0][0]
        assert lines == plans_ran, f"game {g}: {plans_ran} plans ran, {lines} private lines"
        ran += plans_ran
    return ran


def test_killed_at_random_moments_each_plan_runs_exactly_once(database: Database, tmp_path: Path) -> None:
    db = database
    rng = random.Random(29)
    acknowledged: set[tuple[int, int]] = set()
    ran = 0
    with ForkServer(CHILD) as children:
        for _ in range(KILLS):
            with (tmp_path / "child.err").open("w") as err:
                child = children.start([str(db.target)], stderr=err)
                assert child.stdout.readline().strip() == "ready", (tmp_path / "child.err").read_text()
                # A few of its lines (however fast the machine is today), then a moment into
                # whatever it does next: often the commit that brings Ben's turn.
                lines = [child.stdout.readline().strip() for _ in range(rng.randint(1, 12))]
                time.sleep(rng.uniform(0.0, 0.02))
                child.kill()
                lines += child.stdout.read().splitlines()
                child.wait(timeout=30)
            assert child.returncode == -signal.SIGKILL, (tmp_path / "child.err").read_text()
            record(lines, acknowledged)
            wait_for_killed_sessions(db)
            ran = check(db, acknowledged)
    assert ran >= 10, "the plans barely ran; the test proves little"


def record(lines: list[str], acknowledged: set[tuple[int, int]]) -> None:
    for line in lines:
        kind, *rest = line.split()
        if kind == "done":
            acknowledged.add((int(rest[0]), int(rest[1])))
