"""A PostgreSQL server without room for a process's connections is said in the log at start
(issue 30: running out was found only under load)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from store import postgres
from store.opening import open_store


async def test_a_start_says_whether_the_server_has_room_for_its_connections(
        other_database: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    database = other_database("postgres")
    caplog.set_level(logging.INFO, logger=postgres.log.name)
    store = await open_store(database.target)
    await store.close()
    assert "room for this process's 9 connections" in caplog.text
    assert "raise max_connections" not in caplog.text
    caplog.clear()
    monkeypatch.setattr(postgres, "READ_CONNECTIONS", 1000)  # more than the test server allows
    store = await open_store(database.target)
    await store.close()
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "needs 1003 (2 for writes, 1000 for reads, 1 for its presence)" in warned[0].message
    assert "raise max_connections or run fewer processes" in warned[0].message
