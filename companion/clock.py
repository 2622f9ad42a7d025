"""Injectable monotonic clocks. Everything that needs time asks a clock; tests use FakeClock."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale; only differences mean anything."""
        ...


class MonotonicClock:
    """The real clock: time.monotonic()."""

    def now(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "<MonotonicClock>"


class FakeClock:
    """A clock that moves only when told to. Thread-safe, so hardware tests can share it."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a monotonic clock cannot go back")
        with self._lock:
            self._now += seconds
            return self._now

    def __repr__(self) -> str:
        return f"<FakeClock now={self._now:.3f}>"
