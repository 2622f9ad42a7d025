"""Card reader: coloured cards laid in the configured zones (prediction cards, prism cards).

Each zone is compared with the empty table; card-shaped contours (rectangular, within the
card area limits) are measured on their inner pixels, so the white border and the printed
symbol are left out or outvoted, and classified among the colours the game uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from companion.events import CardSeen
from vision.balls import _white
from vision.calibration import Calibration
from vision.classifier import UNKNOWN
from vision.errors import CalibrationError
from vision.segment import Blob, background_mask, find_blobs, measure

MIN_RECTANGULARITY = 0.8


def detect_cards(
    frame: np.ndarray, background: np.ndarray, cal: Calibration, zones: Iterable[str] | None = None
) -> list[tuple[str, Blob, np.ndarray]]:
    """(zone, blob, Lab) for every card found in the zones (all configured zones by default)."""
    if not cal.card_zones:
        raise CalibrationError("the calibration has no card zones")
    white = _white(frame, cal)
    gain = 1.0
    if cal.white_roi is not None:
        gain = float(np.clip(white.sum() / _white(background, cal).sum(), 0.5, 2.0))
    wanted = None if zones is None else set(zones)
    a_min, a_max = cal.card_area
    out = []
    for name, rect in cal.card_zones:
        if wanted is not None and name not in wanted:
            continue
        mask = background_mask(frame, background, rect, threshold=40, gain=gain)
        for b in find_blobs(mask, offset=rect[:2], min_area=a_min, max_area=a_max,
                            min_rectangularity=MIN_RECTANGULARITY):
            out.append((name, b, measure(frame, b.contour, white)))
    return out


class CardReader:
    """Read the cards in the zones: `read(frame) -> list[CardSeen]`, by zone then left to right.

    `background` is the table without cards (the first frame read when not given).
    """

    def __init__(
        self,
        calibration: Calibration,
        *,
        colours: Iterable[str] | None = None,
        background: np.ndarray | None = None,
    ):
        self.cal = calibration
        self.colours = tuple(colours) if colours is not None else calibration.colours
        self.background = background

    def set_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()

    def read(self, frame: np.ndarray, zones: Iterable[str] | None = None) -> list[CardSeen]:
        if self.background is None:
            self.set_background(frame)
            return []
        out = []
        found = detect_cards(frame, self.background, self.cal, zones)
        order = {z: i for i, (z, _) in enumerate(self.cal.card_zones)}
        found.sort(key=lambda f: (order[f[0]], round(f[1].y / (2 * math.sqrt(f[1].area))),
                                  f[1].x))
        for zone, _blob, lab in found:
            r = self.cal.classifier.classify(lab, self.colours)
            conf = 0.0 if r.colour == UNKNOWN else r.confidence
            out.append(CardSeen(zone, r.colour, round(conf, 4)))
        return out
