"""How the store's parts read: the back end's read functions, handed to every part.

A `Store` is made of parts by job (store/repository.py); each part's reads go through the one
`Reader` its store made, so a part never reaches into the store or into another part. The
back ends differ only in what they put here: SQLite its read connection and "is one of this
list" as JSON text (`json_each`), PostgreSQL its read pool and `= ANY(…)` with a real array.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from store.read_cache import ReadCache


class Fetch(Protocol):
    """The rows of one read (with `?` placeholders), each a sequence of column values."""

    def __call__(self, sql: str, params: Sequence[Any] = ..., /) -> Awaitable[list[Any]]: ...


FetchMany = Callable[[Sequence[tuple[str, Sequence[Any]]]], Awaitable[list[list[Any]]]]

# SQLite's spelling of "is one of this list" (its parameter: `json_list`).
SQLITE_ANY = "IN (SELECT value FROM json_each(?))"


def json_list(values: Iterable[Any]) -> Any:
    """The list parameter of SQLite's "is one of this list": JSON text."""
    return json.dumps(list(values))


@dataclass(slots=True)
class Reader:
    """The read functions of one store, shared by its parts.

    `fetch(sql, params)`: the rows of one read (`?` placeholders); `fetch_many(reads)`: the rows
    of several reads, all seeing the database at one moment; `any`: the back end's "is one of
    this list" (to follow a column: `id {reader.any}`), whose parameter `as_list` makes; `cache`:
    what a store no other process writes keeps of its plans and settings (None: none)."""

    fetch: Fetch
    fetch_many: FetchMany
    any: str = SQLITE_ANY
    as_list: Callable[[Iterable[Any]], Any] = json_list
    cache: ReadCache | None = None
