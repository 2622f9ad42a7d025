"""Hooks on the window's frames."""

from __future__ import annotations

from collections.abc import Callable


def after_first_flip(callback: Callable[[], None]) -> None:
    """Call `callback` once, right after the first frame is on screen: the window's first
    flip, then the next clock tick (bound handlers run before the flip itself)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    def flipped(*_):
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: callback(), 0)

    Window.bind(on_flip=flipped)
