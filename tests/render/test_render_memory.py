"""Render workers give freed memory back (render/memory.py): glibc's `malloc_trim` on Linux,
nothing elsewhere; a worker with every map prepared stays under 200 MB."""

from __future__ import annotations

import sys

import pytest

from render import memory


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def test_memory_freed_inside_the_heap_goes_back_to_the_system() -> None:
    # 120 MB of small objects with a survivor every 64: the heap's top cannot shrink, so free()
    # alone keeps the pages; giving back releases the free ones between the survivors.
    blocks = [bytes(1000) + bytes([i % 256]) for i in range(120_000)]
    survivors = blocks[::64]
    del blocks
    held = rss_mb()
    assert memory.give_back() is True
    assert rss_mb() < held - 60
    assert len(survivors) == 1875


def test_without_glibc_giving_back_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    memory._malloc_trim.cache_clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert memory.give_back() is False
    finally:
        memory._malloc_trim.cache_clear()
