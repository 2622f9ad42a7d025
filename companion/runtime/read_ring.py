"""The Laser ring reader's adapter (see companion.runtime.readers): a RingRead for each
stable reading of the ring, that is one seen the same in `STEADY` frames in a row with no
hand in view, and only when it differs from the last one posted (a new spec key, a new
round, posts it again): the game's interpret gets news, not a stream of repeats."""

from __future__ import annotations

import functools

from companion.game import ReaderSpec
from companion.runtime.read_balls import STALE_FRAMES
from companion.runtime.readers import Setup

STEADY = 2  # frames in a row that must agree (a figure being put down, a hand leaving)


@functools.cache
def rendered_ring_calibration():
    """The rendered ring's calibration, its colours learnt from rendered boards (some 3 s:
    learnt once per run, not once per game)."""
    from vision.render_ring import ring_calibration, training_frames
    from vision.ring_reader import learn_ring

    return learn_ring(ring_calibration(), training_frames())


def ring_calibration(setup: Setup):
    def real(path):
        from vision.ring_calibration import load

        return load(path)

    return setup.calibration("ring", rendered_ring_calibration, real)


class RingAdapter:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.reader = None  # vision.ring_reader.RingReader once calibrated
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
        if self.reader is None:
            from companion.errors import CompanionError
            from vision.ring_reader import RingReader

            calibration = ring_calibration(self.setup)
            try:
                self.reader = calibration and RingReader(calibration)
            except CompanionError as exc:
                self.setup.on_cue(_cannot(exc))
            if not self.reader:
                self.off = True
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
        return [reading.event()]


def _cannot(exc):
    from companion.cues import Announce

    return Announce(f"The camera cannot read the Laser ring ({exc}); enter the board by touch.")
