"""Objects in a still image with no empty-scene reference: photographs, calibration shots."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UsageError
from vision.classifier import Reading
from vision.colour import white_from_patch, white_from_scene
from vision.segment import find_blobs, measure, scene_mask

MIN_AREA_FRACTION = 0.0008  # of the frame; smaller specks are dust and texture
MAX_AREA_FRACTION = 0.25


@dataclass(frozen=True)
class Found:
    x: float
    y: float
    radius: float
    shape: str  # "ball" or "card"
    lab: tuple[float, float, float]


def load_image(path: str | Path) -> np.ndarray:
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        why = "no such file" if not Path(path).exists() else "not an image OpenCV can read"
        raise UsageError(f"cannot read image {path}: {why}")
    return frame


def find_objects(frame: np.ndarray, white_roi=None) -> list[Found]:
    """Ball- and card-shaped objects standing out from their surroundings, largest first."""
    white = white_from_patch(frame, white_roi) if white_roi else white_from_scene(frame)
    mask = scene_mask(frame, white)
    if white_roi:  # the patch itself is not an object
        x, y, w, h = white_roi
        mask[y : y + h, x : x + w] = 0
    area = frame.shape[0] * frame.shape[1]
    out = []
    for b in find_blobs(mask, min_area=MIN_AREA_FRACTION * area,
                        max_area=MAX_AREA_FRACTION * area):
        if b.circularity >= 0.8:
            shape = "ball"
        elif b.rectangularity >= 0.85:
            shape = "card"
        else:
            continue
        lab = measure(frame, b.contour, white)
        out.append(Found(b.x, b.y, b.radius, shape, tuple(float(v) for v in lab)))
    return out


def classify_image(frame: np.ndarray, calibration, allowed=None) -> list[dict]:
    """JSON-able readings of every object in a still image."""
    out = []
    for f in find_objects(frame, calibration.white_roi):
        r: Reading = calibration.classifier.classify(f.lab, allowed)
        out.append({
            "colour": r.colour, "confidence": r.confidence, "x": round(f.x, 1),
            "y": round(f.y, 1), "radius": round(f.radius, 1), "shape": f.shape,
            "candidates": list(r.candidates[:3]),
        })
    return out
