"""The type checker passes on every runtime package (configured in pyproject.toml's
[tool.mypy]): a change that breaks a typed contract — a view field read that does not exist,
an action field of the wrong type — fails here, in the one test command CI runs."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_runtime_packages():
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary"])
    assert status == 0, f"mypy found errors:\n{out}{err}"
