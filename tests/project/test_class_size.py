"""No class of the runtime has more than MOST_PUBLIC public methods and properties, counting
those it inherits from the house's own classes (issue 25: a class that does everything is
split into parts, as GameService is into a core and its parts, app/service.py, and the store
and its transaction into theirs, store/repository.py)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

PACKAGES = ("engine", "ai", "app", "store", "render", "bot_app", "cogs")
MOST_PUBLIC = 25


def _modules() -> Iterator[ModuleType]:
    for name in PACKAGES:
        package = importlib.import_module(name)
        yield package
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            yield importlib.import_module(info.name)


def _ours(cls: type) -> bool:
    return cls.__module__.split(".")[0] in PACKAGES


def public_names(cls: type) -> set[str]:
    """The public methods and properties of `cls`, its own and those of its house ancestors
    (what it gets from Python or a library, `Exception.args` say, is not counted)."""
    names = set()
    for klass in cls.__mro__:
        if not _ours(klass):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_"):
                continue
            if isinstance(value, property | classmethod | staticmethod) or inspect.isfunction(value):
                names.add(name)
    return names


def _classes() -> list[type]:
    seen: dict[type, None] = {}
    for module in _modules():
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                seen[value] = None
    return list(seen)


def test_the_count_takes_in_inherited_methods() -> None:
    class Base:
        def a(self) -> None: ...

        @property
        def b(self) -> int:
            return 1

        def _hidden(self) -> None: ...

    class Child(Base):
        def c(self) -> None: ...

    Base.__module__ = Child.__module__ = "app.example"
    assert public_names(Child) == {"a", "b", "c"}


def test_no_class_has_more_than_25_public_methods() -> None:
    classes = _classes()
    assert len(classes) > 200, "the runtime's classes were not found"
    big = {f"{c.__module__}.{c.__qualname__}": len(public_names(c)) for c in classes
           if len(public_names(c)) > MOST_PUBLIC}
    assert big == {}


def test_the_service_is_its_parts_around_one_core() -> None:
    from app.core import ServiceCore
    from app.service import GameService

    assert GameService.__mro__ == (GameService, object)
    core_users = [c for c in _classes() if c.__module__.startswith("app.") and "core" in
                  inspect.signature(c.__init__).parameters]
    assert len(core_users) >= 13
    for part in core_users:
        assert part.__mro__ == (part, object), f"{part.__qualname__} inherits: parts are composed, not chained"
    assert ServiceCore.__mro__ == (ServiceCore, object)


def test_no_part_of_the_service_reaches_into_another() -> None:
    # In app/, a private name is only ever read off `self` (or `cls`): a part that needs another
    # part's behaviour calls its public methods, or the core's.
    root = Path(__file__).resolve().parents[2] / "app"
    reaching = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                reaching.append(f"{path.relative_to(root.parent)}:{node.lineno} .{node.attr}")
    assert reaching == []
