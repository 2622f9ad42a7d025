"""Objects in a still photo with no empty-scene image: regions of even colour bounded by edges.

An object (a candy, a sticker, a card) is an area of nearly even colour whose outline is a colour
or lightness edge; the background is what touches the border of the photo and is large.
Nothing assumes the objects are small or sparse: a face of nine touching stickers is nine
regions, because the black grid between them is an edge.

The edge strength that separates two objects differs across a photo (a sharp black gap, a soft
shadow between two candies, a glossy sticker with a gradient of light across it), so regions
are taken at several edge thresholds, the finest first: a region found at a fine threshold
wins, coarser thresholds only add objects where nothing was found yet (a shaded object that the
fine threshold broke into crumbs). A region that is too large or not compact (two candies
touching, a sticker that leaks into the background through a gap in its border) is split at
its narrow necks (`segment.split_touching`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import to_lab, weighted
from vision.segment import Blob, blob_from_contour, split_touching

WORK_SIZE = 320  # long side of the working image: enough for objects of 1/40 the photo
EDGE_STEPS = (3.5, 5.0, 7.0, 10.0)  # weighted-Lab change per pixel that bounds a region
MIN_SOLIDITY = 0.75  # area / convex hull area: an object is compact
MIN_AREA = 0.0003  # of the photo; smaller specks are texture
MAX_AREA = 0.25
BACKGROUND_AREA = 0.02  # a region touching the border and larger than this is background
OVERLAP = 0.2  # a region mostly inside an object already found adds nothing


def _gradient(lab: np.ndarray) -> np.ndarray:
    """Colour change per pixel in weighted Lab (Sobel, per channel, combined)."""
    w = weighted(cv2.GaussianBlur(lab, (3, 3), 0))
    gx = cv2.Sobel(w, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(w, cv2.CV_32F, 0, 1, ksize=3)
    return np.sqrt((gx * gx + gy * gy).sum(axis=2)) / 8.0


class _Picker:
    """Accepts compact regions of plausible size that do not overlap one already taken."""

    def __init__(self, shape: tuple[int, int]):
        self.h, self.w = shape
        area = self.h * self.w
        self.a_min, self.a_max = MIN_AREA * area, MAX_AREA * area
        self.claimed = np.zeros(shape, np.uint8)
        self.hulls: list[np.ndarray] = []

    def hull(self, mask: np.ndarray, x: int, y: int) -> np.ndarray | None:
        """The region's convex hull (work-image coordinates) if it looks like one object."""
        area = int(cv2.countNonZero(mask))
        if not self.a_min <= area <= self.a_max:
            return None
        mh, mw = mask.shape
        touches = x == 0 or y == 0 or x + mw == self.w or y + mh == self.h
        if touches and area > BACKGROUND_AREA * self.h * self.w:
            return None
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or area / hull_area < MIN_SOLIDITY:
            return None
        return hull + np.array([x, y], np.int32).reshape(1, 1, 2)

    def take(self, mask: np.ndarray, x: int, y: int, hull: np.ndarray) -> None:
        mh, mw = mask.shape
        under = self.claimed[y : y + mh, x : x + mw][mask > 0]
        if len(under) and cv2.countNonZero(under) > OVERLAP * len(under):
            return
        cv2.drawContours(self.claimed, [hull], -1, 1, cv2.FILLED)
        self.hulls.append(hull)


def object_regions(frame: np.ndarray, white: np.ndarray) -> list[Blob]:
    """Every object of a still photo (full-frame coordinates), largest first."""
    h, w = frame.shape[:2]
    s = min(1.0, WORK_SIZE / max(h, w))
    small = frame
    if s < 1.0:
        size = (max(1, round(w * s)), max(1, round(h * s)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    grad = _gradient(to_lab(small, white))
    pick = _Picker(grad.shape)
    split_radius = max(2, round(0.01 * max(grad.shape)))
    for step, edge in enumerate(EDGE_STEPS):
        even = (grad < edge).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(even, connectivity=4)
        for i in np.argsort(-stats[:, cv2.CC_STAT_AREA]):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            if i == 0 or area < pick.a_min:
                continue
            mask = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
            hull = pick.hull(mask, x, y)
            if hull is not None:
                pick.take(mask, x, y, hull)
            elif step == 0:
                for px, py, piece in split_touching(mask, split_radius):
                    hull = pick.hull(piece, x + px, y + py)
                    if hull is not None:
                        pick.take(piece, x + px, y + py, hull)
    out = []
    for hull in pick.hulls:
        contour = np.round(hull.astype(np.float64) / s).astype(np.int32)
        blob = blob_from_contour(contour)
        if blob is not None:
            out.append(blob)
    out.sort(key=lambda b: -b.area)
    return out
