"""Hooks on the window's frames."""

from __future__ import annotations

import os
from collections.abc import Callable

_finishing = False


def after_first_flip(callback: Callable[[], None]) -> None:
    """Call `callback` once, right after the first frame is on screen: the window's first
    flip, then the next clock tick (bound handlers run before the flip itself)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    def flipped(*_):
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: callback(), 0)

    Window.bind(on_flip=flipped)


def finish_offscreen_frames() -> None:
    """Under SDL's offscreen driver (tests, screenshots, headless runs) wait for each frame
    to be drawn. There the window is an EGL pbuffer, whose swap ends nothing, so Mesa's
    llvmpipe never finishes a frame: what it queued for every frame with a stencil (Kivy's
    ScreenManager clips through one) stayed in memory, some 0.5-4 MB a frame, and the app
    grew by 40-150 MB for every game opened. A real window's swap finishes the frame."""
    global _finishing
    if _finishing or os.environ.get("SDL_VIDEODRIVER") != "offscreen":
        return
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish

    Window.bind(on_flip=lambda *_: glFinish())
    _finishing = True
