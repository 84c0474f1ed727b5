"""How `python bot.py` stops, run as it is run for real (its own `main`, real render worker
processes) against the loopback fake Discord: SIGTERM — systemd's stop, `docker stop` — is a
clean stop like Ctrl-C (exit 0, the -wal folded into the database, no child process left);
after a SIGKILL, which no process can catch, its render workers and multiprocessing's
resource tracker are gone within moments all the same. The demo likewise."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
# bot.py's main, pointed at the fake (its URLs in argv) before it starts.
RUN_BOT = ("import sys; from tests.fake_discord.server import install_urls; install_urls(sys.argv[1], sys.argv[2]); "
           "import bot; raise SystemExit(bot.main(sys.argv[3:]))")
WORKERS = 2


def _state(pid: int) -> str | None:
    """The process's state letter from /proc (None: no such process)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def alive(pid: int) -> bool:
    """Running (a zombie waiting for whoever adopted it to reap it has ended)."""
    return _state(pid) not in (None, "Z", "X")


async def still_alive(pids: list[int], within: float = 2.0) -> list[int]:
    """The processes of `pids` still running once `within` seconds have passed, or [] as soon
    as none is (a worker notices its parent's end at its next look, a fraction of a second)."""
    deadline = time.monotonic() + within
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return left


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                out.append(int(entry))
    return out


async def _until(predicate, timeout: float, what: str):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)
    return found


async def _exit_code(proc: subprocess.Popen[bytes], timeout: float) -> int:
    await _until(lambda: proc.poll() is not None, timeout, "the process exited")
    return proc.returncode


def _bot(fake: FakeDiscord, db: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DISCORD_TOKEN": "fake-token", "TTR_DATABASE": str(db), "TTR_RENDER_WORKERS": str(WORKERS),
           "TTR_RENDER_PREPARE": "none", "LOG_LEVEL": "INFO"}
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-c", RUN_BOT, fake.base, fake.gateway_url], cwd=ROOT, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)


async def _running_bot(fake: FakeDiscord, tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """bot.py logged in to the fake, with its render workers (and the resource tracker)
    started, and a table opened (so the database has writes in its -wal)."""
    proc = _bot(fake, tmp_path / "ttr.sqlite3", tmp_path / "bot.log")
    try:
        await _until(lambda: fake.identified.is_set() or proc.poll() is not None, 60, "the bot logged in")
        assert proc.poll() is None, (tmp_path / "bot.log").read_text()
        kids = await _until(lambda: len(children(proc.pid)) > WORKERS and children(proc.pid), 60,
                            "the render workers and the resource tracker started")
        alice = fake.add_user("Alice")
        it = await fake.answered(await fake.slash(alice, "new", variant="usa"), timeout=30)
        assert "🚫" not in " ".join(m["content"] for m in fake.reply_messages(it))
        return proc, kids
    except BaseException:
        proc.kill()
        proc.wait()
        raise


async def test_sigterm_stops_the_bot_cleanly_and_leaves_no_child(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        proc, kids = await _running_bot(fake, tmp_path)
        wal = tmp_path / "ttr.sqlite3-wal"
        assert wal.exists()  # the table just opened is in it
        os.kill(proc.pid, signal.SIGTERM)
        code = await _exit_code(proc, 30)
        log = (tmp_path / "bot.log").read_text()
        assert code == 0, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
        assert not wal.exists() and not (tmp_path / "ttr.sqlite3-shm").exists()
        assert await still_alive(kids) == []
    finally:
        await fake.stop()


async def test_after_a_sigkill_of_the_bot_no_worker_is_left(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        proc, kids = await _running_bot(fake, tmp_path)
        os.kill(proc.pid, signal.SIGKILL)
        assert await _exit_code(proc, 10) == -signal.SIGKILL
        assert await still_alive(kids) == [], "the render workers (or the resource tracker) outlived the bot"
    finally:
        await fake.stop()


async def _running_demo(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    """bot.py --demo of a long game, once its render workers are drawing."""
    out = tmp_path / "demo-out"
    tmp_path.mkdir(exist_ok=True)
    with (tmp_path / "demo.log").open("wb") as err:
        proc = subprocess.Popen([sys.executable, "bot.py", "--demo", "--variant", "germany", "--players", "5",
                                 "--out", str(out)], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err)
    try:
        await _until(lambda: any(out.glob("board-*.png")) or proc.poll() is not None, 120, "the demo drew a board")
        assert proc.poll() is None, (tmp_path / "demo.log").read_text()
        return proc, children(proc.pid)
    except BaseException:
        proc.kill()
        proc.wait()
        raise


async def test_the_demo_stops_cleanly_on_sigterm_and_its_workers_end_after_a_sigkill(tmp_path: Path) -> None:
    proc, kids = await _running_demo(tmp_path / "term")
    assert len(kids) >= 2
    os.kill(proc.pid, signal.SIGTERM)
    assert await _exit_code(proc, 30) == 0
    log = (tmp_path / "term" / "demo.log").read_text()
    assert "Traceback" not in log and "The demo was stopped" in log, log[-3000:]
    assert await still_alive(kids) == []

    proc, kids = await _running_demo(tmp_path / "kill")
    os.kill(proc.pid, signal.SIGKILL)
    assert await _exit_code(proc, 10) == -signal.SIGKILL
    assert await still_alive(kids) == []
