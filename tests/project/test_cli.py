"""bot.py's command line as a newcomer meets it: every mistake gets one plain sentence and exit
status 2 (a usage error) before anything is played or written, never a traceback; Discord out
of reach at log-in is one sentence too; a second demo into the same folder replaces the first.

Each test runs bot.py as a subprocess, as a user would.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ai.levels import AI_LEVELS

ROOT = Path(__file__).resolve().parents[2]
USAGE = 2


def bot(*args: str, env: dict[str, str] | None = None, script: list[str] | None = None,
        cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run([sys.executable, *(script or [str(ROOT / "bot.py")]), *args], cwd=cwd,
                          env={**full, **(env or {})}, capture_output=True, text=True, timeout=120)


def the_sentence(done: subprocess.CompletedProcess[str]) -> str:
    """The one error line a usage error prints (after argparse's usage lines)."""
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    errors = [line for line in done.stderr.splitlines() if line.startswith("bot.py: error: ")]
    assert len(errors) == 1, done.stderr
    sentence = errors[0].removeprefix("bot.py: error: ")
    assert sentence.endswith(".") and "\n" not in sentence
    return sentence


@pytest.mark.parametrize(("args", "says"), [
    (["--demo", "--players", "9"], "europe is played by 2 to 5 players, not 9."),
    (["--demo", "--variant", "nordic", "--players", "4"], "nordic is played by 2 to 3 players, not 4."),
    (["--demo", "--ai", "superhard"], "There is no AI level 'superhard'"),
    (["--demo", "--players", "2", "--ai", "hard,hard,hard"], "3 AI levels for 2 players"),
    (["--demo", "--players", "4", "--ai", "easy,hard"], "2 AI levels for 4 players"),
    (["--players", "3"], "--players only means something with --demo"),
])
def test_a_mistaken_flag_is_one_sentence_and_nothing_is_written(tmp_path: Path, args: list[str], says: str) -> None:
    out = tmp_path / "demo"
    done = bot(*args, "--out", str(out)) if "--demo" in args else bot(*args)
    assert done.returncode == USAGE
    assert says in the_sentence(done)
    assert not out.exists()


def test_the_ai_levels_refused_are_the_levels_help_lists() -> None:
    listed = re.search(r"comma-separated\s+\(([^;]*);", " ".join(bot("--help").stdout.split()))
    assert listed is not None
    refused = the_sentence(bot("--demo", "--ai", "easy,superhard", "--players", "2"))
    assert listed.group(1) == ", ".join(AI_LEVELS) and refused.endswith(f"choose one of {listed.group(1)}.")


def test_an_out_that_cannot_be_written_is_one_sentence(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine", encoding="utf-8")
    done = bot("--demo", "--out", str(a_file))
    assert done.returncode == USAGE and "is a file, not a folder" in the_sentence(done)
    done = bot("--demo", "--out", str(a_file / "demo"))
    assert done.returncode == USAGE and "The demo cannot write to" in the_sentence(done)
    assert a_file.read_text(encoding="utf-8") == "mine"


def test_a_folder_holding_what_no_demo_wrote_is_refused_not_emptied(tmp_path: Path) -> None:
    mine = tmp_path / "photos"
    mine.mkdir()
    (mine / "holiday.png").write_bytes(b"not a board")
    (mine / "log.txt").write_text("my own log", encoding="utf-8")
    done = bot("--demo", "--out", str(mine))
    assert done.returncode == USAGE and "'holiday.png', which no demo wrote" in the_sentence(done)
    assert sorted(p.name for p in mine.iterdir()) == ["holiday.png", "log.txt"]
    assert (mine / "log.txt").read_text(encoding="utf-8") == "my own log"


def test_discord_out_of_reach_at_log_in_is_one_sentence(tmp_path: Path) -> None:
    """A token, and Discord's address answering nothing (a closed port on this machine, as
    without a network): one sentence and status 1, no aiohttp traceback."""
    starter = tmp_path / "start.py"
    starter.write_text(
        "import runpy, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.fake_discord.server import install_urls\n"
        "install_urls('http://127.0.0.1:9/api/v10', 'ws://127.0.0.1:9/')\n"
        f"sys.argv = [{str(ROOT / 'bot.py')!r}]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n", encoding="utf-8")
    done = bot(script=[str(starter)], env={"DISCORD_TOKEN": "a.b.c", "TTR_DATABASE": str(tmp_path / "ttr.sqlite3")},
               cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "aiohttp" not in done.stderr
    said = [line for line in done.stderr.splitlines() if "could not reach Discord" in line]
    assert len(said) == 1 and said[0].startswith("The bot could not reach Discord (Cannot connect to host 127.0.0.1:9")
    assert said[0].endswith("then start it again.")
