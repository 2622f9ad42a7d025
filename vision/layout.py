"""The set-up as it lies in the camera's view tonight: found, then read.

A calibration is drawn on the frame the camera saw at set-up (the white patch, a tray, card
zones, in that frame's pixels) and keeps that frame's edges (`reference`). Each game begins
on the empty table: `Layout.find` registers the calibration onto it (`vision.registration`)
and measures how the light's colour changes across it (`vision.colour.LightField`). Every
reader then asks the layout where its regions are now and what white each frame shows there;
none keeps positions or a white logic of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import LightField, White, light_change, patch_covered, reference_white
from vision.registration import MOVED, Transform, register

Rect = tuple[int, int, int, int]


class CameraMoved(Exception):
    """The calibration cannot be found in the frame: the camera or the table moved."""

    def __str__(self) -> str:
        return MOVED


@dataclass
class Layout:
    empty: np.ndarray  # the empty table tonight (BGR)
    transform: Transform  # calibration pixels -> tonight's pixels
    patch: np.ndarray | None  # the white patch's outline tonight (4 x 2), if there is one
    field: LightField | None

    @classmethod
    def find(
        cls,
        empty: np.ndarray,
        *,
        reference: np.ndarray | None = None,
        patch: Rect | None = None,
    ) -> Layout:
        """The set-up found on tonight's empty table. `reference`: the calibration's empty
        table (its `registration.edges`), None to trust the calibration's pixels; `patch`:
        the white patch (x, y, w, h) in calibration pixels. Raises CameraMoved."""
        transform = Transform.identity()
        if reference is not None:
            found = register(reference, empty)
            if found is None:
                raise CameraMoved()
            transform = found
        outline = transform.rect(patch) if patch is not None else None
        field = LightField(empty, outline) if outline is not None else None
        return cls(empty, transform, outline, field)

    def polygon(self, rect: Rect) -> np.ndarray:
        """A calibration rectangle as it lies tonight."""
        return self.transform.rect(rect)

    def points(self, pts: Sequence[Sequence[float]]) -> np.ndarray:
        return self.transform.points(pts)

    @property
    def scale(self) -> float:
        return self.transform.scale

    def white(self, frame: np.ndarray) -> White | None:
        """The frame's white at every place: the patch as it is in this frame, carried across
        by the light field. A hand over the patch leaves the table itself to go by: how the
        light changed since the empty table, on the parts of it nothing covers
        (`colour.light_change`). None without a patch, or with too little table in view."""
        if self.patch is None:
            return None
        if not patch_covered(frame, self.empty, self.patch):
            return White(reference_white(pixels_in(frame, self.patch, 0.7)), self.field)
        change = light_change(self.empty, frame)
        if change is None:
            return None
        empty_white = reference_white(pixels_in(self.empty, self.patch, 0.7))
        return White(empty_white * change, self.field)


def pixels_in(frame: np.ndarray, polygon: np.ndarray, shrink: float = 1.0) -> np.ndarray:
    """The uint8 BGR pixels inside a polygon shrunk about its centre by `shrink`."""
    pts = np.asarray(polygon, np.float64)
    centre = pts.mean(axis=0)
    pts = (pts - centre) * shrink + centre
    x, y, w, h = cv2.boundingRect(np.round(pts).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(frame.shape[1], x + w), min(frame.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return np.empty((0, 3), np.uint8)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(pts - (x0, y0)).astype(np.int32)], 1)
    return frame[y0:y1, x0:x1][mask > 0]
