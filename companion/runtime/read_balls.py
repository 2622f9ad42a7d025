"""The ball reader's adapter (see companion.runtime.readers): each confirmed ball in the tray
becomes a BallSeen. A new spec key is a new round: the tray was emptied, the reader starts
again from the empty tray."""

from __future__ import annotations

import threading

from companion.cues import Announce
from companion.game import ReaderSpec
from companion.runtime.readers import STALE_FRAMES, STILL_GAP, CalibrationFile, Setup
from vision.registration import MOVED

BALLS = CalibrationFile(
    "balls",
    "camera",
    lambda file: file,
    "The camera is not calibrated yet: tap the balls and cards in, and set the "
    "camera up in Settings, Camera set-up.",
)


def ball_calibration(setup: Setup):
    """The ball camera's calibration (it holds the card zones too)."""

    def simulated():
        from vision.render.cards import seat_calibration
        from vision.render.tray import clear_caches

        calibration = seat_calibration()  # rendered_calibration with the seat zones
        clear_caches()  # every light was rendered for it; the tray needs one
        return calibration

    def real(path):
        from vision.calibration import CalibrationStore

        return CalibrationStore(path).load()

    return setup.calibration(BALLS, simulated, real)


class BallAdapter:
    still_gap = STILL_GAP  # a ball in doubt is asked after `patience` frames read

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.reader = None  # vision.balls.BallReader once calibrated
        self.off = False
        self._on = False
        self._key: str | None = None
        self._new_round = threading.Event()
        self._stale = 0
        self._told = False  # "the camera has moved" said this round

    def want(self, spec: ReaderSpec | None) -> None:
        if spec is None:
            self._on = False
            return
        if spec.key != self._key:
            if self._key is not None and self.setup.scene is not None:
                self.setup.scene.tray.clear()  # a new round: the tray was emptied
            # (the first spec may be a round resumed mid-way: its balls still lie there)
            self._key = spec.key
            self._new_round.set()
        self._on = True

    def read(self, image) -> list:
        if not self._on:
            return []
        if self.reader is None:
            calibration = ball_calibration(self.setup)
            if calibration is None:
                self.off = True
                return []
            from vision.balls import BallReader

            self.reader = BallReader(calibration, ask_threshold=self.setup.ask_threshold)
        if self._new_round.is_set():
            self._new_round.clear()
            # On the simulated table the empty tray is known; a real one is the next frame.
            # (balls may already be rolling in: the empty tray is drawn without them)
            scene = self.setup.scene
            self.reader.reset(background=scene.empty_tray() if scene else None)
            self.setup.round_began = image  # the table as a round begins: no cards laid yet
            self._told = False
            self._stale = STALE_FRAMES
            return []  # this frame may predate the emptied tray
        if self._stale:
            self._stale -= 1  # ... and so may the camera's next one and the one in capture
            return []
        events = self.reader.feed(image)
        if self.reader.moved and not self._told:
            self._told = True  # said once a round: the balls are tapped in meanwhile
            self.setup.on_cue(Announce(MOVED))
        self.setup.reading.set()
        return events
