"""Finding objects: foreground masks, contours with area and shape limits, Hough fallback."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import robust_colour, to_lab, weighted


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


def background_mask(
    frame: np.ndarray,
    background: np.ndarray,
    roi: tuple[int, int, int, int],
    threshold: int = 40,
    gain: float = 1.0,
) -> np.ndarray:
    """Pixels of `roi` that differ from the empty scene (uint8 0/255, ROI-sized).

    `gain` scales the background first, so a scene that got brighter or darker overall (a cloud,
    a lamp switched on) does not light up as foreground.
    """
    x, y, w, h = roi
    cur = frame[y : y + h, x : x + w]
    ref = background[y : y + h, x : x + w]
    if gain != 1.0:
        ref = cv2.convertScaleAbs(ref, alpha=gain)
    diff = cv2.absdiff(cur, ref)
    # max over channels: a blue ball on a grey tray differs mostly in one channel
    d = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
    _, mask = cv2.threshold(d, threshold, 255, cv2.THRESH_BINARY)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)


def lab_difference_mask(
    frame: np.ndarray,
    background: np.ndarray,
    roi: tuple[int, int, int, int],
    white: np.ndarray,
    background_white: np.ndarray,
    threshold: float = 12.0,
) -> np.ndarray:
    """Like background_mask, but in white-balanced CIELAB: a dark purple card on dark wood
    differs little in any channel but clearly in hue. Costs more; used for the card zones."""
    x, y, w, h = roi
    cur = weighted(to_lab(frame[y : y + h, x : x + w], white))
    ref = weighted(to_lab(background[y : y + h, x : x + w], background_white))
    d = np.linalg.norm(cur - ref, axis=2)
    mask = (d > threshold).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)


def scene_mask(frame: np.ndarray, white: np.ndarray, work_width: int = 320) -> np.ndarray:
    """Objects that stand out from their local surroundings (no empty-scene image needed).

    The local background is a wide median of the frame; a pixel belongs to an object when its
    colour difference from that background is large. Shadows change mostly lightness, which
    weighs less, so they stay background. Returns a full-size uint8 0/255 mask.
    """
    h, w = frame.shape[:2]
    scale = min(1.0, work_width / w)
    small = cv2.resize(frame, (max(1, int(w * scale)), max(1, int(h * scale))),
                       interpolation=cv2.INTER_AREA)
    # the wide median is smooth: take it at half size and scale it back up
    half = cv2.resize(small, (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    k = max(3, (min(half.shape[:2]) // 4) | 1)
    bg = cv2.resize(cv2.medianBlur(half, min(k, 255)), (small.shape[1], small.shape[0]),
                    interpolation=cv2.INTER_LINEAR)
    d = np.linalg.norm(weighted(to_lab(small, white)) - weighted(to_lab(bg, white)), axis=2)
    mask = (d > 18.0).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST)


def find_blobs(
    mask: np.ndarray,
    *,
    offset: tuple[int, int] = (0, 0),
    min_area: float = 30.0,
    max_area: float = 1e9,
    min_circularity: float = 0.0,
    min_rectangularity: float = 0.0,
) -> list[Blob]:
    """Outer contours of a mask that pass the area and shape limits, largest first."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        # The convex hull closes notches cut by specular highlights at the rim.
        c = cv2.convexHull(c)
        area = cv2.contourArea(c)
        if not (min_area <= area <= max_area):
            continue
        perimeter = cv2.arcLength(c, True)
        circ = 4 * math.pi * area / (perimeter * perimeter) if perimeter else 0.0
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        rect = area / (rw * rh) if rw * rh else 0.0
        if circ < min_circularity or rect < min_rectangularity:
            continue
        m = cv2.moments(c)
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        c = c + np.array(offset, dtype=c.dtype).reshape(1, 1, 2)
        out.append(Blob(cx + offset[0], cy + offset[1], math.sqrt(area / math.pi), area,
                        min(circ, 1.0), min(rect, 1.0), c))
    out.sort(key=lambda b: -b.area)
    return out


def hough_circles(
    frame: np.ndarray, roi: tuple[int, int, int, int], r_min: int, r_max: int
) -> list[tuple[float, float, float]]:
    """Fallback ball finder for frames where the background difference fails (x, y, r)."""
    x, y, w, h = roi
    grey = cv2.cvtColor(frame[y : y + h, x : x + w], cv2.COLOR_BGR2GRAY)
    grey = cv2.medianBlur(grey, 5)
    found = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1.2, minDist=r_min * 1.6,
                             param1=100, param2=30, minRadius=r_min, maxRadius=r_max)
    if found is None:
        return []
    return [(float(cx + x), float(cy + y), float(r)) for cx, cy, r in found[0]]


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
    return robust_colour(to_lab(px.reshape(-1, 1, 3), white).reshape(-1, 3))
