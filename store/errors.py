"""Errors raised by the store. Each carries one plain sentence meant for an operator."""

from __future__ import annotations


class StoreError(Exception):
    """Something went wrong in the database layer."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; this version will not touch it."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"The database {path} has schema version {found}, but this version of the bot only knows "
            f"versions up to {known}. Run a newer version of the bot (or restore a backup made by this "
            "version); the database has not been changed."
        )
        self.found = found
        self.known = known


class MigrationError(StoreError):
    """A migration could not be applied; the database stays at the last version that applied."""


class WriteConflict(StoreError):
    """A guarded write found the database in a different state than expected (for example the
    game's seq moved on), so the whole transaction was rolled back and nothing was written."""
