"""The cycle collector's settings for a process that keeps thousands of games loaded.

Python's collector runs its youngest generation every 700 container allocations (net), and a
collection moves every young object still alive into the next generation — in a bot, the
states, events and statements of the moves waiting for their commit. A full collection walks
every tracked object of the process (with 10,000 games in the cache, app/loader.py, about
420,000 of them, at a microsecond each), and it runs whenever the objects moved into the
oldest generation since the last one are a quarter of those already there. So the more often
the young generation is collected, the more in-flight objects grow old, and the more full
collections there are: at 10,000 active games the collector took 0.165 ms of a move's 0.55 ms
of CPU, 74 % of it in full
collections (docs/performance.md, "Many active games", issue 31). Collecting the young
generation every 20,000 allocations instead moves far fewer in-flight objects on (each
collection sees about the same few thousand, thirty times less often). Measured there at
thresholds of 10,000, 50,000 and 100,000: 0.078, 0.050 and 0.051 ms of collector per move; a
young collection then takes about 1.4 µs an object (14 ms at 10,000, 67 ms at 50,000: a pause
of the event loop), so 20,000 keeps most of the saving with pauses near 30 ms. Memory held
by cyclic garbage between collections stays bounded by the same count, a few MB.

Nothing else changes: objects without cycles are freed by their reference counts as before,
and `gc.freeze()` after start-up (bot_app/adapter/client.py) still keeps what start-up loaded out
of full collections.
"""

from __future__ import annotations

import gc

# Container allocations (net of frees) between two collections of the youngest generation.
YOUNG_THRESHOLD = 20_000
# Collections of the youngest generation between two of the middle one.
MIDDLE_THRESHOLD = 20


def tune_collector() -> tuple[int, int, int]:
    """Set the collector's thresholds for a long-running bot process (the oldest generation's
    is left as it is); returns the thresholds it had before."""
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, before[2])
    return before
