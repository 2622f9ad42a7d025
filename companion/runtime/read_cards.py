"""The card-zone reader's adapter (see companion.runtime.readers): one ZoneRead per card
zone not covered by a hand, every frame while the game wants cards read (the game's
interpret waits for steady readings). Cards are seen against the empty table: drawn on the
simulated one; on a real one the frame taken as the ball round began (before anyone laid a
card), else the first frame read."""

from __future__ import annotations

from companion.cues import Announce
from companion.game import ReaderSpec
from companion.runtime.read_balls import ball_calibration
from companion.runtime.readers import SETTLED_GAP, Setup
from vision.registration import MOVED


class CardAdapter:
    still_gap = SETTLED_GAP  # the game waits for steady readings only

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.cards = None  # vision.card_zones.ZoneReader while the game wants cards read
        self._spec: ReaderSpec | None = None
        self._for: ReaderSpec | None = None  # the spec `cards` was made for
        self.off = False  # the calibration cannot read cards (no zones, no colours)

    def want(self, spec: ReaderSpec | None) -> None:
        self._spec = spec

    def read(self, image) -> list:
        from companion.card_readings import ZoneRead

        spec = self._spec
        if spec is None or self.off:
            self.cards = None
            return []
        if self.cards is None or spec != self._for:
            self._for = spec
            self.cards = self._reader(spec, image)
            return []
        if self.cards.moved:
            self.off = True  # said once; the cards are tapped in until the next set-up
            self.setup.on_cue(Announce(MOVED))
            return []
        out = [  # a hand in a zone: it may hide cards, so no reading of that zone yet
            ZoneRead.of(view, floors=bool(spec.floors))
            for view in self.cards.read(image)
            if not view.blocked and not view.covered
        ]
        self.setup.reading.set()
        return out

    def _reader(self, spec: ReaderSpec, image):
        from companion.errors import CompanionError
        from vision.card_zones import ZoneReader

        calibration = ball_calibration(self.setup)
        if calibration is None:
            self.off = True
            return None
        scene = self.setup.scene
        if scene is not None:
            empty = scene.empty_tray()
        else:
            empty = self.setup.round_began if self.setup.round_began is not None else image
        try:
            return ZoneReader(
                calibration,
                spec.colours,
                background=empty,
                floors=spec.floors,
                colour_set=spec.colour_set,
            )
        except CompanionError as exc:
            self.off = True  # said once; the cards are tapped in from now on
            self.setup.on_cue(Announce(f"The camera cannot read cards ({exc}); tap them in."))
            return None
