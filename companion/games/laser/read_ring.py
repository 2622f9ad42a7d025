"""The Laser ring reader's adapter (see companion.runtime.readers; Laser's camera module
brings it): a RingRead for each stable reading of the ring, that is one seen the same in
`STEADY` frames in a row with no hand over the ring, and only when it differs from the last
one posted (a new spec key, a new round, posts it again): the game's interpret gets news,
not a stream of repeats.

The reader finds the ring as laid for the game on its empty frame (tiles and colour cards
with nothing on them): the simulated table draws it; with a real camera it is the first
frame the camera shows this game with the ring empty. Until the camera has seen the ring
empty, nothing is read (said once): the board is entered by touch."""

from __future__ import annotations

import functools

from companion import paths
from companion.game import ReaderSpec
from companion.runtime.readers import SETTLED_GAP, STALE_FRAMES, CalibrationFile, Setup

from .rules import GAME
from .sensing.ring import ring_read

STEADY = 2  # frames in a row that must agree (a figure being put down, a hand leaving)
RING = CalibrationFile(
    "ring",
    "Laser ring",
    lambda file: paths.calibration_path(file.parent, "ring"),
    "The camera does not know the Laser ring yet: enter the board by touch, and "
    "set the ring up in Settings, Camera set-up.",
)


@functools.cache
def rendered_ring_calibration():
    """The rendered ring's calibration, learnt as a person sets the ring up (about a
    second: learnt once per run, not once per game)."""
    from vision.render.ring import ring_calibration

    return ring_calibration()


def ring_calibration(setup: Setup):
    def real(path):
        from vision.ring.calibration import load

        return load(path)

    return setup.calibration(RING, rendered_ring_calibration, real)


class RingAdapter:
    still_gap = SETTLED_GAP  # it waits for STEADY frames only

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.reader = None  # vision.ring.reader.RingReader once calibrated
        self._found = False  # ... and the ring found on its empty frame
        self._told = False  # people were told the camera waits for the empty ring
        self._spec: ReaderSpec | None = None
        self.off = False
        self._gist = None  # what the last frame read, and in how many frames in a row
        self._seen = 0
        self._posted = None  # (spec key, gist) of the last reading posted
        self._key = None  # the spec key the frames in a row were read for ...
        self._stale = 0  # ... and frames still to skip since it changed

    def want(self, spec: ReaderSpec | None) -> None:
        self._spec = spec

    def read(self, image) -> list:
        spec = self._spec
        if spec is None or self.off:
            return []
        if self.reader is None and not self._open():
            return []
        if not self._found and not self._find(image):
            return []
        if spec.key != self._key:
            # A new question of the ring (the board, the refill, the demonstration): a
            # steady view starts afresh, after the frames taken before it was asked.
            self._key, self._gist, self._seen, self._stale = spec.key, None, 0, STALE_FRAMES
        if self._stale:
            self._stale -= 1
            return []
        reading = self.reader.read(image)
        self.setup.reading.set()
        if reading.hand:
            self._gist, self._seen = None, 0
            return []
        gist = (reading.tiles, tuple(reading.spares.items()), reading.asked, reading.asked_cards)
        self._seen = self._seen + 1 if gist == self._gist else 1
        self._gist = gist
        if self._seen < STEADY or (spec.key, gist) == self._posted:
            return []
        self._posted = (spec.key, gist)
        return [ring_read(reading)]

    def _open(self) -> bool:
        from companion.errors import CompanionError
        from vision.ring.reader import RingReader

        calibration = ring_calibration(self.setup)
        try:
            self.reader = calibration and RingReader(
                calibration, ask_threshold=self.setup.ask_threshold
            )
        except CompanionError as exc:
            self.setup.on_cue(_cannot(exc))
        if not self.reader:
            self.off = True
        return bool(self.reader)

    def _find(self, image) -> bool:
        """The ring found on its empty frame: the simulated table's, or this frame if the
        ring in it is empty. False (nothing to read yet) otherwise."""
        from companion.cues import Announce
        from vision.layout import CameraMoved

        scene = self.setup.scene
        empty = scene.part(GAME.name).ring.empty_frame() if scene is not None else image
        try:
            self.reader.find(empty)
        except CameraMoved as exc:
            self.setup.on_cue(_cannot(exc))
            self.off = True
            return False
        busy = self.reader.not_empty()
        if busy and scene is None:
            if not self._told:
                self._told = True
                self.setup.on_cue(Announce(WAITING))
            return False
        self._found = True
        return True


WAITING = (
    "The camera reads the Laser ring once it has seen it empty this game (tiles and colour "
    "cards laid, no figures on them); until then, enter the board by touch."
)


def _cannot(exc):
    from companion.cues import Announce

    return Announce(f"The camera cannot read the Laser ring ({exc}); enter the board by touch.")
