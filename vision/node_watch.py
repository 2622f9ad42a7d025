"""Watching the Node table over time: a reading only between steady frames.

`NodeWatcher.feed(frame)` squares each frame up and compares it with the one before: while
anything moves (a hand reaching in, a card sliding) nothing is read. Once the table has held
still for `STEADY` frames, it is compared with the table as last read: a card laid since is
read (vision.node_reader) and the table as it is now becomes the one to compare with. A still
frame that differs too much for one card (a hand resting in view) is not read, and waits.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.node_reader import (
    MIN_CHANGE,
    PX,
    NodeReader,
    NodeReading,
    _change,
    reaches_in,
    thumbnail,
)

STEADY = 2  # frames that must agree before the table is read


class NodeWatcher:
    def __init__(self, reader: NodeReader) -> None:
        self.reader = reader
        self.table: np.ndarray | None = None  # the table as last read (squared up)
        self.view: np.ndarray | None = None  # ... and the whole view then (a thumbnail)
        self._last: np.ndarray | None = None
        self._still = 0
        self.waiting = ""  # why the last steady table was not read ("" when it was)

    def reset(self, table: np.ndarray | None = None) -> None:
        """Start afresh from this frame of the table (None: the next frame fed)."""
        self.table = None if table is None else self.reader.square(table)
        self.view = None if table is None else thumbnail(table)
        self._last, self._still, self.waiting = None, 0, ""

    def feed(self, frame: np.ndarray) -> list[NodeReading]:
        """The readings this frame brings: none, or one card laid (placed or to ask)."""
        now, view = self.reader.square(frame), thumbnail(frame)
        if self.table is None:
            self.table, self.view = now, view
        moved = (
            self._last is None or cv2.countNonZero(_change(self._last, now)) > MIN_CHANGE * PX**2
        )
        self._last = now
        self._still = 0 if moved else self._still + 1
        if self._still + 1 < STEADY:
            return []
        if reaches_in(self.view, view):
            self.waiting = "a hand reaches in from the edge of the view"
            return []
        reading = self.reader.read_squared(self.table, now)
        if reading.status in ("nothing", "unsteady"):
            self.waiting = reading.reason if reading.status == "unsteady" else ""
            return []
        self.table, self.view, self.waiting = now, view, ""
        return [reading]
