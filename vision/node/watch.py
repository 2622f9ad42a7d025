"""Watching the Node table over time: a reading only between steady frames.

`NodeWatcher.reset(frame)` begins a game: the mat's lattice is found in that first frame
(`NodeReader.find`, kept for the whole game) and the table as it lies becomes the one to
compare with. `feed(frame)` squares each frame up and compares it with the one before: while
anything moves (a hand reaching in, a card sliding) nothing is read. Once the table has held
still for `STEADY` frames, it is compared with the table as last read: a card laid since is
read (vision.node) and the table as it is now becomes the one to compare with. A still
frame that differs too much for one card (a hand resting in view) is not read, and waits.

While the lattice cannot be found (`moved`: "The camera has moved: check the camera set-up")
nothing is read, and each frame looks for it again: once the camera is put back, the game
goes on from the table as it then lies.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.layout import CameraMoved
from vision.node.card import MIN_CHANGE
from vision.node.reader import NodeReader
from vision.node.reading import NodeReading
from vision.node.squaring import PX
from vision.registration import MOVED
from vision.segment import DifferenceMask

STEADY = 2  # frames that must agree before the table is read


class NodeWatcher:
    def __init__(self, reader: NodeReader) -> None:
        self.reader = reader
        self.table: np.ndarray | None = None  # the table as last read (squared up)
        self.moved = False  # the lattice cannot be found: nothing is read
        self.waiting = ""  # why the last steady table was not read ("" when it was)
        self._last: np.ndarray | None = None
        self._still = 0

    def reset(self, table: np.ndarray | None = None) -> None:
        """A new game from this frame of the table (None: the next frame fed): the lattice
        is found in it anew."""
        self.table, self._last, self._still, self.waiting, self.moved = None, None, 0, "", False
        self.reader.use(None)
        if table is not None:
            self._begin(table)

    def _begin(self, frame: np.ndarray) -> bool:
        try:
            self.reader.find(frame)
        except CameraMoved:
            self.moved, self.waiting = True, MOVED
            return False
        self.moved, self.waiting = False, ""
        self.table = self.reader.square(frame)
        return True

    def feed(self, frame: np.ndarray) -> list[NodeReading]:
        """The readings this frame brings: none, or one card laid (placed or to ask)."""
        if self.table is None:
            self._begin(frame)
            return []
        now = self.reader.square(frame)
        h, w = now.shape[:2]
        moving = (
            self._last is None
            or cv2.countNonZero(DifferenceMask(self._last, (0, 0, w, h))(now)) > MIN_CHANGE * PX**2
        )
        self._last = now
        self._still = 0 if moving else self._still + 1
        if self._still + 1 < STEADY:
            return []
        reading = self.reader.read_squared(self.table, now)
        if reading.status in ("nothing", "unsteady"):
            self.waiting = reading.reason if reading.status == "unsteady" else ""
            return []
        self.table, self.waiting = now, ""
        return [reading]
