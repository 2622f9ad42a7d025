"""Laser's camera set-up (the contract: companion.ui.camera_setup.contract): the ring's tab, and
its prism cards' colours and floors learnt on the shared Balls & cards tab."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion import paths
from companion.games.laser.board import COLOURS
from companion.ui.calib_geometry import Ellipse, Rect, Shape
from companion.ui.camera_setup.base import LIGHT, Setup, as_rect, fitted, saved, write_atomically
from companion.ui.camera_setup.contract import CardSet, Tab
from vision.floor_texture import FLOORS

# the prism cards' colours; their floors are patterns, learnt from one competitive card of each
CARD_SETS = (CardSet("Laser", "laser", COLOURS), CardSet("Laser floors", "", FLOORS, floors=True))


class RingSetup(Setup):
    """The ring's rough geometry by finger (an ellipse through the tiles, the cards, the
    white patch), then learnt from two pictures: the empty ring, and a figure of each colour
    on tiles 1-6 with the cat on tile 7 (`vision.ring.learning.calibrate`, as the CLI's
    `calibrate-ring`). Each game the ring is found anew near these places."""

    def __init__(self, path: Path, frame_size) -> None:
        from vision.render.ring import ring_geometry_calibration
        from vision.ring import calibration as ring_calibration

        super().__init__(frame_size)
        self.path = Path(path)
        base, _ = self._open(
            ring_calibration.load, lambda: ring_geometry_calibration(self.frame_size), "ring "
        )
        self.base = base
        shapes: dict[str, Shape] = {"ring": Ellipse(*_ellipse_through(base.tiles))}
        shapes["white"] = as_rect(base.white_roi)
        for colour, corners in base.cards.items():
            shapes[colour] = _bounds(corners)
        self.shapes = fitted(shapes, base.frame_size, self.frame_size)
        self.learnt = None  # a RingCalibration learnt from this screen's pictures

    def labels(self) -> dict[str, str]:
        from companion.ui.colours import label

        out = {"ring": "", "white": "white"}
        return out | {c: f"{label(c)} card" for c in self.shapes if c not in out}

    def instructions(self) -> str:
        return (
            "Drag the ring's centre, radii and tile 1, the cards and the white patch. Take "
            "the empty ring, then lay a figure on tiles 1-6 (R Y G C B M), the cat on tile 7, "
            "and Learn."
        )

    def _geometry(self):
        from vision.ring.calibration import COLOURS, ellipse_tiles, rect_corners

        ring = self.shapes["ring"]
        base = self.learnt or self.base
        size = (ring.radii[0] + ring.radii[1]) / (self.base_radii[0] + self.base_radii[1])
        return replace(
            base,
            frame_size=self.frame_size,
            tiles=ellipse_tiles(ring.centre, ring.radii, ring.first),
            tile=self.base.tile * size,  # the tiles look as much larger as the ring does
            cards={c: rect_corners(self.shapes[c].whole(self.frame_size)) for c in COLOURS},
            white_roi=self.shapes["white"].whole(self.frame_size),
        )

    @property
    def base_radii(self) -> tuple[float, float]:
        return _ellipse_through(self.base.tiles)[1]

    def calibration(self):
        """The set-up as drawn, with what was learnt (from this screen or the file)."""
        return self._geometry()

    def learn(self, empty, frame) -> str:
        from vision.ring.calibration import CAT, COLOURS
        from vision.ring.learning import calibrate, look_alikes

        if empty is None:
            return "First take the Empty ring: tiles and colour cards laid, nothing on them."
        plan = dict(enumerate((*COLOURS, CAT)))  # tiles 1-6 in circle order, then the cat
        self.learnt = calibrate(self._geometry(), empty, [(frame, plan)])
        self.changed = True
        said = f"Learnt {', '.join(plan.values())}. Every colour known."
        for a, b in look_alikes(self.learnt):
            said += f" {a} and {b} look alike under this light: the app will ask between them."
        return said

    def accept(self) -> str:
        from vision.ring import calibration as ring_calibration

        cal = self.calibration()
        write_atomically(self.path, json.dumps(ring_calibration.to_json(cal), indent=1))
        self.base, self.learnt, self.changed = cal, None, False
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render.ring import render_ring
        from vision.render.ring_board import CAT, RING_COLOURS, TILES, RingBoard

        tiles = [*RING_COLOURS, CAT] if laid else []
        tiles += [None] * (TILES - len(tiles))
        board = RingBoard(tuple(tiles), dict.fromkeys(RING_COLOURS, 0))
        return render_ring(board, LIGHT, 1, self.frame_size, frame=i % 4)


def _ellipse_through(tiles) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The ellipse the set-up screen draws through a ring's tile centres (tile 1 first)."""
    xs, ys = [p[0] for p in tiles], [p[1] for p in tiles]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    rx = max(max(abs(x - cx) for x in xs), 1.0)
    ry = max(max(abs(y - cy) for y in ys), 1.0)
    first = math.degrees(math.atan2((ys[0] - cy) / ry, (xs[0] - cx) / rx))
    return (cx, cy), (rx, ry), first


def _bounds(corners) -> Rect:
    """A card's corners as the upright box the set-up screen drags."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


TABS = (
    Tab(
        "ring",
        "Laser ring",
        lambda data_dir, frame_size, _simulated: RingSetup(
            paths.calibration_path(data_dir, "ring"), frame_size
        ),
        lay="a figure on tiles 1-6 (R Y G C B M) and the cat on tile 7",
    ),
)
