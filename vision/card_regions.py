"""Where cards lie on the table: what changed against the empty table, parted into cards (any
angle, laid close together, touching at their necks or edge to edge) and the other regions
(a hand, an arm, a cup), and the zone that holds most of each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.card_face import order_corners
from vision.colour import White
from vision.errors import CalibrationError
from vision.layout import Layout
from vision.segment import DifferenceMask, split_touching

MASK_SCALE = 0.5  # cards are found on a half-size image (and measured at full size)
MIN_RECTANGULARITY = 0.8  # area over its rotated rectangle's: a card, not a hand
JOINED = 2.5  # cards laid edge to edge: one rectangle up to this many cards' area


class CardTable:
    """The table area as it lies tonight and what changed on it."""

    def __init__(self, cal: Calibration, layout: Layout, zones: Iterable[tuple[str, tuple]]):
        self.cal = cal
        self.layout = layout
        self.zones = tuple((name, layout.polygon(rect)) for name, rect in zones)
        if not self.zones:
            raise CalibrationError("the calibration has no card zones")
        pts = np.concatenate([p for _, p in self.zones])
        fh, fw = layout.empty.shape[:2]
        x0, y0 = np.maximum(pts.min(axis=0) - 4, 0).astype(int)
        x1, y1 = np.minimum(pts.max(axis=0) + 4, (fw, fh)).astype(int)
        self.box = (int(x0), int(y0), int(x1 - x0), int(y1 - y0))
        self.diff = DifferenceMask(layout.empty, self.box, scale=MASK_SCALE)
        self.fine = DifferenceMask(layout.empty, self.box)  # to square each card up exactly
        empty_white = layout.white(layout.empty)
        self.empty_white = None if empty_white is None else empty_white.reference
        s = layout.scale**2
        self.area = (cal.card_area[0] * s, cal.card_area[1] * s)
        short = math.sqrt(self.area[0] / 1.5) * MASK_SCALE  # a card's short side, mask pixels
        k = max(3, int(short / 4) | 1)
        self._close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        self._open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))

    def regions(self, frame: np.ndarray, white: White):
        """(cards: corners and whether they touch another; other regions: contour and whether
        it comes in from beyond the table) in frame pixels."""
        gain = None if self.empty_white is None else self.empty_white / white.reference
        changed = self.diff(frame, gain, full=False, clean=False)
        k = 1 / MASK_SCALE
        offset = np.array(self.box[:2], np.float64)
        a_min = self.area[0]
        cards, others = [], []
        # first as it is (cards laid close together stay apart); then what is left closed: a
        # card whose face is much like the table (a grey carpet floor on a grey table)
        # changes only at its thin paper border and its ink, a dotted ring to close
        for close in (None, self._close):
            mask = changed if close is None else cv2.morphologyEx(changed, cv2.MORPH_CLOSE, close)
            outer, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            mask = cv2.drawContours(np.zeros_like(mask), outer, -1, 255, cv2.FILLED)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._open)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            h, w = mask.shape
            for c in contours:
                full = c.astype(np.float64) * k + offset
                bx, by, bw, bh = cv2.boundingRect(c)
                # what comes in from beyond the table (a hand, an arm) may be mostly out of
                # view, or as dark as the table in a shadow: however little of it shows
                edge = bx <= 1 or by <= 1 or bx + bw >= w - 1 or by + bh >= h - 1
                if cv2.contourArea(full.astype(np.float32)) < a_min / 2 and not edge:
                    continue  # noise, a crumb
                shaped = self._card(full)
                if shaped is not None:
                    cards.append((self._exact(frame, gain, shaped), False))
                    cv2.drawContours(changed, [c], -1, 0, cv2.FILLED)
                    continue
                # cards that touch part at their necks; what comes in from beyond the table
                # is an arm, whatever card-sized pieces it would part into
                pieces = [] if edge else [p for p in self._pieces(c, k, offset) if p is not None]
                if len(pieces) >= 2:
                    cards += [(p, True) for p in pieces]
                    cv2.drawContours(changed, [c], -1, 0, cv2.FILLED)
                elif close is not None:
                    joined = self._card(full, stretch=JOINED)
                    if joined is not None and not edge:  # cards edge to edge: one rectangle
                        cards.append((joined, True))
                    else:
                        others.append((full.astype(np.float32), edge))
        return cards, others

    def _exact(self, frame: np.ndarray, gain, corners: np.ndarray) -> np.ndarray:
        """A card's corners found again at full size near the half-size ones (a card's
        texture is measured along its edges: a degree off shows stripes that are not there)."""
        x0, y0 = self.box[:2]
        bx, by, bw, bh = cv2.boundingRect(np.round(corners - (x0, y0)).astype(np.int32))
        m = 4
        rx, ry = max(0, bx - m), max(0, by - m)
        region = (x0 + rx, y0 + ry, bw + 2 * m, bh + 2 * m)
        ref = self.fine.ref[ry : ry + bh + 2 * m, rx : rx + bw + 2 * m]
        crop = frame[region[1] : region[1] + ref.shape[0], region[0] : region[0] + ref.shape[1]]
        if crop.shape[:2] != ref.shape[:2]:
            return corners
        mask = self.fine.changed(crop, ref, gain)
        parts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not parts:
            return corners
        found = self._card(max(parts, key=cv2.contourArea).astype(np.float64) + region[:2])
        return corners if found is None else found

    def _card(self, contour: np.ndarray, stretch: float = 1.0) -> np.ndarray | None:
        """The corners of a card-shaped region (`stretch`: up to that many cards' area)."""
        hull = cv2.convexHull(contour.astype(np.float32))
        area = cv2.contourArea(hull)
        rect = cv2.minAreaRect(hull)
        (_, _), (rw, rh), _ = rect
        a_min, a_max = self.area
        if stretch > 1.0:
            a_min, a_max = a_max, a_max * stretch
        if not (a_min <= area <= a_max) or rw * rh <= 0 or area / (rw * rh) < MIN_RECTANGULARITY:
            return None
        return order_corners(rect)

    def _pieces(self, contour: np.ndarray, k: float, offset: np.ndarray):
        x, y, w, h = cv2.boundingRect(contour)
        region = np.zeros((h, w), np.uint8)
        cv2.drawContours(region, [contour - np.array([x, y]).reshape(1, 1, 2)], -1, 1, -1)
        for px, py, piece in split_touching(region):
            parts, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            if parts:
                part = max(parts, key=cv2.contourArea).astype(np.float64)
                yield self._card((part + (x + px, y + py)) * k + offset)

    def zone_of(self, corners: np.ndarray) -> str | None:
        """The zone that holds most of a card (None: none holds any of it)."""
        card = corners.astype(np.float32)
        best, share = None, 0.0
        for name, poly in self.zones:
            inter, _ = cv2.intersectConvexConvex(card, poly.astype(np.float32))
            if inter > share:
                best, share = name, inter
        return best

    def reached(self, region: np.ndarray) -> set[str]:
        """The zones a region (a hand) reaches into."""
        hull = cv2.convexHull(region).astype(np.float32)
        out = set()
        for name, poly in self.zones:
            inter, _ = cv2.intersectConvexConvex(hull, poly.astype(np.float32))
            if inter > 0:
                out.add(name)
        return out
