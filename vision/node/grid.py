"""The Node mat's printed lattice as it lies in a frame (found by `vision.node.grid_search`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Grid:
    """The lattice as it lies in a frame: the corner of cell (0, 0) (`origin`, where the top
    and left lines cross), one column and one row further (`col_step`, `row_step`, pixels)
    and the lattice's size in cells. Cell (row, col) has its centre at
    origin + (col + 0.5) col_step + (row + 0.5) row_step."""

    origin: tuple[float, float]
    col_step: tuple[float, float]
    row_step: tuple[float, float]
    cols: int
    rows: int

    @property
    def matrix(self) -> np.ndarray:
        """2 x 3 affine map: lattice units (x = columns, y = rows) -> frame pixels."""
        return np.array(
            [
                [self.col_step[0], self.row_step[0], self.origin[0]],
                [self.col_step[1], self.row_step[1], self.origin[1]],
            ],
            np.float64,
        )

    def to_frame(self, pts: Sequence[Sequence[float]]) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        m = self.matrix
        return p @ m[:, :2].T + m[:, 2]

    def to_grid(self, pts: Sequence[Sequence[float]]) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        m = self.matrix
        return (p - m[:, 2]) @ np.linalg.inv(m[:, :2]).T

    @property
    def pitch(self) -> float:
        return math.sqrt(abs(np.linalg.det(self.matrix[:, :2])))

    @property
    def turn(self) -> float:
        """Degrees the lattice's rows run clockwise of the frame's x axis."""
        return math.degrees(math.atan2(self.col_step[1], self.col_step[0]))

    @property
    def centre(self) -> np.ndarray:
        return self.to_frame([(self.cols / 2, self.rows / 2)])[0]

    def corners(self) -> np.ndarray:
        """The lattice's outline: top-left, top-right, bottom-right, bottom-left."""
        c, r = self.cols, self.rows
        return self.to_frame([(0, 0), (c, 0), (c, r), (0, r)])

    def scaled(self, k: float) -> Grid:
        """The same lattice in a frame resized by `k`."""
        return Grid(
            (self.origin[0] * k, self.origin[1] * k),
            (self.col_step[0] * k, self.col_step[1] * k),
            (self.row_step[0] * k, self.row_step[1] * k),
            self.cols,
            self.rows,
        )

    def to_json(self) -> dict:
        return {
            "origin": [round(v, 2) for v in self.origin],
            "col_step": [round(v, 4) for v in self.col_step],
            "row_step": [round(v, 4) for v in self.row_step],
            "cols": self.cols,
            "rows": self.rows,
        }

    @classmethod
    def from_json(cls, data: dict) -> Grid:
        def pair(key: str) -> tuple[float, float]:
            x, y = (float(v) for v in data[key])
            return (x, y)

        return cls(
            pair("origin"), pair("col_step"), pair("row_step"), int(data["cols"]), int(data["rows"])
        )
