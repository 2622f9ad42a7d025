"""Widgets kept while what they show stays the same.

A redraw after a tap makes anew only the widgets whose content changed: making a Kivy widget
(its kv rules, its bindings, its text rendered) is what a redraw costs, and a screen rebuilt
whole for one colour tapped is slow on a Pi. Each widget is named by a key that says
everything it shows; an equal key keeps the widget as it was drawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


class Kept:
    """The children of one container, top to bottom, each made from its key."""

    def __init__(self, container) -> None:
        self.container = container
        self._made: list[tuple[Any, Any]] = []  # (key, widget) as shown now

    def show(self, wanted: Iterable[tuple[Any, Callable[[], Any]]]) -> list:
        """Show the (key, make) pairs: a widget whose key equals the one in its place at the
        last call is kept; the others are made anew with `make()`. Returns the widgets."""
        before, now = self._made, []
        for i, (key, make) in enumerate(wanted):
            same = i < len(before) and before[i][0] == key
            now.append((key, before[i][1] if same else make()))
        self._made = now
        shown = [widget for _, widget in now]
        if self.container.children[::-1] != shown:
            self.container.clear_widgets()
            for widget in shown:
                self.container.add_widget(widget)
        return shown
