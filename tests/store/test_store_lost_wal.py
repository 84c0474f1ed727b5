"""Lost -wal files: a database copied or left without its -wal is noticed at start-up (a
refusal when the -lastcommit file proves writes are missing, a warning when only the
"not closed cleanly" mark suggests it), and the ordinary cases stay quiet. Real files, a real
killed process."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from store import CommitsMissing, Store
from store.commits import read_last_commit
from store.opening import open_store

ROOT = Path(__file__).resolve().parents[2]
NAME = "ttr.sqlite3"

# A bot that makes five lobbies, says so, and waits to be killed.
CHILD = """
import asyncio, sys
sys.path.insert(0, sys.argv[2])
from store import Store
from store.opening import open_store

async def main():
    store = await open_store(sys.argv[1])
    for channel in range(5):
        tx = store.tx()
        tx.games.create(guild_id=1, channel_id=channel, host_user_id=1, variant="usa", options_json="{}",
                       seats_wanted=2, turn_hours=None)
        await store.write(tx)
    print("ready", flush=True)
    await asyncio.sleep(120)

asyncio.run(main())
"""


async def lobby(store: Store, channel: int) -> None:
    tx = store.tx()
    tx.games.create(guild_id=1, channel_id=channel, host_user_id=1, variant="usa", options_json="{}", seats_wanted=2,
                    turn_hours=None)
    await store.write(tx)


async def lobbies(path: Path) -> int:
    async with await open_store(path) as store:
        return len(await store.games.ids(["lobby"]))


def copy(folder: Path, source: Path, *suffixes: str) -> Path:
    """Copy the database at `source` with the given companion files ("" is the file itself)."""
    folder.mkdir()
    for suffix in suffixes:
        shutil.copy(f"{source}{suffix}", folder / f"{NAME}{suffix}")
    return folder / NAME


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_every_commit_is_counted_in_the_database_and_beside_it(tmp_path: Path) -> None:
    path = tmp_path / NAME
    async with await open_store(path) as store:
        for channel in range(7):
            await lobby(store, channel)
        rows = await store._reader.execute_fetchall("SELECT db_id, commits, running FROM store_state")
        db_id, commits, running = list(rows)[0]
        assert commits == 7 and running == 1
        last = read_last_commit(path)
        assert last is not None and (last.db_id, last.commits) == (db_id.decode(), 7)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT commits, running FROM store_state").fetchone() == (7, 0)


async def test_a_copy_taken_without_its_wal_while_the_bot_runs_is_noticed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = tmp_path / "live" / NAME
    async with await open_store(live) as store:
        for channel in range(5):
            await lobby(store, channel)
        alone = copy(tmp_path / "alone", live, "")
        beside = copy(tmp_path / "beside", live, "", "-lastcommit")
    caplog.set_level(logging.INFO)

    # Copied with its -lastcommit file but not its -wal: provably short, refused untouched.
    before = digest(beside)
    with pytest.raises(CommitsMissing) as caught:
        await open_store(beside)
    message = str(caught.value)
    assert f"The database {beside} holds 0 commits, but the bot had made 5 in it" in message
    assert f"put that {NAME}-wal file back" in message and "python bot.py --backup" in message
    assert f"delete {beside}-lastcommit" in message
    assert digest(beside) == before

    # The file alone: only its "not closed cleanly" mark tells; a warning, with the path.
    assert await lobbies(alone) == 0  # the five lobbies were still in the -wal
    [warning] = warnings_of(caplog)
    assert f"The database {alone} was not closed cleanly and has no -wal file beside it" in warning
    assert "python bot.py --backup" in warning

    # Deleting the -lastcommit file, as the refusal says, accepts the loss (with the warning).
    caplog.clear()
    (beside.parent / f"{NAME}-lastcommit").unlink()
    assert await lobbies(beside) == 0
    assert len(warnings_of(caplog)) == 1
    caplog.clear()
    assert await lobbies(beside) == 0  # closed cleanly since: quiet
    assert warnings_of(caplog) == []
    assert await lobbies(live) == 5 and warnings_of(caplog) == []


async def test_after_a_kill_only_a_missing_wal_is_reported(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = tmp_path / "live" / NAME
    live.parent.mkdir()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(live), str(ROOT)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert os.path.getsize(f"{live}-wal") > 0
    without_wal = copy(tmp_path / "without-wal", live, "", "-lastcommit")
    file_alone = copy(tmp_path / "file-alone", live, "")
    folded = copy(tmp_path / "folded", live, "", "-wal", "-shm", "-lastcommit")
    caplog.set_level(logging.INFO)

    with pytest.raises(CommitsMissing, match="holds 0 commits, but the bot had made 5"):
        await open_store(without_wal)
    assert await lobbies(file_alone) == 0
    assert len(warnings_of(caplog)) == 1
    caplog.clear()

    # Another SQLite program opened it after the crash: it folded the -wal in and removed it.
    other = sqlite3.connect(folded)
    assert other.execute("SELECT count(*) FROM games").fetchone() == (5,)
    other.close()
    assert not Path(f"{folded}-wal").exists()
    assert await lobbies(folded) == 5
    # The live database, -wal and all, as the restarted bot finds it.
    assert await lobbies(live) == 5
    assert warnings_of(caplog) == []
    assert "was not closed cleanly last time; SQLite recovered it" in caplog.text


async def test_a_clean_copy_and_a_restored_backup_open_quietly(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    live = tmp_path / "live" / NAME
    async with await open_store(live) as store:
        for channel in range(3):
            await lobby(store, channel)
        await store.backup(tmp_path / "backup.sqlite3")
        await lobby(store, 3)
    assert not Path(f"{live}-wal").exists()  # a clean close folds the -wal in
    clean = copy(tmp_path / "clean", live, "")
    caplog.set_level(logging.WARNING)
    assert await lobbies(clean) == 4

    # Restored over the live database, beside its -lastcommit file: a database of its own.
    shutil.copy(tmp_path / "backup.sqlite3", live)
    assert await lobbies(live) == 3
    assert warnings_of(caplog) == []


def test_a_torn_or_foreign_lastcommit_file_vouches_for_nothing(tmp_path: Path) -> None:
    path = tmp_path / NAME
    marker = tmp_path / f"{NAME}-lastcommit"
    for junk in (b"", b"ttr-lastcommit 1 abc 12\n", b"\x00" * 64, b"ttr-lastcommit 1 " + b"0" * 32 + b" 5\n"):
        marker.write_bytes(junk)
        assert read_last_commit(path) is None
    marker.write_bytes(b"ttr-lastcommit 1 " + b"ab" * 16 + b" " + b"0" * 19 + b"9\n")
    last = read_last_commit(path)
    assert last is not None and last.commits == 9 and last.db_id == "ab" * 16
