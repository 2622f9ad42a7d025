"""Colour Race's camera set-up (the contract: companion.ui.camera_setup.contract): one tab where
the die's tray is dragged over the picture and the colour of a die laid in it is learnt."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from companion.ui.calib_geometry import Rect
from companion.ui.camera_setup.base import Setup, saved, write_atomically
from companion.ui.camera_setup.contract import Tab

from .rules import POINTS

BGR = {"red": (40, 40, 200), "yellow": (40, 200, 220), "blue": (200, 90, 40)}
LAID = "blue"  # the face the simulated table shows


class DieSetup(Setup):
    """The die's tray, a box; Learn names the colour of the die laid in it, the face of the
    nearest colour; Accept saves the box and the colour learnt."""

    def __init__(self, path: Path, frame_size) -> None:
        super().__init__(frame_size)
        self.path = Path(path)
        w, h = self.frame_size
        usual = Rect(w * 0.4, h * 0.4, w * 0.2, h * 0.2)
        self.shapes = {"die": self._open(_load, lambda: usual, "die ")[0]}
        self.learnt = ""

    def instructions(self) -> str:
        return "Drag the box onto the die's tray. Take the Empty table, lay the die, and Learn."

    def learn(self, empty, frame) -> str:
        if empty is None:
            return "First take the Empty table, with no die in the tray."
        x, y, w, h = self.shapes["die"].whole(self.frame_size)
        seen = frame[y : y + h, x : x + w].reshape(-1, 3).mean(axis=0)
        self.learnt = min(POINTS, key=lambda c: float(np.linalg.norm(seen - BGR[c])))
        self.changed = True
        return f"Learnt the die: {self.learnt}."

    def accept(self) -> str:
        box = self.shapes["die"]
        doc = {"die": [box.x, box.y, box.w, box.h], "colour": self.learnt}
        write_atomically(self.path, json.dumps(doc))
        self.changed = False
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        w, h = self.frame_size
        frame = np.full((h, w, 3), 60, np.uint8)
        if laid:
            x, y, bw, bh = self.shapes["die"].whole(self.frame_size)
            frame[y : y + bh, x : x + bw] = BGR[LAID]
        return frame


def _load(path: Path) -> Rect:
    return Rect(*json.loads(path.read_text())["die"])


TABS = (
    Tab(
        "colour-race-die",
        "Race die",
        lambda data_dir, frame_size, _simulated: DieSetup(data_dir / "race-die.json", frame_size),
        lay="the die in its tray",
    ),
)
