"""The store is made of parts by job (issue 25): `Store`, `Tx` and their parts inherit nothing
of the house (a class made of mixins is one big class; no class has more than 25 public methods:
tests/project/test_class_size.py); a transaction's parts hold the transaction and add their
statements through `Tx.add`, a store's parts hold the store's `Reader` and read through it
(docs/architecture.md, "store/")."""

from __future__ import annotations

import functools
import inspect
from pathlib import Path

from store.opening import open_store
from store.reader import Reader
from store.repository import Store, Tx

HOUSE = ("engine", "ai", "store", "app", "bot_app", "cogs", "render")
TX_CORE = ("now", "statements", "keys")


def public_methods(cls: type) -> set[str]:
    """The public methods, properties, class and static methods of `cls`, its own and those it
    inherits from classes of the house (not what it gets from Python or a library)."""
    names: set[str] = set()
    for base in cls.__mro__:
        if base.__module__.split(".")[0] not in HOUSE:
            continue
        for name, value in vars(base).items():
            if not name.startswith("_") and (inspect.isfunction(value) or isinstance(
                    value, staticmethod | classmethod | property | functools.cached_property)):
                names.add(name)
    return names


def test_a_transaction_is_its_parts_each_holding_only_the_transaction() -> None:
    assert Tx.__mro__ == (Tx, object)
    tx = Tx(0.0)
    parts = {name: getattr(tx, name) for name in Tx.__slots__ if name not in TX_CORE}
    assert len(parts) >= 10
    for name, part in parts.items():
        assert type(part).__mro__ == (type(part), object), f"tx.{name} inherits: parts are composed"
        assert type(part).__slots__ == ("_tx",) and part._tx is tx, name
    assert public_methods(Tx) == {"add"}


async def test_a_store_is_its_parts_each_reading_through_the_stores_reader(tmp_path: Path) -> None:
    assert Store.__mro__ == (Store, object)
    opened = await open_store(tmp_path / "ttr.sqlite3")
    try:
        parts = {name: value for name, value in vars(opened).items() if hasattr(value, "_read")}
        assert set(parts) >= {"games", "log", "results", "timers", "deliveries", "user_settings", "seats",
                              "standings", "plans", "rematches", "bot_state"}
        assert isinstance(opened.reader, Reader)
        for name, part in parts.items():
            assert part._read is opened.reader, name
            assert type(part).__mro__ == (type(part), object), f"store.{name} inherits: parts are composed"
    finally:
        await opened.close()
