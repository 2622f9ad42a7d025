"""How fast this machine runs Python, measured, for tests whose waits are bounds against a
hang rather than speed targets: a wait sized on the development machine is stretched by how
much slower this one is (a Pi 3, or qemu's user emulation at 10-15 times slower)."""

from __future__ import annotations

import functools
import time

# CPU seconds the loop below takes on the 2-core development machine the waits were sized on.
REFERENCE_SECONDS = 0.02


def _loop() -> float:
    started = time.process_time()
    counts: dict[int, int] = {}
    for i in range(200_000):
        counts[i % 1000] = counts.get(i % 1000, 0) + i * 3
    return time.process_time() - started


@functools.cache
def slowness() -> float:
    """How many times slower than the development machine this one runs Python; never
    below 1, so a fast machine keeps the waits as written."""
    return max(1.0, min(_loop() for _ in range(3)) / REFERENCE_SECONDS)


def patience(seconds: float) -> float:
    """A wait of `seconds` on the development machine, on this one."""
    return seconds * slowness()
