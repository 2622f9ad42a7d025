"""The `laser_ring` scene: the Laser ring's figures, the cat and the spare figures on the colour
cards."""

from __future__ import annotations

import math
import random

import numpy as np

from vision.render.conditions import NOMINAL_SCALE, SIZE, apply_pose, in_frame, rect, rounded
from vision.render.ring import ring_linear
from vision.render.ring_board import (
    CAT,
    RING_COLOURS,
    SECONDARY,
    TILES,
    RingBoard,
    random_board,
    ring_geometry,
)
from vision.render.scenes.scene import HAND_SHARE, Frame, Scene


class LaserRing(Scene):
    name = "laser_ring"

    def __init__(self) -> None:
        self.g = ring_geometry(SIZE)
        self.patch_nominal = rect(*self.g.patch)
        self.cards = {c: rect(*box) for c, box in zip(RING_COLOURS, self.g.cards, strict=True)}

    def keep_inside(self, pose) -> bool:
        pts = [p for c in self.cards.values() for p in c] + self.patch_nominal
        t = self.g.tile / 2
        pts += [(x + dx, y + dy) for x, y in self.g.slots for dx in (-t, t) for dy in (-t, t)]
        return in_frame(apply_pose(pose, pts), 3)

    def _frame(self, setup, name, board: RingBoard, layout: int, hands: bool) -> Frame:
        g, pose = self.g, setup.pose
        s = NOMINAL_SCALE * setup.scale
        # where the figures stand: the layout's, under any light
        _, centres = ring_linear(board, "D65", setup.seed, SIZE, layout=layout)
        tiles = apply_pose(pose, g.slots)
        figures = [
            None if c is None else rounded(apply_pose(pose, [c])[0]) for c in centres["tiles"]
        ]
        objects = []
        for t, what in enumerate(board.tiles):
            if what is None:
                continue
            r = g.figure * (1.05 if what == CAT else 1.2 if what in SECONDARY else 1.0)
            objects.append(
                {
                    "c": figures[t],
                    "colour": what,
                    "r": round(r * s, 1),
                    "set": "laser",
                    "shape": "disc",
                    "visible": 1.0,
                    "where": "tile",
                }
            )
        spare_centres = {}
        for colour in RING_COLOURS:
            pts = (
                [rounded(p) for p in apply_pose(pose, centres["spares"][colour])]
                if centres["spares"][colour]
                else []
            )
            spare_centres[colour] = pts
            r = g.figure * (1.2 if colour in SECONDARY else 1.0)
            objects += [
                {
                    "c": p,
                    "colour": colour,
                    "r": round(r * s, 1),
                    "set": "laser",
                    "shape": "disc",
                    "visible": 1.0,
                    "where": "spare",
                }
                for p in pts
            ]
        offsets = [
            (math.dist(c, slot), t, np.subtract(c, slot))
            for t, (c, slot) in enumerate(zip(centres["tiles"], g.slots, strict=True))
            if c is not None
        ]
        off = max(offsets, default=None, key=lambda o: o[0])
        off_centre = None
        if off and off[0] * s >= 6:
            off_centre = {"offset_px": rounded(pose[:, :2] @ off[2]), "tile": off[1]}
        truth = {
            **self.common(setup),
            "tiles": list(board.tiles),
            "tile_centres": rounded(tiles),
            "figure_centres": figures,
            "spares": {c: int(board.spares.get(c, 0)) for c in RING_COLOURS},
            "spare_centres": spare_centres,
            "colour_cards": {c: rounded(apply_pose(pose, pts)) for c, pts in self.cards.items()},
            "tile_shape": "square",
            "off_centre": off_centre,
            "objects": objects,
        }
        targets = [o["c"] for o in objects if o["where"] == "tile"] or rounded(tiles)
        seed = setup.seed
        return Frame(
            name,
            lambda light: ring_linear(board, light, seed, SIZE, layout=layout)[0],
            truth,
            targets if hands else None,
        )

    def calib(self, setup):
        empty = RingBoard((None,) * TILES, dict.fromkeys(RING_COLOURS, 0))
        frames = [self._frame(setup, "calib/empty.jpg", empty, setup.seed, False)]
        for what in (*RING_COLOURS, CAT):
            board = RingBoard((what,) + (None,) * (TILES - 1), dict.fromkeys(RING_COLOURS, 0))
            frames.append(self._frame(setup, f"calib/{what}.jpg", board, setup.seed, False))
        for f, label in zip(frames, ["empty", *RING_COLOURS, CAT], strict=True):
            f.truth["calib_colour"] = label
        return frames

    def test(self, setup, rng):
        empty = f"test/{setup.name}_empty.jpg"
        board0 = RingBoard((None,) * TILES, dict.fromkeys(RING_COLOURS, 0))
        frames = [self._frame(setup, empty, board0, setup.seed, False)]
        for k in range(5):
            board = random_board(random.Random(int(rng.integers(1 << 30))))
            layout = int(rng.integers(1 << 30))
            frames.append(
                self._frame(
                    setup, f"test/{setup.name}_f{k}.jpg", board, layout, rng.random() < HAND_SHARE
                )
            )
        for f in frames:
            f.truth["empty"] = empty
        return frames
