"""Colour Race at the camera (see companion.games): a reader of its own kind, "die", that
sees the die land in its tray (a box in the middle of the picture), and its part of the
simulated table, where "Lay card" rolls the die into the tray and the next player picks it
up once the roll is in. Nothing shared knows of either: the catalogue finds this module."""

from __future__ import annotations

from companion.runtime.readers import SETTLED_GAP, STALE_FRAMES
from companion.runtime.sim_scene import ScenePart

from .camera_setup import BGR
from .rules import POINTS, DieSeen

TABLE = (60, 60, 60)  # the empty tray's grey (BGR)
SIZE = (640, 480)


def tray(image):
    """The middle fifth of the picture, where the die's tray lies."""
    h, w = image.shape[:2]
    return image[int(h * 0.4) : int(h * 0.6), int(w * 0.4) : int(w * 0.6)]


def face(image) -> str | None:
    """The colour of the die in the tray, or None: the tray is empty."""
    import numpy as np

    seen = tray(image).reshape(-1, 3).mean(axis=0)
    faces = {None: TABLE, **{c: BGR[c] for c in POINTS}}
    return min(faces, key=lambda c: float(np.linalg.norm(seen - faces[c])))


class DieReader:
    """A DieSeen for the die seen in the tray, once a turn (`ReaderSpec.key`), after the
    frames the camera took before the turn began."""

    still_gap = SETTLED_GAP  # it reads a die once it lies still

    def __init__(self, setup) -> None:
        self.setup = setup
        self.off = False  # nothing to calibrate: it can always read
        self._spec = None
        self._key = None  # the turn the frames are read for ...
        self._stale = 0  # ... the frames still to skip since it began
        self._posted = None  # ... and the turn whose roll was posted

    def want(self, spec) -> None:
        self._spec = spec

    def read(self, image) -> list:
        spec = self._spec
        if spec is None:
            return []
        if spec.key != self._key:
            self._key, self._stale = spec.key, STALE_FRAMES
        self.setup.reading.set()
        if self._stale:
            self._stale -= 1
            return []
        colour = face(image)
        if colour is None or self._posted == spec.key:
            return []
        self._posted = spec.key
        return [DieSeen(colour)]


class DieTray(ScenePart):
    """The die's tray on the simulated table, as the camera sees it."""

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.die: str | None = None  # the face up of the die in the tray, if one lies there
        self._turn = None
        self._pictures: dict = {}

    def play(self, state) -> None:
        super().play(state)
        self.die, self._turn = None, state.turn

    def follow(self, state, kinds: set[str]) -> None:
        if state.turn != self._turn:  # the roll is in: the next player picks the die up
            self.die, self._turn = None, state.turn
        self.scene.view = self

    def act(self, what: str, state, kinds: set[str]) -> str | None:
        if what != "lay":
            return None
        if self.die is not None:
            return "The die lies in its tray."
        self.die = self.scene.rng.choice(tuple(POINTS))
        return f"{state.current} rolls {self.die}"

    def frame(self, i: int):
        import numpy as np

        die = self.die
        if die not in self._pictures:
            w, h = SIZE
            picture = np.full((h, w, 3), TABLE, np.uint8)
            if die is not None:
                tray(picture)[:] = BGR[die]
            self._pictures[die] = picture
        return self._pictures[die]


READERS = {"die": DieReader}
SCENE_PART = DieTray
