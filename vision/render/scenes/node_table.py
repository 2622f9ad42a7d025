"""The `node_table` scene: Node cards laid one by one on the table's grid."""

from __future__ import annotations

import numpy as np

from vision.render.conditions import NOMINAL_SCALE, SIZE, apply_pose, in_frame, rect, rounded
from vision.render.node import (
    NODE_COLOURS,
    NODE_FILL,
    LaidCard,
    default_layout,
    node_linear,
    white_patch,
)
from vision.render.scenes.scene import HAND_SHARE, Frame, Scene


class NodeTable(Scene):
    name = "node_table"

    def __init__(self) -> None:
        self.layout = default_layout(size=SIZE)
        self.cols, self.rows = self.layout.grid
        self.patch_nominal = rect(*white_patch(SIZE))

    def keep_inside(self, pose) -> bool:
        return in_frame(apply_pose(pose, list(self.layout.corners) + self.patch_nominal), 3)

    def _grid_geometry(self, pose) -> dict:
        c00, c01, c10 = apply_pose(pose, self.layout.project([[0.5, 0.5], [1.5, 0.5], [0.5, 1.5]]))
        return {
            "cell00_centre": rounded(c00),
            "col_step": np.round(c01 - c00, 2).tolist(),
            "row_step": np.round(c10 - c00, 2).tolist(),
            "cols": self.cols,
            "rows": self.rows,
        }

    def _truth(self, setup, laid: list[tuple[LaidCard, dict]], new: bool) -> dict:
        """Truth for the table with `laid` cards (each with its placement record)."""
        pose, s = setup.pose, NOMINAL_SCALE * setup.scale
        grid = [[None] * self.cols for _ in range(self.rows)]
        top: dict[tuple[int, int], tuple] = {}
        for k, (_card, rec) in enumerate(laid):
            for (r, c), colour, centre in zip(
                rec["cells"], rec["colours"], rec["centres"], strict=True
            ):
                grid[r][c] = colour
                top[(r, c)] = (colour, centre, k == len(laid) - 1 and new)
        half = 0.5 * NODE_FILL * self.layout.pitch * s
        objects = [
            {
                "c": rounded(apply_pose(pose, [centre])[0]),
                "cell": [r, c],
                "colour": colour,
                "new": is_new,
                "r": round(half, 1),
                "set": "node",
                "shape": "disc",
                "visible": 1.0,
            }
            for (r, c), (colour, centre, is_new) in sorted(top.items())
        ]
        truth = {
            **self.common(setup),
            "cards": len(laid),
            "grid": grid,
            "grid_geometry": self._grid_geometry(pose),
            "objects": objects,
        }
        if new:
            card, rec = laid[-1]
            centres = apply_pose(pose, rec["centres"])
            aligned = self._placed(rec, squared=True)
            shift = pose[:, :2] @ (np.mean(rec["centres"], 0) - np.mean(aligned, 0))
            truth["new_card"] = {
                "cells": [list(c) for c in rec["cells"]],
                "rotation": rec["rotation"],
                "colours": list(rec["colours"]),
                "node_centres": rounded(centres),
                "aligned": rec["aligned"],
                "angle_off_deg": round(card.angle, 2),
                "shift_px": np.round(shift, 1).tolist(),
            }
        return truth

    def _placed(self, rec, squared=False) -> np.ndarray:
        """Nominal pixel centres of the card's nodes (in printed order)."""
        card: LaidCard = rec["card"]
        if squared:
            card = LaidCard(card.colours, card.row, card.col)
        return self.layout.project(card.to_table([[j + 0.5, i + 0.5] for i, j in rec["laid"]]))

    def _card(self, rng, grid, first: bool):
        """A legal card: (LaidCard, record) or None. Covers 1-4 nodes of the same colours
        (the first card: the middle of the table)."""
        k = int(rng.integers(4))
        idx = np.rot90(np.arange(6).reshape(2, 3), -k)
        rows, cols = idx.shape
        if first:
            r0, c0 = self.rows // 2 - rows // 2, self.cols // 2 - cols // 2
        else:
            r0 = int(rng.integers(0, self.rows - rows + 1))
            c0 = int(rng.integers(0, self.cols - cols + 1))
        printed = [NODE_COLOURS[int(rng.integers(len(NODE_COLOURS)))] for _ in range(6)]
        covered = 0
        laid = [None] * 6
        for i in range(rows):
            for j in range(cols):
                p = int(idx[i, j])
                laid[p] = (i, j)
                under = grid[r0 + i][c0 + j]
                if under is not None:
                    printed[p] = under  # each node the colour of the node it covers
                    covered += 1
        if not first and not 1 <= covered <= 4:
            return None
        colours = tuple(tuple(printed[int(idx[i, j])] for j in range(cols)) for i in range(rows))
        if rng.random() < 0.3:
            dx, dy, angle, aligned = 0.0, 0.0, float(rng.uniform(-0.3, 0.3)), True
        else:
            dx, dy = (float(v) for v in rng.uniform(-1 / 3, 1 / 3, 2))
            angle, aligned = float(rng.uniform(-8, 8)), False
        card = LaidCard(colours, r0, c0, dx, dy, angle)
        rec = {
            "card": card,
            "laid": laid,
            "cells": [(r0 + i, c0 + j) for i, j in laid],
            "colours": printed,
            "rotation": 90 * k,
            "aligned": aligned,
        }
        rec["centres"] = self._placed(rec)
        return card, rec

    def _lay(self, rng, grid, first=False):
        while True:
            got = self._card(rng, grid, first)
            if got:
                for (r, c), colour in zip(got[1]["cells"], got[1]["colours"], strict=True):
                    grid[r][c] = colour
                return got

    def _frame(self, setup, name, laid, new, hands) -> Frame:
        truth = self._truth(setup, laid, new)
        cards = [c for c, _ in laid]
        seed = setup.seed
        layout = self.layout
        targets = [o["c"] for o in truth["objects"]]
        return Frame(
            name,
            lambda light: node_linear(cards, light, seed, layout, size=SIZE),
            truth,
            targets if hands and targets else None,
        )

    def calib(self, setup):
        frames = [self._frame(setup, "calib/empty.jpg", [], False, False)]
        frames[0].truth["calib_colour"] = "empty"
        for colour in NODE_COLOURS:
            rng = np.random.default_rng([setup.seed, 11])
            grid = [[None] * self.cols for _ in range(self.rows)]
            card, rec = self._lay(rng, grid, first=True)
            rec["colours"] = [colour] * 6
            card = LaidCard(
                tuple(tuple(colour for _ in row) for row in card.colours), card.row, card.col
            )
            rec["card"], rec["aligned"] = card, True
            rec["centres"] = self._placed(rec)
            frame = self._frame(setup, f"calib/{colour}.jpg", [(card, rec)], False, False)
            frame.truth["calib_colour"] = colour
            frames.append(frame)
        return frames

    def test(self, setup, rng):
        grid = [[None] * self.cols for _ in range(self.rows)]
        laid = [self._lay(rng, grid, first=True)]
        for _ in range(int(rng.integers(0, 9))):
            laid.append(self._lay(rng, grid))
        frames = [
            self._frame(
                setup, f"test/{setup.name}_f0.jpg", list(laid), False, rng.random() < HAND_SHARE
            )
        ]
        for k in range(1, 6):
            laid.append(self._lay(rng, grid))
            frame = self._frame(
                setup, f"test/{setup.name}_f{k}.jpg", list(laid), True, rng.random() < HAND_SHARE
            )
            frame.truth["before"] = f"test/{setup.name}_f{k - 1}.jpg"
            frames.append(frame)
        return frames
