"""A set-up, what one tab of the camera set-up screen edits: the shapes dragged over the
picture, what to lay where to learn colours, the learning itself (measured by the readers'
own code) and the calibration file the set-up becomes; and what set-ups share.

Every file is written atomically and the one it replaces is kept as `<name>.previous.json`;
nothing is written until `accept()`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from companion import files
from companion.ui.calib_geometry import Rect, Shape, scaled
from vision.calibration import previous_path
from vision.classify import Prototype
from vision.errors import CalibrationError

LIGHT = "daylight"  # the simulated room while setting up


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` by `text` (temp file, fsync, rename), keeping the old file as
    `<name>.previous.json`: a power cut leaves the old file or the new one."""
    if path.exists():
        files.write_atomically(previous_path(path), path.read_bytes())
    files.write_atomically(path, text.encode("utf-8"))


def saved(path: Path) -> str:
    kept = previous_path(path)
    return f"Saved {path.name}" + (
        f"; the old one is kept as {kept.name}." if kept.exists() else "."
    )


def letters(colours) -> str:
    from companion.ui.colours import label

    return " ".join(label(c) for c in colours)


def merged(old: tuple[Prototype, ...], new: tuple[Prototype, ...]) -> tuple[Prototype, ...]:
    """The new prototypes, and the old ones of every colour not learnt again."""
    fresh = {p.colour for p in new}
    return new + tuple(p for p in old if p.colour not in fresh)


def fitted(shapes: dict[str, Shape], was: tuple[int, int] | None, now: tuple[int, int]):
    """Shapes of a calibration made for frames of size `was`, for frames of size `now`."""
    if not was or tuple(was) == tuple(now):
        return shapes
    sx, sy = now[0] / was[0], now[1] / was[1]
    return {k: scaled(s, sx, sy) for k, s in shapes.items()}


def as_rect(r) -> Rect:
    return Rect(*(float(v) for v in r))


class Setup:
    """Common to every set-up: `shapes` (name -> shape, frame pixels), `labels` (what the
    overlay writes beside a shape), `changed` (something not yet accepted).

    The screen's optional rows: a stepper (`stepper()` its text, "" for none; `step(+-1)`)
    and a choice (`choice()`, `next_choice()`). A tab that names colours by hand (its
    `Tab.naming`) leaves in `found` what `learn()` found (`shape` (rows, columns) and a
    first guess at each spot's colour, `guesses`), offers `colours`, and learns the names a
    person gave with `learn_named(found, names)` ("grey": not named)."""

    path: Path
    fixed: frozenset[str] = frozenset()  # shapes found in the picture, shown but not dragged
    found: Any = None
    colours: tuple[str, ...] = ()

    def __init__(self, frame_size: tuple[int, int]) -> None:
        self.frame_size = (int(frame_size[0]), int(frame_size[1]))
        self.shapes: dict[str, Shape] = {}
        self.changed = False
        self.note = ""  # what loading the file in force said

    def _open(self, load, default, what: str = "") -> tuple[Any, bool]:
        """The set-up in the file (`load(path)`), else `default()`, with `note` saying which:
        (the set-up, whether it came from the file)."""
        try:
            base = load(self.path)
        except (CalibrationError, OSError) as exc:
            self.note = (
                f"No {what}set-up yet: start from the usual layout"
                if not self.path.exists()
                else f"{exc}; starting from the usual layout"
            )
            return default(), False
        self.note = f"Set-up in force: {self.path.name}"
        return base, True

    def labels(self) -> dict[str, str]:
        return {name: name for name in self.shapes}

    def move(self, name: str, shape: Shape) -> None:
        self.shapes[name] = shape
        self.changed = True

    def stepper(self) -> str:
        return ""

    def step(self, direction: int) -> None:
        pass

    def choice(self) -> str:
        return ""

    def next_choice(self) -> None:
        pass

    def learn_named(self, found, names) -> str:
        raise NotImplementedError

    def instructions(self) -> str:
        raise NotImplementedError

    def learn(self, empty: np.ndarray | None, frame: np.ndarray) -> str:
        raise NotImplementedError

    def accept(self) -> str:
        raise NotImplementedError

    def scene(self, laid: bool, i: int) -> np.ndarray:
        """The simulated table's camera frame, bare or with the things to learn laid out."""
        raise NotImplementedError
