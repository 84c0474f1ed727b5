"""The per-move shortcuts give what the general forms give: the game row a commit leaves
(`GameRow.advanced` against `dataclasses.replace`) and a payload's stored data (fields listed
once per class against `dataclasses.fields` on every call)."""

from __future__ import annotations

import dataclasses
from typing import Any

import engine.game  # noqa: F401  (declares the payload kinds of every rule)
from engine.events import _ABSENT, Payload
from store.records import GameRow


def test_advanced_row_equals_replace() -> None:
    row = GameRow(7, 1, 2, 3, 4, "europe", '{"x": 1}', 3, 48.0, 99, 2, "setup", 10, "[0]", None, 1.5, 2.5,
                  paused_reason="host", turn_post_id=11, turn_post_seq=9, max_away_days=3.0, unreadable=("variant",))
    got = row.advanced(12, "playing", "[1, 2]", 9.25)
    assert got == dataclasses.replace(row, seq=12, status="playing", waiting_json="[1, 2]", updated_at=9.25)
    assert row.seq == 10 and row.status == "setup"  # the original is left as it was
    # Frozen as before: the copy refuses assignment like any row.
    try:
        got.seq = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("the copy is not frozen")


def _slow_data(payload: Payload) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(payload):  # type: ignore[arg-type]
        value = getattr(payload, f.name)
        if value is None and f.metadata.get(_ABSENT):
            continue
        out[f.name] = value
    return out


def test_payload_data_same_for_every_kind() -> None:
    checked = 0
    for cls in Payload.registry.values():
        if not dataclasses.is_dataclass(cls):
            continue
        fields = dataclasses.fields(cls)
        # Each field None (absent ones left out), then each field a marker value.
        for value in (None, 5):
            payload = cls.__new__(cls)
            for f in fields:
                object.__setattr__(payload, f.name, value)
            assert payload.to_data() == _slow_data(payload)
            assert list(payload.to_data()) == list(_slow_data(payload))  # same key order: same bytes
            checked += 1
    assert checked > 20
