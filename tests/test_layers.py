"""The import layering of the house, as a contract (pyproject.toml's [tool.importlinter],
docs/architecture.md): imports run down the layers — tools > cogs > bot_app > app > (ai,
render) > (engine, store) — and no import circle runs at run time in engine/, ai/ or tools/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    beside = Path(sys.executable).parent / "lint-imports"  # the test's own environment first
    lint = str(beside) if beside.exists() else shutil.which("lint-imports") or "lint-imports"
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout
