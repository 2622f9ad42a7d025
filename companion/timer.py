"""PhaseTimer: a countdown defined by a deadline, so it never drifts however it is polled."""

from __future__ import annotations

from dataclasses import dataclass

from companion.clock import Clock
from companion.cues import TimeWarning

DEFAULT_WARNINGS = (10, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class Expired:
    """Returned once by PhaseTimer.poll when the countdown reaches zero."""


EXPIRED = Expired()


class PhaseTimer:
    """A countdown of `duration` seconds on `clock`.

    `poll()` returns what happened since the last poll, in order: one TimeWarning cue per
    threshold crossed (each fires once, even if several were crossed between two polls) and
    EXPIRED once. Pause, resume and add_time move the deadline, never a tick counter.
    """

    def __init__(self, clock: Clock, duration: float, warnings=DEFAULT_WARNINGS) -> None:
        if duration <= 0:
            raise ValueError(f"a timer needs a positive duration, not {duration}")
        self.clock = clock
        self.duration = float(duration)
        self.warnings = tuple(sorted({int(w) for w in warnings if 0 < w < duration}, reverse=True))
        self._deadline: float | None = None
        self._paused_left: float | None = self.duration  # not started counts as paused at full
        self._fired: set[int] = set()
        self._expired_fired = False

    # state ----------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._deadline is not None

    @property
    def paused(self) -> bool:
        return self._deadline is None and not self._expired_fired

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def remaining(self) -> float:
        if self._deadline is None:
            return max(0.0, self._paused_left or 0.0)
        return max(0.0, self._deadline - self.clock.now())

    # control --------------------------------------------------------------
    def start(self, remaining: float | None = None) -> PhaseTimer:
        """Start (or restart) counting down from `remaining` (default: the full duration)."""
        left = self.duration if remaining is None else float(remaining)
        self._fired = {w for w in self.warnings if w >= left}
        self._expired_fired = False
        self._paused_left = None
        self._deadline = self.clock.now() + left
        return self

    def pause(self) -> None:
        if self._deadline is not None:
            self._paused_left = self.remaining()
            self._deadline = None

    def resume(self) -> None:
        if self._deadline is None and self._paused_left is not None:
            self._deadline = self.clock.now() + self._paused_left
            self._paused_left = None

    def add_time(self, seconds: float) -> None:
        """Give more (or, negative, less) time; warnings above the new remaining re-arm."""
        if self._deadline is not None:
            self._deadline += seconds
        else:
            self._paused_left = max(0.0, (self._paused_left or 0.0) + seconds)
        left = self.remaining()
        if left > 0:
            self._expired_fired = False
        self._fired = {w for w in self._fired if w >= left}

    # polling ----------------------------------------------------------------
    def poll(self) -> list:
        """Everything that fired since the last poll, oldest first."""
        left = self.remaining()
        out: list = []
        for w in self.warnings:
            if left <= w and w not in self._fired:
                self._fired.add(w)
                out.append(TimeWarning(w))
        if left <= 0 and not self._expired_fired:
            self._expired_fired = True
            out.append(EXPIRED)
        return out

    def __repr__(self) -> str:
        state = "running" if self.running else "paused"
        return f"<PhaseTimer {state} {self.remaining():.1f}/{self.duration:.0f}s>"
