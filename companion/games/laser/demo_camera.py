"""The camera of `companion demo laser`: the app's real readers over the simulated table's
frames (vision.card_zones for the centre, vision.ring_reader for the ring), each reading
posted to the table runtime as the camera link would, with the time each frame took."""

from __future__ import annotations

import functools
import time

from companion.runtime import Runtime

from .board import COLOURS
from .simtable import SimulatedLaserTable

STILL = 2  # still frames after each change: the card and refill checks want two that agree
TRAINING = 24  # rendered boards the ring reader learns its colours from
WAIT = 10.0  # seconds to wait for the runtime to handle the camera's readings


@functools.lru_cache(maxsize=1)
def _readers():
    """The ring reader (its colours learnt from rendered boards) and the card calibration."""
    from vision.render_cards import seat_calibration
    from vision.render_ring import ring_calibration, training_frames
    from vision.ring_reader import RingReader, learn_ring

    return RingReader(learn_ring(ring_calibration(), training_frames(TRAINING))), seat_calibration()


class Camera:
    """The real readers over the simulated table's frames; posts what they read."""

    def __init__(self, runtime: Runtime, table: SimulatedLaserTable, hands: bool) -> None:
        self.runtime, self.table, self.hands = runtime, table, hands
        self.ring_reader, self.card_cal = _readers()
        self.cards = None
        self.last_ring = None  # the last reading of the ring without a hand in view
        self.ms: dict[str, list[float]] = {"ring": [], "cards": []}

    def new_round(self) -> None:
        from vision.card_zones import ZoneReader
        from vision.render_cards import CENTRE

        self.cards = ZoneReader(
            self.card_cal, COLOURS, zones=[CENTRE], background=self.table.empty_centre()
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
            event = reading.event()
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
