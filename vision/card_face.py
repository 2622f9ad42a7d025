"""A card's face, squared up and measured: its ink's colour and spread, never its paper's or
its floor's, and the floor pattern's texture when asked.

The face is squared up from its corners (short side first); its white paper border, when it
has one, is its own white reference (`colour.reference_white`), and the ink is the face's
colourful part. Competitive Laser prism cards also show a floor pattern, measured from the
face's texture (`vision.floor_texture`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import lab_spread, linear, quantiles, reference_white, robust_colour, to_lab
from vision.floor_texture import measures as floor_measures

FACE = (44, 64)  # the squared-up face measured, pixels (short side, long side)
BORDER = 0.12  # of the short side: the paper border round the face
INK_CHROMA = 10.0  # CIELAB chroma from which a pixel is coloured ink, not paper or grey


@dataclass(frozen=True)
class Face:
    """One card's measures: its ink's colour and spread, and its floor texture."""

    lab: np.ndarray
    spread: float
    texture: np.ndarray | None = None


def order_corners(rect) -> np.ndarray:
    """The corners of an OpenCV rotated rectangle, starting at one end of a short side and
    going round so that the first side is short (the card upright)."""
    pts = cv2.boxPoints(rect).astype(np.float64)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def measure_face(
    frame: np.ndarray, corners: np.ndarray, white: np.ndarray, texture: bool = False
) -> Face | None:
    """The ink of the card with these corners (short side first), under the linear `white`
    of the frame where it lies; its paper border, when it has one, balances it instead."""
    w, h = FACE
    dst = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    face = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_AREA)
    b = max(2, int(BORDER * w))
    ring = np.ones((h, w), bool)
    ring[b : h - b, b : w - b] = False
    inner = np.zeros((h, w), bool)
    inner[2 * b : h - 2 * b, 2 * b : w - 2 * b] = True
    paper = face[ring]
    core = face[inner]
    if len(core) < 20:
        return None
    # paper is brighter than any ink in every channel; a card printed to its edge has a
    # "border" the colour of its face and keeps the frame's white
    pw = reference_white(paper)
    if np.all(pw >= 1.1 * linear(core).mean(axis=0)) and _neutral(pw, white):
        white = pw
    lab = to_lab(core, white)
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    top = quantiles(chroma, (0.9,))[0]
    ink = chroma >= max(INK_CHROMA, 0.5 * top)
    if np.count_nonzero(ink) >= 0.05 * len(core):
        lab = lab[ink]
    return Face(
        robust_colour(lab),
        lab_spread(lab),
        floor_measures(frame, corners.reshape(-1, 1, 2).astype(np.int32)) if texture else None,
    )


def _neutral(candidate: np.ndarray, white: np.ndarray) -> bool:
    """Is `candidate` the frame's white in hue (paper), within what a light field bends?"""
    a = candidate / candidate.sum()
    b = white / white.sum()
    return float(np.abs(a - b).sum()) < 0.12
