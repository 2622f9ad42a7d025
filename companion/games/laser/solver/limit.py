"""How long a Laser solver call may search before it answers "not solved".

Two cards solve in milliseconds, but the engine allows six, and a position file may hold
more: their searches can run for minutes. A `Limit` counts the states the searches expand
and stops them past `work` states, `seconds` of wall-clock time or `megabytes` more memory
than the process had when the search began, whichever comes first (each state searched is
kept: memory grows with the search). The rules pass a work limit only, so a replayed game
log makes the very same proposals on a slower or busier machine; the command line and the
screens may pass seconds and megabytes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

_CHECK_EVERY = 64  # expanded states between looks at the clock
# Memory a search asked for by a person may add (the command line, the demo): six cards
# searched for minutes would take gigabytes. Enough for every real round many times over.
SEARCH_MEGABYTES = 256


class LimitReached(Exception):
    """A search stopped at its limit; the question stays open."""


class Limit:
    def __init__(
        self,
        seconds: float | None = None,
        work: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        megabytes: float | None = None,
    ) -> None:
        if seconds is None and work is None and megabytes is None:
            raise ValueError("a limit needs seconds, work, megabytes or some of them")
        if megabytes is not None and not megabytes > 0:
            raise ValueError(f"megabytes must be more than 0, not {megabytes!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        if work is not None and work < 1:
            raise ValueError(f"work must be at least 1, not {work!r}")
        self.seconds, self.work, self.clock = seconds, work, clock
        self.megabytes = megabytes
        self.spent = 0
        self._deadline = None if seconds is None else clock() + seconds
        base = resident_bytes() if megabytes is not None else None
        self._ceiling = None if base is None else base + megabytes * 2**20
        self._next = self._next_look()

    def _next_look(self) -> int:
        looks = self._deadline is not None or self._ceiling is not None
        nxt = self.spent + _CHECK_EVERY if looks else 1 << 62
        return nxt if self.work is None else min(nxt, self.work + 1)

    def spend(self) -> None:
        """Count one expanded state; raise LimitReached past the limit."""
        self.spent += 1
        if self.spent >= self._next:
            if self.work is not None and self.spent > self.work:
                raise LimitReached(self.describe())
            if self._deadline is not None and self.clock() >= self._deadline:
                raise LimitReached(self.describe())
            if self._ceiling is not None and (resident_bytes() or 0) > self._ceiling:
                raise LimitReached(self.describe())
            self._next = self._next_look()

    def describe(self) -> str:
        """The limit in words: "not solved within 5 s"."""
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        if self.work is not None:
            parts.append(f"{self.work} searched states")
        if self.megabytes is not None:
            parts.append(f"{self.megabytes:g} MB of memory")
        return "not solved within " + " or ".join(parts)


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
