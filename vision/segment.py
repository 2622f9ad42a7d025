"""Finding objects: foreground masks, contours with area and shape limits, splitting of
touching objects at their necks, inner pixels for measuring."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import LAB8_L_WEIGHT, colour_of, lab8

NECK = 0.65  # touching objects part where the region is narrower than this share of its widest


@dataclass(frozen=True)
class Blob:
    """One object found in a frame, in full-frame pixel coordinates."""

    x: float
    y: float
    radius: float
    area: float
    circularity: float  # 4*pi*area/perimeter^2: 1 for a disc, ~0.785 for a square
    rectangularity: float  # area / area of the minimum rotated rectangle
    contour: np.ndarray  # int32 (N, 1, 2), full-frame coordinates
    elongation: float = 1.0  # long side / short side of the minimum rotated rectangle


class DifferenceMask:
    """What changed against an empty-scene image inside one region, in CIELAB distance
    (`colour.lab8`), the frame first brought to the empty scene's light (`gain`: the empty
    scene's white over the frame's), so a lamp switched on or a cloud does not light up as
    foreground; and colour counts, not just brightness: a pink ball whose lit side is as
    bright as the grey tray, or a purple card on dark wood, still stands out. The empty scene
    is converted once; `scale` < 1 works on a smaller image for speed.
    """

    def __init__(
        self,
        background: np.ndarray,
        roi: tuple[int, int, int, int],
        threshold: float = 12.0,
        scale: float = 1.0,
    ):
        self.roi = roi
        self.threshold = threshold
        self.scale = scale
        self.ref = lab8(self._crop(background))

    def _crop(self, frame: np.ndarray) -> np.ndarray:
        x, y, w, h = self.roi
        crop = frame[y : y + h, x : x + w]
        if self.scale != 1.0:
            crop = cv2.resize(
                crop,
                (max(1, int(w * self.scale)), max(1, int(h * self.scale))),
                interpolation=cv2.INTER_AREA,
            )
        return crop

    def changed(self, crop: np.ndarray, ref: np.ndarray, gain=None) -> np.ndarray:
        """0/255 where `crop` differs from `ref` (its part of the empty scene's `lab8`)."""
        diff = lab8(crop, gain) - ref
        dl = diff[..., 0].astype(np.float32) * LAB8_L_WEIGHT
        d2 = dl * dl + (diff[..., 1] * diff[..., 1] + diff[..., 2] * diff[..., 2])
        return (d2 > self.threshold**2).astype(np.uint8) * 255

    def __call__(
        self,
        frame: np.ndarray,
        gain: np.ndarray | None = None,
        full: bool = True,
        clean: bool = True,
    ) -> np.ndarray:
        """uint8 0/255 mask the size of the region (`full`), or of its scaled image; `clean`
        opens away specks and closes pinholes (which also drops lines a pixel or two wide)."""
        mask = self.changed(self._crop(frame), self.ref, gain)
        if clean:
            k = 3 if self.scale < 0.75 else 5
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        if full and self.scale != 1.0:
            mask = cv2.resize(mask, (self.roi[2], self.roi[3]), interpolation=cv2.INTER_NEAREST)
        return mask


def find_blobs(
    mask: np.ndarray,
    *,
    offset: tuple[int, int] = (0, 0),
    min_area: float = 30.0,
    max_area: float = 1e9,
    min_circularity: float = 0.0,
    min_rectangularity: float = 0.0,
    max_elongation: float = math.inf,
    split: bool = False,
) -> list[Blob]:
    """Outer contours of a mask that pass the area and shape limits, largest first. With
    `split`, a contour that fails them is cut at its necks (`split_touching`: balls in a row,
    cards side by side) and the pieces that pass are kept."""

    def passes(b: Blob | None) -> bool:
        return (
            b is not None
            and min_area <= b.area <= max_area
            and b.circularity >= min_circularity
            and b.rectangularity >= min_rectangularity
            and b.elongation <= max_elongation
        )

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        # The convex hull closes notches cut by specular highlights at the rim.
        b = blob_from_contour(cv2.convexHull(c), offset)
        if passes(b):
            out.append(b)
        elif split and b is not None and b.area >= min_area:
            x, y, w, h = cv2.boundingRect(c)
            region = np.zeros((h, w), np.uint8)
            cv2.drawContours(region, [c - np.array([x, y]).reshape(1, 1, 2)], -1, 1, -1)
            for px, py, piece in split_touching(region):
                parts, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                hull = cv2.convexHull(max(parts, key=cv2.contourArea))
                p = blob_from_contour(hull, (offset[0] + x + px, offset[1] + y + py))
                if passes(p):
                    out.append(p)
    out.sort(key=lambda b: -b.area)
    return out


def blob_from_contour(c: np.ndarray, offset: tuple[int, int] = (0, 0)) -> Blob | None:
    """Position, size and shape measures of one outline (None for an empty one)."""
    area = cv2.contourArea(c)
    m = cv2.moments(c)
    if area <= 0 or m["m00"] == 0:
        return None
    perimeter = cv2.arcLength(c, True)
    circ = 4 * math.pi * area / (perimeter * perimeter) if perimeter else 0.0
    (_, _), (rw, rh), _ = cv2.minAreaRect(c)
    rect = area / (rw * rh) if rw * rh else 0.0
    elong = max(rw, rh) / max(min(rw, rh), 1e-6)
    return Blob(
        m["m10"] / m["m00"] + offset[0],
        m["m01"] / m["m00"] + offset[1],
        math.sqrt(area / math.pi),
        area,
        min(circ, 1.0),
        min(rect, 1.0),
        c + np.array(offset, dtype=c.dtype).reshape(1, 1, 2),
        elong,
    )


def split_touching(mask: np.ndarray, radius: float | None = None, share: float = NECK):
    """Pieces of a region that touch only at narrow necks (two balls, two cards side by side,
    an object leaking into the background through a gap): (x, y, piece mask) per piece.

    The cores are the pixels farther than `radius` from the region's edge (distance
    transform; by default `share` of the largest such distance, so the split scales with the
    objects); each core grows back by that distance inside the region. One core: no pieces.
    """
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    if radius is None:
        radius = share * float(dist.max())
    cores = (dist > radius).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    if n <= 2:
        return
    r = max(1, int(math.ceil(radius)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        x0, y0 = max(0, x - r), max(0, y - r)
        x1, y1 = min(mask.shape[1], x + w + r), min(mask.shape[0], y + h + r)
        core = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        piece = cv2.dilate(core, kernel) & mask[y0:y1, x0:x1]
        yield x0, y0, piece


def inner_pixels(frame: np.ndarray, contour: np.ndarray, shrink: float = 0.25) -> np.ndarray:
    """BGR pixels well inside a contour: the rim (edges, blur, shadow halo) is left out."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    if x1 <= x0 or y1 <= y0:
        return np.empty((0, 3), np.uint8)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, [contour - np.array([x0, y0]).reshape(1, 1, 2)], -1, 255, cv2.FILLED)
    r = int(round(shrink * math.sqrt(max(cv2.contourArea(contour), 1.0) / math.pi)))
    if r > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        inner = cv2.erode(mask, k)
        if cv2.countNonZero(inner) >= 10:
            mask = inner
    return frame[y0:y1, x0:x1][mask > 0]


def measure(frame: np.ndarray, contour: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The robust white-balanced Lab colour of the object inside `contour`."""
    px = inner_pixels(frame, contour)
    if len(px) == 0:
        raise ValueError("object has no pixels inside the frame")
    return colour_of(px, white)
