"""The rules engine: pure, deterministic, replayable (see docs/engine.md)."""
