"""The camera of `companion demo laser`: the app's real readers over the simulated table's
frames (vision.card_zones for the centre, vision.ring for the ring, found on the
game's empty ring), each reading
posted to the table runtime as the camera link would, with the time each frame took."""

from __future__ import annotations

import functools
import time

from companion.runtime import Runtime

from ..board import COLOURS
from ..sensing.cards import CARD_SET
from ..sensing.ring import ring_read
from .simtable import SimulatedLaserTable

STILL = 2  # still frames after each change: the card and refill checks want two that agree
WAIT = 10.0  # seconds to wait for the runtime to handle the camera's readings


@functools.lru_cache(maxsize=1)
def _calibrations():
    """The ring's calibration (learnt as a person sets it up) and the cards'."""
    from vision.render.cards import seat_calibration
    from vision.render.ring import ring_calibration

    return ring_calibration(), seat_calibration()


class Camera:
    """The real readers over the simulated table's frames; posts what they read."""

    def __init__(self, runtime: Runtime, table: SimulatedLaserTable, hands: bool) -> None:
        from vision.ring.reader import RingReader

        self.runtime, self.table, self.hands = runtime, table, hands
        ring_cal, self.card_cal = _calibrations()
        self.ring_reader = RingReader(ring_cal)
        self.ring_reader.find(table.empty_ring())  # the ring as laid for this game
        self.cards = None
        self.last_ring = None  # the last reading of the ring without a hand in view
        self.ms: dict[str, list[float]] = {"ring": [], "cards": []}

    def new_round(self) -> None:
        from vision.card_zones import ZoneReader
        from vision.render.cards import CENTRE

        self.cards = ZoneReader(
            self.card_cal,
            COLOURS,
            zones=[CENTRE],
            background=self.table.empty_centre(),
            colour_set=CARD_SET,
        )

    def watch_ring(self, still: int = STILL) -> None:
        """A hand lays or takes something, then the ring lies still for `still` frames."""
        hands = [True] * self.hands + [False] * still
        self.watch_frames([self.table.ring_frame(hand=hand) for hand in hands])

    def watch_frames(self, frames: list) -> None:
        """Frames of the ring, each read and posted in order."""
        for frame in frames:
            started = time.perf_counter()
            reading = self.ring_reader.read(frame)
            self.ms["ring"].append(1000 * (time.perf_counter() - started))
            event = ring_read(reading)
            if not event.hand:
                self.last_ring = event
            self.runtime.post(event)
        self.runtime.drain(WAIT)

    def watch_centre(self) -> None:
        from companion.card_readings import ZoneRead

        for hand in [True] * self.hands + [False] * STILL:
            frame = self.table.centre_frame(hand=hand)
            started = time.perf_counter()
            views = self.cards.read(frame)
            self.ms["cards"].append(1000 * (time.perf_counter() - started))
            for view in views:
                if not view.blocked:  # a hand over the centre: no reading at all
                    self.runtime.post(ZoneRead.of(view))
        self.runtime.drain(WAIT)
