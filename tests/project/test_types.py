"""The type checker passes on every runtime package (configured in pyproject.toml's
[tool.mypy]): a change that breaks a typed contract — a view field read that does not exist,
an action field of the wrong type — fails here, in the one test command CI runs. The rules,
the computer players, the store and the application service are checked as `mypy --strict`
checks them."""

from __future__ import annotations

from pathlib import Path

from mypy import api
from mypy.main import process_options
from mypy.options import Options

ROOT = Path(__file__).resolve().parents[2]
STRICT_PACKAGES = ("engine", "ai", "store", "app")


def test_mypy_finds_no_error_in_the_runtime_packages():
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary"])
    assert status == 0, f"mypy found errors:\n{out}{err}"


def _options(*args: str) -> Options:
    return process_options([*args])[1]


def _module_names(package: str) -> list[str]:
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_module_of_the_strict_packages_is_checked_with_every_strict_flag(tmp_path):
    # What --strict turns on, read from mypy itself (so a flag a new mypy adds to --strict is
    # asked for too), against mypy's defaults with no configuration at all.
    empty = tmp_path / "mypy.ini"
    empty.write_text("[mypy]\n")
    strict = _options("--strict", "--config-file", str(empty), "x.py")
    plain = _options("--config-file", str(empty), "x.py")
    flags = [name for name in dir(plain) if not name.startswith("_")
             and not callable(getattr(plain, name)) and getattr(strict, name) != getattr(plain, name)]
    assert "disallow_untyped_defs" in flags and "warn_return_any" in flags

    configured = _options("--config-file", str(ROOT / "pyproject.toml"))
    checked = {Path(f).parts[0] for f in configured.files or ()}
    assert set(STRICT_PACKAGES) <= checked
    for package in STRICT_PACKAGES:
        modules = _module_names(package)
        assert modules, package
        for module in modules:
            options = configured.clone_for_module(module)
            loose = {name: getattr(options, name) for name in flags
                     if getattr(options, name) != getattr(strict, name)}
            assert not loose, f"{module} is not checked strictly: {loose}"
