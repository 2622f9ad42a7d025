"""A finger on a real Kivy window: widgets placed in the 800x480 window, touches dispatched
through Kivy's event loop (grabs, collisions and the window's touch guard all take part).

The guard runs on a FakeClock that each touch moves to its own time (`at`), so a test says
when each finger lands; the touch's wall-clock stamp is `at` too unless `stamp` says else."""

from __future__ import annotations

import time

from kivy.tests.common import UnitTestTouch

from companion.clock import FakeClock
from companion.ui import touch_guard
from companion.ui.render import ensure_window, pump

TAP_SECONDS = 0.08  # how long a quick finger stays on the glass


def on_window(widget, size=(800, 480)):
    """Show `widget` filling the window, laid out as people see it."""
    window = ensure_window(size)
    clock = FakeClock(0.0)
    touch_guard.install(window, clock, wall=clock.now)  # touches are stamped on it too
    if widget.parent is not None:
        widget.parent.remove_widget(widget)
    window.add_widget(widget)
    widget.size_hint = (None, None)
    widget.size = size
    widget.pos = (0, 0)
    pump()
    return window


def off_window(widget) -> None:
    touch_guard.uninstall()
    if widget.parent is not None:
        widget.parent.remove_widget(widget)
    widget.size_hint = (1, 1)


def centre(widget) -> tuple[float, float]:
    return widget.to_window(*widget.center)


def clock_to(at: float) -> None:
    """Move the guard's clock on to `at` (never back: it is monotonic)."""
    guard = touch_guard.installed()
    if guard is not None and at > guard.clock.now():
        guard.clock.advance(at - guard.clock.now())


def tap(
    x: float, y: float, at: float, hold: float = TAP_SECONDS, stamp: float | None = None
) -> None:
    """A finger down at (x, y) at time `at` (seconds) and up `hold` later; the touch carries
    the wall-clock `stamp` (default `at`)."""
    stamp = at if stamp is None else stamp
    touch = UnitTestTouch(x, y)
    touch.time_start = touch.time_update = stamp
    clock_to(at)
    touch.touch_down()
    touch.time_update = touch.time_end = stamp + hold
    clock_to(at + hold)
    touch.touch_up()
    pump(1)


def drag(points, at: float, step: float = 0.03) -> None:
    """A finger down on the first point, moving through the rest, up on the last."""
    (x, y), rest = points[0], points[1:]
    touch = UnitTestTouch(x, y)
    touch.time_start = touch.time_update = at
    clock_to(at)
    touch.touch_down()
    for i, (x, y) in enumerate(rest, 1):
        touch.touch_move(x, y)
        touch.time_update = at + i * step
        clock_to(touch.time_update)
    touch.time_end = touch.time_update
    touch.touch_up()
    pump(1)


def settle(seconds: float = 0.25) -> None:
    """Let real time pass: a ScrollView hands a tap to its child 0.2 s after the release."""
    time.sleep(seconds)
    pump(2)
