"""Card reader: coloured cards laid in the configured zones (prediction cards, prism cards).

Each zone is compared with the empty table in white-balanced CIELAB (a purple card on dark
wood differs little in brightness but clearly in hue); card-shaped contours (rectangular,
within the card area limits) are measured on their inner pixels, so the printed symbol is
outvoted. A card's white margin, when it has one, is used as a local white reference: under
mixed light (a lamp on one side, a window on the other) the patch on the tray does not see
the same light as a card at the far end of the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from companion.events import CardSeen
from vision.calibration import Calibration
from vision.classifier import UNKNOWN
from vision.colour import frame_white, patch_trustworthy, quantiles, robust_colour, to_lab
from vision.errors import CalibrationError
from vision.segment import Blob, DifferenceMask, find_blobs, inner_pixels

MIN_RECTANGULARITY = 0.8


def card_white(frame: np.ndarray, contour: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """The white of the card's own margin if it has a bright, near-neutral one, else fallback."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return fallback
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, [contour - np.array([x0, y0]).reshape(1, 1, 2)], -1, 255, cv2.FILLED)
    shrink = max(2, int(0.12 * min(cv2.minAreaRect(contour)[1])))
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * shrink + 1, 2 * shrink + 1))
    inner = cv2.erode(mask, k)
    ring = cv2.subtract(mask, inner)
    region = frame[y0:y1, x0:x1]
    px = region[ring > 0].astype(np.float32)
    core = region[inner > 0].astype(np.float32)
    if len(px) < 20 or len(core) < 20:
        return fallback
    grey = px.sum(axis=1)
    top = px[grey >= quantiles(grey, (0.6,))[0]]
    white = np.median(top, axis=0)
    # white paper reflects more than any ink in every channel; a card printed to its edge
    # has a "margin" the colour of its face and keeps the patch's white
    ink = np.median(core, axis=0)
    margin = bool(np.all(white >= 1.05 * ink)) and white.sum() >= 1.15 * ink.sum()
    return np.maximum(white, 1.0) if margin and white.max() < 254 else fallback


def detect_cards(
    frame: np.ndarray, background: np.ndarray, cal: Calibration, zones: Iterable[str] | None = None
) -> list[tuple[str, Blob, np.ndarray]]:
    """(zone, blob, Lab) for every card found in the zones (all configured zones by default)."""
    if not cal.card_zones:
        raise CalibrationError("the calibration has no card zones")
    white = frame_white(frame, cal.white_roi)
    bg_white = frame_white(background, cal.white_roi)
    wanted = None if zones is None else set(zones)
    a_min, a_max = cal.card_area
    out = []
    for name, rect in cal.card_zones:
        if wanted is not None and name not in wanted:
            continue
        mask = DifferenceMask(background, rect, bg_white)(frame, white)
        for b in find_blobs(
            mask,
            offset=rect[:2],
            min_area=a_min,
            max_area=a_max,
            min_rectangularity=MIN_RECTANGULARITY,
            split=True,
        ):
            local = card_white(frame, b.contour, white)
            px = inner_pixels(frame, b.contour, shrink=0.2)
            if len(px) == 0:
                continue
            lab = robust_colour(to_lab(px.reshape(-1, 1, 3), local).reshape(-1, 3))
            out.append((name, b, lab))
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
        if not calibration.card_zones:
            raise CalibrationError("the calibration has no card zones")
        self.cal = calibration
        self.colours = tuple(colours) if colours is not None else calibration.colours
        missing = set(self.colours) - set(calibration.colours)
        if missing:
            raise CalibrationError(f"calibration has no prototype for {', '.join(sorted(missing))}")
        self.background = background

    def __repr__(self) -> str:
        return f"<CardReader zones={[z for z, _ in self.cal.card_zones]} colours={self.colours}>"

    def set_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()

    def read(self, frame: np.ndarray, zones: Iterable[str] | None = None) -> list[CardSeen]:
        if self.background is None:
            self.set_background(frame)
            return []
        if not patch_trustworthy(frame, self.cal.white_roi, self.background):
            return []  # the white patch is covered: no colour can be trusted in this frame
        out = []
        found = detect_cards(frame, self.background, self.cal, zones)
        order = {z: i for i, (z, _) in enumerate(self.cal.card_zones)}
        found.sort(key=lambda f: (order[f[0]], round(f[1].y / (2 * math.sqrt(f[1].area))), f[1].x))
        for zone, _blob, lab in found:
            r = self.cal.classifier.classify(lab, self.colours)
            conf = 0.0 if r.colour == UNKNOWN else r.confidence
            out.append(CardSeen(zone, r.colour, round(conf, 4)))
        return out
