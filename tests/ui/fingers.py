"""A finger on a real Kivy window: widgets placed in the 800x480 window, touches dispatched
through Kivy's event loop (grabs, collisions, the screen's own guards all take part)."""

from __future__ import annotations

from kivy.tests.common import UnitTestTouch

from companion.ui.render import ensure_window, pump

TAP_SECONDS = 0.08  # how long a quick finger stays on the glass


def on_window(widget, size=(800, 480)):
    """Show `widget` filling the window, laid out as people see it."""
    window = ensure_window(size)
    if widget.parent is not None:
        widget.parent.remove_widget(widget)
    window.add_widget(widget)
    widget.size_hint = (None, None)
    widget.size = size
    widget.pos = (0, 0)
    pump()
    return window


def off_window(widget) -> None:
    if widget.parent is not None:
        widget.parent.remove_widget(widget)
    widget.size_hint = (1, 1)


def centre(widget) -> tuple[float, float]:
    return widget.to_window(*widget.center)


def tap(x: float, y: float, at: float, hold: float = TAP_SECONDS) -> None:
    """A finger down at (x, y) at time `at` (touch time, seconds) and up `hold` later."""
    touch = UnitTestTouch(x, y)
    touch.time_start = touch.time_update = at
    touch.touch_down()
    touch.time_update = touch.time_end = at + hold
    touch.touch_up()
    pump(1)


def drag(points, at: float, step: float = 0.03) -> None:
    """A finger down on the first point, moving through the rest, up on the last."""
    (x, y), rest = points[0], points[1:]
    touch = UnitTestTouch(x, y)
    touch.time_start = touch.time_update = at
    touch.touch_down()
    for i, (x, y) in enumerate(rest, 1):
        touch.touch_move(x, y)
        touch.time_update = at + i * step
    touch.time_end = touch.time_update
    touch.touch_up()
    pump(1)
