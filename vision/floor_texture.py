"""The floor pattern printed on a competitive Laser prism card (wood, carpet, ceramic), read
from the texture of the card's face.

The face is resampled upright into a small patch of fixed size (its long side down, so the
measures do not depend on how far the card is turned or how near the camera is), divided by
its own mean (so neither the light's level nor the card's colour counts) and measured three
ways, each cheap:
- `across`: how much the brightness changes from column to column of the column means:
  stripes running along the card (wood grain, the tiles' grout) make it large;
- `along`: the same from row to row: only a pattern with lines across the card (ceramic);
- `fine`: what varies from pixel to pixel once the rows' and columns' means are taken out:
  speckle (carpet).
The white emblem in the middle of the face is left out. A floor is learnt from one card of
each pattern (`vision.learn.learn_floors`) as these three numbers; a card is read as the
nearest learnt pattern in log space, and only when it is clearly nearer to it than to any
other and near enough to it (`FloorReading.sure`): anything else is asked.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

FLOORS = ("wood", "carpet", "ceramic")  # the patterns of Laser's competitive deck
PATCH_W, PATCH_H = 16, 28  # pixels of the upright panel measured
# the panel measured, as shares of the card's width and height: inside the printed face
# (0.8 x 0.86 of the card), away from its edge
PANEL_W, PANEL_H = 0.62, 0.74
EMBLEM_ROWS = (9, 19)  # rows of the patch the white emblem may cover: left out
FLOOR_LEVEL = 0.003  # added to every measure (camera noise is about this): logs stay finite
NEAR = 0.85  # log distance: farther than this from every learnt pattern is no pattern
MARGIN = 2.0  # the second-nearest pattern must be this many times farther


@dataclass(frozen=True)
class FloorReading:
    floor: str  # the nearest learnt pattern ("" with none learnt)
    distance: float  # to it, in log space
    runner_up: float  # distance to the next nearest (inf with one learnt)

    @property
    def sure(self) -> bool:
        return (
            bool(self.floor)
            and self.distance <= NEAR
            and self.runner_up >= MARGIN * max(self.distance, 0.05)
        )


def measures(frame: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    """(across, along, fine) of the card outlined by `contour` in `frame` (None if the card
    is too small to measure)."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    if min(w, h) < 8:
        return None
    t = math.radians(angle)
    ux, uy = math.cos(t), math.sin(t)  # along the rectangle's first side ("width")
    vx, vy = -uy, ux
    if w > h:  # keep the long side down the patch
        w, h, ux, uy, vx, vy = h, w, vx, vy, -ux, -uy
    half_w, half_h = PANEL_W * w / 2, PANEL_H * h / 2
    src = np.float32(
        [
            (cx - ux * half_w - vx * half_h, cy - uy * half_w - vy * half_h),
            (cx + ux * half_w - vx * half_h, cy + uy * half_w - vy * half_h),
            (cx - ux * half_w + vx * half_h, cy - uy * half_w + vy * half_h),
        ]
    )
    dst = np.float32([(0, 0), (PATCH_W, 0), (0, PATCH_H)])
    m = cv2.getAffineTransform(src, dst)
    patch = cv2.warpAffine(frame, m, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR)
    g = patch.astype(np.float32).sum(axis=2)
    top, bottom = g[: EMBLEM_ROWS[0]], g[EMBLEM_ROWS[1] :]
    level = float(np.mean(top) + np.mean(bottom)) / 2
    if level <= 1.0:
        return None
    out = np.zeros(3)
    for part in (top / level, bottom / level):
        cols, rows = part.mean(axis=0), part.mean(axis=1)
        rest = part - cols[None, :] - rows[:, None] + part.mean()
        out += (
            np.abs(np.diff(cols)).mean(),
            np.abs(np.diff(rows)).mean(),
            np.abs(np.diff(rest, axis=1)).mean() + np.abs(np.diff(rest, axis=0)).mean(),
        )
    return out / 2


class FloorModel:
    """The learnt patterns: `read(measures) -> FloorReading` among `allowed` floors."""

    def __init__(self, learnt: Mapping[str, Iterable[float]]):
        self.names = tuple(learnt)
        self._logs = np.log(np.array([list(v) for v in learnt.values()], float) + FLOOR_LEVEL)

    def read(self, m: np.ndarray | None, allowed: Iterable[str] | None = None) -> FloorReading:
        keep = [i for i, n in enumerate(self.names) if allowed is None or n in set(allowed)]
        if m is None or not keep:
            return FloorReading("", math.inf, math.inf)
        d = np.linalg.norm(self._logs[keep] - np.log(np.asarray(m) + FLOOR_LEVEL), axis=1)
        order = np.argsort(d)
        second = float(d[order[1]]) if len(order) > 1 else math.inf
        return FloorReading(self.names[keep[order[0]]], float(d[order[0]]), second)
