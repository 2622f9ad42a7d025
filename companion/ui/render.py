"""Render any widget headless to a PNG, in-process. Used by `run --screenshot` and UI tests."""

from __future__ import annotations

from pathlib import Path


def ensure_window(size=(800, 480)):
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.ui.frames import finish_offscreen_frames

    EventLoop.ensure_window()
    finish_offscreen_frames()
    if tuple(Window.size) != tuple(size):
        Window.size = size
    return Window


def pump(frames: int = 4) -> None:
    """Let Kivy lay out and draw: a few clock ticks and idle passes."""
    from kivy.base import EventLoop
    from kivy.clock import Clock

    for _ in range(frames):
        Clock.tick()
        EventLoop.idle()


def render_to_png(widget, path, size=(800, 480)) -> Path:
    """Draw `widget` filling a window of `size` and save it as a PNG at `path`."""
    window = ensure_window(size)
    parent = widget.parent
    if parent is not None:
        parent.remove_widget(widget)
    window.add_widget(widget)
    widget.size_hint = (None, None)
    widget.size = size
    widget.pos = (0, 0)
    try:
        pump()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        widget.export_to_png(str(path))
    finally:
        window.remove_widget(widget)
        widget.size_hint = (1, 1)
    return path
