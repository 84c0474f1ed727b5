"""Every rule scenario under tests/scenarios/ as its own pytest case.

The scenarios are YAML files (format: docs/scenarios.md). Each one becomes a parametrised
case whose id is the file (relative to tests/scenarios, without .yaml) and the scenario's
name, e.g. ``base/tunnels::A tunnel ...``; run one file or one scenario with ``-k``:

    .venv/bin/python -m pytest tests/engine/test_scenarios.py -k "europe/stations"
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.scenarios import Scenario, load_scenarios, run_scenario

SCENARIO_DIR = Path(__file__).resolve().parents[1] / "scenarios"


def _files() -> list[Path]:
    return sorted(p for pattern in ("*.yaml", "*.yml") for p in SCENARIO_DIR.rglob(pattern))


def _label(path: Path) -> str:
    return path.relative_to(SCENARIO_DIR).with_suffix("").as_posix()


def _collect() -> list[tuple[str, Scenario]]:
    # A file that cannot be read fails the collection, loudly.
    return [(f"{_label(path)}::{scenario.name}", scenario) for path in _files() for scenario in load_scenarios(path)]


CASES = _collect()


def test_there_are_scenarios() -> None:
    assert CASES, f"no scenario files found under {SCENARIO_DIR}"


def test_scenario_ids_are_unique() -> None:
    ids = [case_id for case_id, _ in CASES]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"two scenarios in one file share a name: {duplicates}"


@pytest.mark.parametrize("scenario", [s for _, s in CASES], ids=[i for i, _ in CASES])
def test_scenario(scenario: Scenario) -> None:
    run_scenario(scenario)
