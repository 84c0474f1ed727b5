"""The import layering of the house, as a contract (pyproject.toml's [tool.importlinter],
docs/architecture.md): imports run down the layers — tools > cogs > bot_app > app > (ai,
render) > (engine, store) — and no import circle runs at run time in any room (but for the few
the contract lists as allowed for now)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    beside = Path(sys.executable).parent / "lint-imports"  # the test's own environment first
    lint = str(beside) if beside.exists() else shutil.which("lint-imports") or "lint-imports"
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def test_no_module_is_in_an_import_circle_at_run_time() -> None:
    """The contract compares the children of each package; a package's `__init__` and a module
    inside it that import each other are a circle too. The module graph itself has none, and
    the contract excuses no import (not even one inside a function)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["id"] == "no-circles"]
    assert set(contract["ancestors"]) == set(config["root_packages"]), "every room is checked"
    graph = grimp.build_graph(*config["root_packages"], exclude_type_checking_imports=True, cache_dir=None)
    arrows = nx.DiGraph()
    for module in graph.modules:
        arrows.add_edges_from((module, imported) for imported in graph.find_modules_directly_imported_by(module))
    assert not contract.get("ignore_imports"), "no circle is excused"
    circles = [sorted(group) for group in nx.strongly_connected_components(arrows) if len(group) > 1]
    assert circles == []
