"""Project standards that a test can check: ruff-clean code and a pure engine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    done = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_engine_imports_no_io_library() -> None:
    banned = re.compile(r"^\s*(import|from)\s+(discord|aiosqlite|PIL|sqlite3|socket|asyncio)\b", re.M)
    offenders = [p.name for p in ENGINE.rglob("*.py") if banned.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_engine_reads_no_clock_and_no_global_random() -> None:
    clock = re.compile(r"^\s*(import|from)\s+(time|datetime|random)\b", re.M)
    # The self-play tool times itself; it is a command, not part of the rules.
    allowed = {"selfplay.py"}
    offenders = [
        p.name for p in ENGINE.rglob("*.py") if p.name not in allowed and clock.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
