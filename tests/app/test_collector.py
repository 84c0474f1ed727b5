"""app/collector.py: the cycle collector's thresholds for a bot process."""

from __future__ import annotations

import gc

from app.collector import MIDDLE_THRESHOLD, YOUNG_THRESHOLD, tune_collector


def test_tune_collector_sets_the_young_and_middle_thresholds_and_keeps_the_oldest() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 7)
        assert tune_collector() == (700, 10, 7)
        assert gc.get_threshold() == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, 7)
        # Set again, it finds its own settings and keeps them.
        assert tune_collector() == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, 7)
        assert gc.get_threshold() == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, 7)
    finally:
        gc.set_threshold(*before)

