"""tests/ mirrors the house (docs/architecture.md, "The tests"): every test file lives in the
folder of the room it tests, or in tests/project/ for the whole-project checks; none at the top
of tests/, where only what the folders share lives; and no two share a name (pytest imports each
test file under its own name, the folders being no packages, which they must stay)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
ROOMS = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
FOLDERS = ROOMS | {"project"}


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def test_the_rooms_are_found() -> None:
    assert {"engine", "ai", "store", "app", "render", "bot_app", "cogs", "tools"} <= ROOMS


def test_no_test_file_lies_at_the_top_of_tests() -> None:
    assert [p.name for p in TESTS.glob("test_*.py")] == []


def test_every_test_file_is_in_the_folder_of_a_room_or_of_the_project() -> None:
    misplaced = [str(p.relative_to(ROOT)) for p in _test_files() if p.relative_to(TESTS).parts[0] not in FOLDERS]
    assert misplaced == []


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(p.name for p in _test_files())
    assert [name for name, n in names.items() if n > 1] == []


def test_the_folders_of_tests_are_no_packages() -> None:
    # tests/ is no package, so tests/bot_app/__init__.py would make pytest import its files as
    # `bot_app.test_x` from tests/ put first on sys.path: a name the bot's own package has.
    assert [str(p.relative_to(ROOT)) for p in TESTS.glob("*/__init__.py") if p.parent.name in FOLDERS] == []
