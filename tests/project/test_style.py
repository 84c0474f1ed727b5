"""Project standards that a test can check: ruff-clean code, a pure engine and computer
players, and a runtime that needs nothing from the tests or the tools."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
# The rules and the computer players: pure functions of their inputs (the tools beside them,
# self-play and the tournament, may time themselves).
PURE = [ENGINE, ROOT / "ai"]
# What the bot runs: these need only requirements.txt.
RUNTIME = [ROOT / name for name in ("engine", "ai", "store", "app", "bot_app", "cogs", "render", "bot.py")]
# Test and tool code, and what only they install (requirements-dev.txt).
NOT_AT_RUNTIME = {"yaml", "pytest", "_pytest", "tests", "tools"}


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    done = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _pure_files() -> list[Path]:
    files = [p for root in PURE for p in sorted(root.rglob("*.py"))]
    assert len(files) > 40, "the engine and the computer players were not found"
    return files


def test_engine_and_ai_import_no_io_library() -> None:
    banned = re.compile(r"^\s*(import|from)\s+(discord|aiosqlite|PIL|sqlite3|socket|asyncio)\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in _pure_files() if banned.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_engine_and_ai_read_no_clock_and_no_global_random() -> None:
    clock = re.compile(r"^\s*(import|from)\s+(time|datetime|random)\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in _pure_files() if clock.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) for every absolute import in the file, at any depth (an import
    inside a function runs at run time too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.partition(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.partition(".")[0]))
    return found


def test_runtime_code_imports_no_test_or_tool_code() -> None:
    files = [p for root in RUNTIME for p in ([root] if root.is_file() else sorted(root.rglob("*.py")))]
    assert len(files) > 50, "the runtime packages were not found"
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in _imported_modules(path)
        if module in NOT_AT_RUNTIME
    ]
    assert offenders == [], "runtime code must need only requirements.txt:\n" + "\n".join(offenders)
