"""Where the ring lies tonight. Players lay the floor tiles and the colour cards by hand
each game, and the camera arm may have been nudged since the set-up, so nothing is read from
the calibration's pixels: the calibration's empty table is registered onto the game's empty
ring (`vision.registration`: the camera's move), then each tile and each card is looked for
near where that puts it, up to `REACH` of a tile away.

A tile or a card is what differs from the table around it (a grey tile on a wooden table,
white paper on a dark cloth; in fast CIELAB, so any light): the region nearest to its
predicted place of about its size. Its outline says where it is, how it is turned and
whether it is square or round. A figure already standing on a tile lies inside the tile's
outline, so a ring can be found even in a frame with figures on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import LAB8_L_WEIGHT, lab8
from vision.layout import CameraMoved
from vision.registration import Transform, register
from vision.ring.calibration import COLOURS, RingCalibration

REACH = 0.65  # tiles: how far from its predicted place a tile or card may lie tonight
SIZE = (0.6, 1.6)  # a region this many times the expected area may be the tile (or card)
ROUND = 0.88  # a region filling less of its bounding rectangle than this is round


@dataclass(frozen=True)
class Piece:
    """A tile or a card as it lies tonight."""

    centre: tuple[float, float]
    outline: np.ndarray  # polygon (N x 2), frame pixels
    size: float  # side (or diameter) of a tile; the shorter side of a card
    round: bool = False


@dataclass
class RingLayout:
    """The ring found in the game's empty frame `empty`. A tile or card that could not be
    found is None: it is never read (always asked)."""

    empty: np.ndarray
    transform: Transform
    tiles: list[Piece | None]
    cards: dict[str, Piece | None]

    @property
    def tile(self) -> float:
        """Tonight's tile size: the median of the tiles found."""
        sizes = [t.size for t in self.tiles if t is not None]
        return float(np.median(sizes)) if sizes else 0.0

    def missing(self) -> list[str]:
        out = [f"tile {k + 1}" for k, t in enumerate(self.tiles) if t is None]
        return out + [f"the {c} card" for c, p in self.cards.items() if p is None]


def find_ring(cal: RingCalibration, empty: np.ndarray) -> RingLayout:
    """The ring of `cal` found in `empty` (raises CameraMoved when the set-up is not in
    view: the camera was moved too far or looks at something else)."""
    transform = Transform.identity()
    if cal.reference_edges is not None:
        found = register(cal.reference_edges, empty)
        if found is None:
            raise CameraMoved()
        transform = found
    lab = _Lab(empty)
    size = cal.tile * transform.scale
    tiles = [
        _find(lab, p, size * size, size * (0.5 + REACH), size * REACH)
        for p in transform.points(cal.tiles)
    ]
    cards: dict[str, Piece | None] = {}
    for colour in COLOURS:
        corners = transform.points(cal.cards[colour])
        area = float(cv2.contourArea(corners.astype(np.float32)))
        half = float(np.max(np.linalg.norm(corners - corners.mean(axis=0), axis=1)))
        found = _find(lab, corners.mean(axis=0), area, half + size * REACH, size * REACH)
        cards[colour] = None if found is None else _as_card(found, corners)
    return RingLayout(empty, transform, tiles, cards)


class _Lab:
    """The empty frame in fast CIELAB, converted once."""

    def __init__(self, frame: np.ndarray) -> None:
        self.lab = lab8(frame).astype(np.float32)
        self.lab[..., 0] *= LAB8_L_WEIGHT

    def window(self, x: float, y: float, half: float) -> tuple[np.ndarray, int, int]:
        h, w = self.lab.shape[:2]
        x0, y0 = max(0, int(x - half)), max(0, int(y - half))
        x1, y1 = min(w, int(x + half) + 1), min(h, int(y + half) + 1)
        return self.lab[y0:y1, x0:x1], x0, y0


def _find(lab: _Lab, at: Sequence[float], area: float, half: float, reach: float):
    """The region that differs from the table around `at`, of about `area` pixels, whose
    centre lies within `reach`: a Piece, or None."""
    win, x0, y0 = lab.window(at[0], at[1], half)
    if win.shape[0] < 8 or win.shape[1] < 8:
        return None
    rim = np.concatenate([win[0], win[-1], win[:, 0], win[:, -1]])
    dist = np.sqrt(((win - np.median(rim, axis=0)) ** 2).sum(axis=2))
    d8 = np.clip(dist * 4, 0, 255).astype(np.uint8)
    # Otsu parts the table from the piece; on a card it may part the paper from a bright
    # stripe instead: then it parts the table from the rest at the next level down
    top, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    low, _ = cv2.threshold(d8[d8 <= top], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for level in (top, low):
        labels, best = _nearest_region(d8 > level, at, (x0, y0), area, reach)
        if best:
            break
    else:
        return None
    contours, _ = cv2.findContours(
        (labels == best).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    outline = cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2)
    hull = float(cv2.contourArea(outline))
    (cx, cy), (w, h), angle = cv2.minAreaRect(outline)
    is_round = hull < ROUND * w * h
    size = float(np.sqrt(4 * hull / np.pi)) if is_round else float(np.sqrt(hull))
    centre = (cx + x0, cy + y0)
    if is_round:
        poly = cv2.ellipse2Poly(
            (int(round(centre[0])), int(round(centre[1]))),
            (int(w / 2), int(h / 2)),
            int(angle),
            0,
            360,
            15,
        ).astype(np.float64)
    else:
        poly = cv2.boxPoints(((centre[0], centre[1]), (w, h), angle)).astype(np.float64)
    return Piece(centre, poly, size if is_round else min(w, h), is_round)


def _nearest_region(mask, at, origin, area, reach) -> tuple[np.ndarray, int]:
    """The regions of a mask and the index of the one of about `area` pixels nearest to
    `at` within `reach` (0: none)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    best, best_d = 0, reach
    for i in range(1, n):
        if not SIZE[0] * area <= stats[i, cv2.CC_STAT_AREA] <= SIZE[1] * area:
            continue
        d = float(np.hypot(centres[i, 0] + origin[0] - at[0], centres[i, 1] + origin[1] - at[1]))
        if d <= best_d:
            best, best_d = i, d
    return labels, best


def _as_card(found: Piece, predicted: np.ndarray) -> Piece:
    """A card's outline with its corners in the calibration's order (the order that puts
    each nearest the corner predicted for it)."""
    box = found.outline
    if len(box) != 4:
        return found
    best = min(range(4), key=lambda k: float(np.linalg.norm(np.roll(box, -k, axis=0) - predicted)))
    return Piece(found.centre, np.roll(box, -best, axis=0), found.size)
