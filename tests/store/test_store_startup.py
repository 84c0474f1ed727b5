"""Start-up checks: a database the bot cannot use is refused with words (what is wrong, which
path, what to do), nothing is changed, and bot.py prints that one message instead of a
traceback. Every test uses real files."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import store.startup as startup
from store import (
    DatabaseDamaged,
    DatabaseInUse,
    DatabaseNeedsInit,
    DatabaseNotWritable,
    DatabasePathError,
    NotAGameDatabase,
    Store,
    latest_version,
)
from store.opening import open_store

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
EXIT_DATABASE = 3  # bot.py's exit status when the database cannot be used


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tables_of(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]


async def new_lobby(store: Store, channel: int = 2) -> None:
    tx = store.tx()
    tx.games.create(guild_id=1, channel_id=channel, host_user_id=3, variant="usa", options_json="{}", seats_wanted=2,
                    turn_hours=None)
    await store.write(tx)


def run_bot(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", **env}
    return subprocess.run([sys.executable, "bot.py", *args], cwd=ROOT, env=full, capture_output=True, text=True,
                          timeout=120)


# --- paths ------------------------------------------------------------------------------


async def test_a_path_under_a_regular_file_is_refused_in_words(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder")
    for path in (blocker / "ttr.sqlite3", blocker / "deeper" / "ttr.sqlite3"):
        with pytest.raises(DatabasePathError) as caught:
            await open_store(path)
        assert str(path) in str(caught.value)
        assert f"{blocker} is a file, not a folder" in str(caught.value)
        assert "TTR_DATABASE" in str(caught.value)
    assert blocker.read_text() == "not a folder"


async def test_a_folder_is_not_a_database_file(tmp_path: Path) -> None:
    with pytest.raises(DatabasePathError, match="is a folder, not a file"):
        await open_store(tmp_path)


async def test_a_missing_folder_is_made_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "games" / "ttr.sqlite3"
    with pytest.raises(DatabasePathError) as caught:
        await open_store(path, create_folder=False)
    assert f"The folder {path.parent} of the database {path} does not exist" in str(caught.value)
    assert f"mkdir -p {path.parent}" in str(caught.value)
    assert not path.parent.exists()
    async with await open_store(path) as store:  # the default: the folder is made
        assert store.created
    async with await open_store(path, create_folder=False) as store:
        assert not store.created


# --- what the file holds ----------------------------------------------------------------


async def test_an_empty_file_is_refused_unless_init_is_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    path.touch()
    with pytest.raises(DatabaseNeedsInit) as caught:
        await open_store(path)
    message = str(caught.value)
    assert f"The database {path} is empty (0 bytes)" in message
    assert "restore a backup" in message and "python bot.py --init" in message
    assert path.stat().st_size == 0
    async with await open_store(path, allow_init=True) as store:
        assert store.created and store.schema_version == latest_version()
        await new_lobby(store)
    async with await open_store(path) as store:  # a game database now: no flag needed
        assert not store.created
        assert await store.games.ids(["lobby"]) == [1]
    async with await open_store(path, allow_init=True) as store:  # --init again changes nothing
        assert not store.created
        assert await store.games.ids(["lobby"]) == [1]


async def test_an_empty_file_whose_wal_holds_data_is_refused_even_with_init(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    path.touch()
    wal = tmp_path / "ttr.sqlite3-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(60))  # SQLite would delete it on opening
    for allow_init in (False, True):
        with pytest.raises(DatabaseDamaged, match="SQLite would delete it"):
            await open_store(path, allow_init=allow_init)
    assert wal.stat().st_size == 64 and path.stat().st_size == 0


async def test_a_wal_without_its_database_is_not_given_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    async with await open_store(path) as store:
        await new_lobby(store)
        shutil.copy(f"{path}-wal", tmp_path / "saved-wal")
    path.unlink()  # deleted (or moved) without its -wal
    shutil.copy(tmp_path / "saved-wal", f"{path}-wal")
    for allow_init in (False, True):
        with pytest.raises(DatabaseDamaged) as caught:
            await open_store(path, allow_init=allow_init)
        assert f"There is no database at {path}, but {path}-wal beside it holds writes" in str(caught.value)
    assert not path.exists()


async def test_sqlite_without_any_table_needs_init(tmp_path: Path) -> None:
    path = tmp_path / "bare.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 7")  # writes the header, no table
    before = digest(path)
    with pytest.raises(DatabaseNeedsInit, match="without any table"):
        await open_store(path)
    assert digest(path) == before
    async with await open_store(path, allow_init=True) as store:
        assert store.created
    assert "games" in tables_of(path)


async def test_another_programs_database_is_left_byte_for_byte_even_with_init(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:  # rollback journal mode: switching to WAL would be a change
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = digest(path)
    for allow_init in (False, True):
        with pytest.raises(NotAGameDatabase) as caught:
            await open_store(path, allow_init=allow_init)
        assert f"{path} already holds tables (invoices)" in str(caught.value)
        assert "not a game database" in str(caught.value)
    assert digest(path) == before
    assert not (tmp_path / "other.sqlite3-wal").exists()


async def test_a_file_that_is_not_sqlite_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    path.write_text("DISCORD_TOKEN=oops, wrong file\n")
    for allow_init in (False, True):
        with pytest.raises(NotAGameDatabase, match="is not an SQLite database"):
            await open_store(path, allow_init=allow_init)
    assert path.read_text() == "DISCORD_TOKEN=oops, wrong file\n"


async def test_a_damaged_database_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"
    async with await open_store(path) as store:
        for channel in range(30):
            await new_lobby(store, channel)
    with path.open("r+b") as f:  # scribble over a page of the games table
        f.seek(2 * 4096 + 16)
        f.write(b"\xde\xad" * 600)
    before = digest(path)
    with pytest.raises(DatabaseDamaged) as caught:
        await open_store(path)
    message = str(caught.value)
    assert f"finds the database {path} damaged" in message
    assert "restore a backup" in message and f"sqlite3 {path} .recover" in message
    assert "\n" not in message
    assert digest(path) == before


def _name_bytes(path: Path) -> list[int]:
    """Where in the file the names SQLite keeps of its tables and indexes are written."""
    with sqlite3.connect(path) as db:
        names = [str(r[0]) for r in db.execute("SELECT name FROM sqlite_master")]
    data = path.read_bytes()
    out: set[int] = set()
    for name in names:
        at = data.find(name.encode())
        while at >= 0:
            out.update(range(at, at + len(name)))
            at = data.find(name.encode(), at + 1)
    return sorted(out)


async def test_bit_flips_in_sqlites_own_names_are_damage_told_in_one_paragraph(tmp_path: Path) -> None:
    """A flipped high bit in a table's or an index's name makes text that is not UTF-8, which
    sqlite3 raises as UnicodeDecodeError (even from inside SQLite's own error message): it is a
    damaged database like any other — one paragraph, nothing changed, and from bot.py exit 3."""
    path = tmp_path / "ttr.sqlite3"
    async with await open_store(path) as store:
        for channel in range(30):
            await new_lobby(store, channel)
    clean = path.read_bytes()
    spots = _name_bytes(path)
    flipped = tmp_path / "flipped" / "ttr.sqlite3"
    flipped.parent.mkdir()
    refused: list[bytes] = []
    # About 48 spots, every other one a high bit: dense enough that the names a new migration
    # adds, which move every spot, leave several flips among the names SQLite reads at opening.
    for n, spot in enumerate(spots[:: max(1, len(spots) // 48)]):
        damaged = bytearray(clean)
        damaged[spot] ^= 0x80 if n % 2 else 0x40
        flipped.write_bytes(bytes(damaged))
        for leftover in flipped.parent.iterdir():
            if leftover != flipped:
                leftover.unlink()
        before = digest(flipped)
        try:
            await (await open_store(flipped)).close()  # a flip SQLite never reads opens
        except DatabaseDamaged as exc:
            message = str(exc)
            assert f"finds the database {flipped} damaged" in message and "\n" not in message, message
            assert "restore a backup" in message
            assert digest(flipped) == before
            if "not UTF-8" in message:
                refused.append(bytes(damaged))
    assert len(refused) >= 4, "most of these flips are read, and refused, at the opening"
    flipped.write_bytes(refused[0])
    done = run_bot({"TTR_DATABASE": str(flipped)})
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.startswith(f"The bot did not start. SQLite finds the database {flipped} damaged (")
    assert len(done.stderr.strip().splitlines()) == 1


async def test_the_stores_own_rows_holding_a_wrong_type_are_damage(tmp_path: Path) -> None:
    """SQLite checks declared types and NOT NULL on writes only; a damaged file's bookkeeping
    row (the commit counter, the database's id, the running mark) of another type is damage,
    in words."""
    for table, change in (("store_state", "UPDATE store_state SET commits = 'many'"),
                          ("store_state", "UPDATE store_state SET db_id = x'00ff'"),
                          ("store_state", "PRAGMA ignore_check_constraints = 1; UPDATE store_state SET running = 7")):
        path = tmp_path / table / f"{abs(hash(change))}.sqlite3"
        path.parent.mkdir(exist_ok=True)
        async with await open_store(path) as store:
            await new_lobby(store)
        with sqlite3.connect(path) as db:
            db.executescript(change)
        with pytest.raises(DatabaseDamaged) as caught:
            await open_store(path)
        assert f"finds the database {path} damaged (" in str(caught.value)


async def test_a_stale_wal_beside_a_restored_backup_is_refused(tmp_path: Path) -> None:
    live = tmp_path / "live" / "ttr.sqlite3"
    restored = tmp_path / "restored" / "ttr.sqlite3"
    restored.parent.mkdir()
    async with await open_store(live) as store:
        await new_lobby(store)
        await store.backup(restored)
        await new_lobby(store, channel=3)
        # The bot stopped without closing: its -wal still holds the last writes.
        shutil.copy(live.with_name("ttr.sqlite3-wal"), restored.with_name("ttr.sqlite3-wal"))
    before = digest(restored)
    with pytest.raises(DatabaseDamaged) as caught:
        await open_store(restored)
    assert "is a standalone copy" in str(caught.value)
    assert f"move {restored}-wal and {restored}-shm away" in str(caught.value)
    assert digest(restored) == before
    restored.with_name("ttr.sqlite3-wal").unlink()
    async with await open_store(restored) as store:
        assert await store.games.ids(["lobby"]) == [1]


async def test_a_new_database_appears_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ttr.sqlite3"

    async def crash(*args: object, **kwargs: object) -> int:
        raise RuntimeError("power cut")

    monkeypatch.setattr(startup, "migrate", crash)
    with pytest.raises(RuntimeError):
        await open_store(path)
    # Neither a half-made database nor a leftover: only the lock file, which stays beside it.
    assert [p.name for p in tmp_path.iterdir()] == ["ttr.sqlite3-lock"]
    monkeypatch.undo()
    async with await open_store(path) as store:
        assert store.created
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ttr.sqlite3", "ttr.sqlite3-lastcommit", "ttr.sqlite3-lock"]


# --- permissions ------------------------------------------------------------------------


def without_root_powers() -> list[str]:
    """A command prefix that runs bot.py without the power to ignore file permissions: as
    root, drop the capabilities that let root write anywhere (root may not write as itself);
    as anyone else, nothing."""
    if os.geteuid() != 0:
        return []
    assert shutil.which("setpriv") is not None, (
        "as root these tests need setpriv (util-linux) to drop root's power over file permissions")
    drop = "-dac_override,-dac_read_search"
    return ["setpriv", "--bounding-set", drop, "--inh-caps", drop]


def run_restricted(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", **env}
    return subprocess.run([*without_root_powers(), sys.executable, "bot.py"], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=120)


def test_a_folder_the_bot_may_not_write_is_refused_with_the_user_and_a_fix(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "ttr.sqlite3"
    folder.chmod(0o555)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(folder, NOBODY, -1)
    try:
        done = run_restricted({"TTR_DATABASE": str(path)})
    finally:
        folder.chmod(0o755)
    assert done.returncode == EXIT_DATABASE
    assert "Traceback" not in done.stderr
    user = startup.run_as()
    assert f"The user this bot runs as ({user}) cannot write in the folder {folder}" in done.stderr
    assert f"sudo chown {user} {folder}" in done.stderr
    assert not path.exists()


def test_a_database_file_the_bot_may_not_write_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ttr.sqlite3"

    async def make() -> None:
        async with await open_store(path) as store:
            await new_lobby(store)

    asyncio.run(make())
    path.chmod(0o400)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(path, NOBODY, -1)
    done = run_restricted({"TTR_DATABASE": str(path)})
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr
    assert f"cannot read and write {path};" in done.stderr


def test_a_read_only_filesystem_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(startup.os, "access", lambda *a, **k: False)
    monkeypatch.setattr(startup.os, "statvfs", lambda *a: ReadOnly())
    with pytest.raises(DatabaseNotWritable) as caught:
        startup.inspect_path(tmp_path / "ttr.sqlite3", create_folder=True, allow_init=False)
    assert f"{tmp_path} is on a read-only filesystem" in str(caught.value)
    assert "Mount it read-write" in str(caught.value)


# --- bot.py -----------------------------------------------------------------------------


def test_bot_prints_one_message_and_exits_non_zero_then_init_makes_the_database(tmp_path: Path) -> None:
    blocker = tmp_path / "passwd"
    blocker.write_text("root:x:0:0\n")
    done = run_bot({"TTR_DATABASE": str(blocker / "x.db")})
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr
    assert done.stderr.startswith("The bot did not start. ")
    assert f"{blocker} is a file, not a folder" in done.stderr

    missing = tmp_path / "nowhere" / "ttr.sqlite3"
    done = run_bot({"TTR_DATABASE": str(missing)})
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr
    assert "does not exist" in done.stderr and not missing.parent.exists()

    empty = tmp_path / "ttr.sqlite3"
    empty.touch()
    done = run_bot({"TTR_DATABASE": str(empty)})
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr
    assert "is empty (0 bytes)" in done.stderr and "python bot.py --init" in done.stderr
    assert empty.stat().st_size == 0

    done = run_bot({"TTR_DATABASE": str(empty)}, "--init")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"created a new, empty game database at {empty}"
    assert "games" in tables_of(empty)
    done = run_bot({"TTR_DATABASE": str(empty)}, "--init")
    assert done.returncode == 0
    assert "is already a game database (0 games); --init left it as it was" in done.stdout

    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    done = run_bot({"TTR_DATABASE": str(foreign)}, "--init")
    assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr
    assert done.stderr.startswith("--init refused: ") and "not a game database" in done.stderr


async def test_a_second_process_on_one_sqlite_file_is_refused_in_words(tmp_path: Path) -> None:
    """One process per SQLite database: while a store has the file open, another process's
    start (and --init) is refused in words, naming the holder and PostgreSQL, and changes
    nothing; so is a second store in the same process. Once it closes — or its process is
    killed — the file opens again."""
    path = tmp_path / "ttr.sqlite3"
    store = await open_store(path)
    try:
        await new_lobby(store)
        before = digest(path)
        done = run_bot({"TTR_DATABASE": str(path)})
        assert done.returncode == EXIT_DATABASE and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith(f"The bot did not start. Another bot process (pid {os.getpid()} on ")
        assert f"is already using the database {path}" in done.stderr and "PostgreSQL" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        done = run_bot({"TTR_DATABASE": str(path)}, "--init")
        assert done.returncode == EXIT_DATABASE and done.stderr.startswith("--init refused: Another bot process")
        with pytest.raises(DatabaseInUse):
            await open_store(path)
        assert digest(path) == before
    finally:
        await store.close()
    async with await open_store(path) as again:
        assert await again.games.ids(("lobby",))

    holder = subprocess.Popen([sys.executable, "-c", (
        "import asyncio, sys; from pathlib import Path; from store.opening import open_store\n"
        "async def main():\n"
        "    store = await open_store(Path(sys.argv[1]))\n"
        "    print('ready', flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())"), str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.raises(DatabaseInUse, match=f"pid {holder.pid} on"):
            await open_store(path)
    finally:
        holder.kill()
        holder.wait()
    async with await open_store(path) as after_kill:  # the lock went with the killed process
        assert await after_kill.games.ids(("lobby",))


def test_only_the_default_database_path_is_the_default() -> None:
    import bot

    assert bot.EXIT_DATABASE == EXIT_DATABASE
    assert bot.is_default_database(ROOT / "data" / "ttr.sqlite3")
    assert bot.is_default_database(ROOT / "data" / ".." / "data" / "ttr.sqlite3")
    assert not bot.is_default_database(ROOT / "data" / "other.sqlite3")
