"""A sensor that reports more balls than can pass is faulty: a beam flickering in sunlight, a
chute board babbling on its serial line. Its readings are ignored until it calms, and its
status says so, so a broken part never plays a round by itself.

Balls leave the mill one after another, five a round and a few more between rounds; a turn of
the wings takes a second or more. More than MOST balls within WITHIN seconds cannot happen
(two rounds' worth in two seconds), so a sensor reporting them is flagged; it counts as calm
again once no more than CALM readings came in the last WITHIN seconds.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable

from companion.clock import Clock, MonotonicClock

MOST = 10
WITHIN = 2.0
CALM = 2


class RateGuard:
    """`admit()` for every reading of one sensor: False while the sensor is faulty.
    `on_change(text)` is called when it turns faulty (a message) or calms again (None)."""

    def __init__(
        self,
        name: str,
        *,
        most: int = MOST,
        within: float = WITHIN,
        calm: int = CALM,
        clock: Clock | None = None,
        on_change: Callable[[str | None], None] | None = None,
    ) -> None:
        self.name = name
        self.most, self.within, self.calm = most, within, calm
        self.clock = clock or MonotonicClock()
        self.on_change = on_change
        self.ignored = 0  # readings dropped while faulty, for the status and the doctor
        self._times: collections.deque[float] = collections.deque(maxlen=most + 1)
        self._faulty = False
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<RateGuard {self.name}: {self.status()}>"

    def admit(self) -> bool:
        now = self.clock.now()
        with self._lock:
            self._times.append(now)
            if not self._faulty:
                if len(self._times) > self.most and now - self._times[0] < self.within:
                    self._faulty, changed = True, True
                else:
                    return True
            elif self._recent(now) <= self.calm:
                self._faulty, changed = False, True
            else:
                changed = False
            faulty = self._faulty
            if faulty:
                self.ignored += 1
        if changed:
            self._tell()
        return not faulty

    @property
    def faulty(self) -> bool:
        """Faulty now: a sensor that fell silent has calmed down by itself."""
        with self._lock:
            if self._faulty and self._recent(self.clock.now()) <= self.calm:
                self._faulty = False
                calmed = True
            else:
                calmed = False
            faulty = self._faulty
        if calmed:
            self._tell()
        return faulty

    def status(self) -> str | None:
        """A line for people while faulty, else None."""
        if not self.faulty:
            return None
        return (
            f"FAULTY: more than {self.most} balls in {self.within:g} s, more than can pass; "
            f"its readings are ignored until it calms ({self.ignored} so far)"
        )

    def _recent(self, now: float) -> int:
        return sum(1 for t in self._times if now - t < self.within)

    def _tell(self) -> None:
        if self.on_change is not None:
            self.on_change(self.status() if self._faulty else None)
