"""Giving freed memory back to the system.

Building a board's base (label placement, the seas' masks, drawing at twice the size) makes
and drops hundreds of megabytes of short-lived objects and images. glibc's allocator keeps
what was freed inside its heaps for later use, so a render worker that prepared all six maps
held ~100 MB more than it uses. `malloc_trim(0)` hands the free pages back. Elsewhere (macOS,
Windows, musl) there is no such call and this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import sys
from collections.abc import Callable

log = logging.getLogger("render.memory")


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back() -> bool:
    """Return the allocator's free memory to the system (all of glibc's heaps, every thread's);
    True when that was possible here."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
