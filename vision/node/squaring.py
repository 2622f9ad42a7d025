"""The table squared up onto its lattice: `PX` pixels a node, `MARGIN` nodes round it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.node.grid import Grid

PX = 24  # pixels a node in the squared-up table
MARGIN = 2  # nodes round the lattice squared up: a card over its edge is read (the rules
# refuse it), and a hand comes in across the outermost


class Squaring:
    """`square(frame)`: the table squared up onto its lattice, PX pixels a node, `MARGIN`
    nodes round it."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.size = ((grid.cols + 2 * MARGIN) * PX, (grid.rows + 2 * MARGIN) * PX)
        to_units = np.array([[1 / PX, 0, -MARGIN], [0, 1 / PX, -MARGIN], [0, 0, 1]], np.float64)
        self.to_frame = grid.matrix @ to_units  # squared-up pixels -> frame pixels

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("a frame is a colour image")
        return cv2.warpAffine(
            frame,
            self.to_frame,
            self.size,
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )

    @staticmethod
    def to_grid(pts) -> np.ndarray:
        """Squared-up pixels -> lattice units (x = columns, y = rows)."""
        return np.asarray(pts, np.float64).reshape(-1, 2) / PX - MARGIN
