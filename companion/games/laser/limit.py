"""How long a Laser solver call may search before it answers "not solved".

Two cards solve in milliseconds, but the engine allows six, and a position file may hold
more: their searches can run for minutes. A `Limit` counts the states the searches expand
and stops them past `work` states or `seconds` of wall-clock time, whichever comes first.
The rules pass a work limit only, so a replayed game log makes the very same proposals on a
slower or busier machine; the command line and the screens may pass seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

_CHECK_EVERY = 64  # expanded states between looks at the clock


class LimitReached(Exception):
    """A search stopped at its limit; the question stays open."""


class Limit:
    def __init__(
        self,
        seconds: float | None = None,
        work: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if seconds is None and work is None:
            raise ValueError("a limit needs seconds, work or both")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        if work is not None and work < 1:
            raise ValueError(f"work must be at least 1, not {work!r}")
        self.seconds, self.work, self.clock = seconds, work, clock
        self.spent = 0
        self._deadline = None if seconds is None else clock() + seconds
        self._next = self._next_look()

    def _next_look(self) -> int:
        nxt = self.spent + _CHECK_EVERY if self._deadline is not None else 1 << 62
        return nxt if self.work is None else min(nxt, self.work + 1)

    def spend(self) -> None:
        """Count one expanded state; raise LimitReached past the limit."""
        self.spent += 1
        if self.spent >= self._next:
            if self.work is not None and self.spent > self.work:
                raise LimitReached(self.describe())
            if self._deadline is not None and self.clock() >= self._deadline:
                raise LimitReached(self.describe())
            self._next = self._next_look()

    def describe(self) -> str:
        """The limit in words: "not solved within 5 s"."""
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        if self.work is not None:
            parts.append(f"{self.work} searched states")
        return "not solved within " + " or ".join(parts)
