"""Objects in a still image with no empty-scene reference: photographs, calibration shots."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UsageError
from vision.colour import colour_of, exposure_white, photo_white
from vision.regions import object_regions
from vision.segment import inner_pixels

DARKEST = 12.0  # Lab lightness and chroma below which a region is shadow or black plastic
ROUND = 0.8  # circularity from which an object is a ball rather than a tile or card
# An object measured on fewer pixels than this is read with less confidence: its colour is
# mostly blur and JPEG colour blocks (8x8 and coarser for colour), not the object's.
FEW_PIXELS = 30
# A region centred in a labelled box but filling less than this share of it is too small to be
# the labelled piece: the end of a neighbour reaching into the box's corner, a glint.
BOX_FILL = 0.05


@dataclass(frozen=True)
class Found:
    x: float
    y: float
    radius: float
    shape: str  # "ball" or "card" (a tile, a sticker: anything not round)
    lab: tuple[float, float, float]
    pixels: int = FEW_PIXELS  # how many pixels the colour was measured on
    outline: np.ndarray | None = field(default=None, compare=False, repr=False)


def load_image(path: str | Path) -> np.ndarray:
    from vision.image_limits import check_image

    if not Path(path).is_file():
        raise UsageError(f"cannot read image {path}: no such file")
    check_image(path)  # from its header: never decode what would not fit in memory
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        why = "no such file" if not Path(path).exists() else "not an image OpenCV can read"
        raise UsageError(f"cannot read image {path}: {why}")
    return frame


def load_frame(path: str | Path, size: tuple[int, int] | None) -> np.ndarray:
    """`load_image`, refused unless it is `size` (width, height): a calibration's regions are
    pixels of one frame size, so a photo of another size cannot be read with them."""
    frame = load_image(path)
    if size and tuple(frame.shape[1::-1]) != tuple(size):
        raise UsageError(
            f"{path}: the image is {frame.shape[1]}x{frame.shape[0]}, the calibration's "
            f"regions are for {size[0]}x{size[1]}"
        )
    return frame


def _inside(x: float, y: float, rect) -> bool:
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


def find_objects(frame: np.ndarray, white_roi=None, regions=()) -> list[Found]:
    """Every object of a still photo, touching or not, largest first (`vision.regions`).

    With `regions` (x, y, w, h), only objects centred inside them count (the tray, the card
    zones); the white patch itself is never an object.
    """
    white = photo_white(frame, white_roi)
    # regions are told apart, and shadows from objects, at the photo's own exposure (edges,
    # dark lines and darkness have a size in CIELAB units: a dim photo is brightened first);
    # colours are read under the honest white
    seen = white if white_roi else exposure_white(frame)
    out = []
    for b in object_regions(frame, seen):
        if regions and not any(_inside(b.x, b.y, r) for r in regions):
            continue
        if white_roi and _inside(b.x, b.y, white_roi):
            continue
        shape = "ball" if b.circularity >= ROUND else "card"
        px = inner_pixels(frame, b.contour)
        if len(px) == 0:
            continue
        dark = colour_of(px, seen)
        if dark[0] < DARKEST and abs(dark[1]) + abs(dark[2]) < DARKEST:
            continue  # black plastic, a gap, deep shadow: nothing with a colour to read
        lab = colour_of(px, white)
        lab = tuple(float(v) for v in lab)
        out.append(Found(b.x, b.y, b.radius, shape, lab, len(px), b.contour))
    return out


def _fills(f: Found, box) -> float:
    """The share of `box` (x, y, w, h) that a found object covers."""
    if f.outline is None:
        return 1.0
    x, y, w, h = box
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [f.outline - np.array([x, y], np.int32).reshape(1, 1, 2)], -1, 1, -1)
    return cv2.countNonZero(mask) / (w * h)


def measure_box(frame: np.ndarray, box, found: list[Found], white_roi=None) -> tuple:
    """The Lab colour of the object in `box` (x, y, w, h): the largest found object centred
    in it that fills at least `BOX_FILL` of it, else the inner half of the box itself."""
    x, y, w, h = box
    inside = [f for f in found if x <= f.x <= x + w and y <= f.y <= y + h]
    inside = [f for f in inside if _fills(f, box) >= BOX_FILL]
    if inside:  # the object's largest region: smaller ones inside are its print, its glints
        return max(inside, key=lambda f: f.radius).lab
    inner = frame[y + h // 4 : y + h - h // 4, x + w // 4 : x + w - w // 4].reshape(-1, 3)
    if inner.size == 0:
        raise UsageError(f"box {list(box)} holds no pixels of the image")
    return tuple(float(v) for v in colour_of(inner, photo_white(frame, white_roi)))


def classify_image(frame: np.ndarray, calibration, allowed=None) -> list[dict]:
    """JSON-able readings of every object in a still image."""
    regions = []
    h, w = frame.shape[:2]
    if calibration.frame_size in (None, (w, h)):
        regions = [r for r in (calibration.tray_roi,) if r] + [r for _, r in calibration.card_zones]
    found = find_objects(frame, calibration.white_roi, regions)
    if not found:
        return []
    readings = calibration.classifier.classify_many([f.lab for f in found], allowed)
    out = []
    for f, r in zip(found, readings, strict=True):
        out.append(
            {
                "colour": r.colour,
                "confidence": round(r.confidence * min(1.0, f.pixels / FEW_PIXELS), 4),
                "x": round(f.x, 1),
                "y": round(f.y, 1),
                "radius": round(f.radius, 1),
                "shape": f.shape,
                "candidates": list(r.candidates[:3]),
            }
        )
    return out
