"""The Node placement reader: `read(before, after)` finds the lattice (kept for the game),
squares both frames up onto it, finds the card laid (`vision.node.card`) and names its
colours through the one colour path (`vision.colour`, `vision.classify`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.classify import UNKNOWN, Classifier, Reading
from vision.colour import colour_of
from vision.layout import CameraMoved
from vision.node.calibration import NODE_SET, NodeCalibration
from vision.node.card import HAND, Nodes, locate_card
from vision.node.grid import Grid
from vision.node.grid_search import find_grid
from vision.node.reading import NodeReading
from vision.node.squaring import Squaring
from vision.registration import MOVED

ASK_BELOW = 0.8  # node confidence below which a person is asked


class NodeReader:
    """`read(before, after) -> NodeReading` for two still frames of the table. The lattice is
    found in the first frame read (or by `find`, at the start of each game) and kept."""

    def __init__(self, cal: NodeCalibration, *, ask_below: float = ASK_BELOW) -> None:
        self.cal = cal
        self.ask_below = ask_below
        mine = tuple(p for p in cal.prototypes if p.set == NODE_SET) or cal.prototypes
        self.classifier = Classifier(mine)
        self.grid: Grid | None = None
        self.square: Squaring | None = None

    def find(self, frame: np.ndarray) -> Grid:
        """The lattice in this frame (the first of a game), kept for the frames that follow.
        Raises CameraMoved when it cannot be found."""
        h, w = frame.shape[:2]
        grid = find_grid(frame, self.cal.dark_lines, self.cal.grid_for((w, h)))
        self.use(grid)
        if grid is None:
            raise CameraMoved()
        return grid

    def use(self, grid: Grid | None) -> None:
        """Read on this lattice from now on (None: find it again in the next frame)."""
        self.grid = grid
        self.square = None if grid is None else Squaring(grid)

    def read(self, before: np.ndarray, after: np.ndarray) -> NodeReading:
        if self.square is None:
            try:
                self.find(before)
            except CameraMoved:
                return NodeReading("moved", MOVED)
        return self.read_squared(self.square(before), self.square(after))

    def read_squared(self, before: np.ndarray, after: np.ndarray) -> NodeReading:
        found = self.locate(before, after)
        if isinstance(found, NodeReading):
            if found.status == "unsteady" and found.reason == HAND:
                # the hand's faint shadow may reach a card laid clear of the hand itself:
                # that card is taken only when it reads sure
                clear = self.locate(before, after, faint=False)
                if isinstance(clear, Nodes):
                    reading = self.classify(clear)
                    if reading.status == "placed":
                        return reading
            return found
        return self.classify(found)

    def classify(self, nodes: Nodes) -> NodeReading:
        labs = [colour_of(px, nodes.white) for px in nodes.pixels]
        readings = self.classifier.classify_many(labs)
        row, col, h, w = nodes.placement
        grid = [readings[i * w : (i + 1) * w] for i in range(h)]
        out = NodeReading(
            "placed",
            "",
            row,
            col,
            tuple(tuple(r.colour for r in line) for line in grid),
            tuple(tuple(_sure(r) for r in line) for line in grid),
            tuple(tuple(r.candidates[:3] for r in line) for line in grid),
            nodes.offset,
            nodes.angle,
            nodes.alternatives,
        )
        if nodes.doubt:
            return replace(out, status="ask", reason=nodes.doubt)
        unsure = sum(c < self.ask_below for line in out.confidence for c in line)
        if unsure:
            return replace(out, status="ask", reason=f"unsure of {_nodes(unsure)}")
        return out

    def locate(
        self, before: np.ndarray, after: np.ndarray, faint: bool = True
    ) -> Nodes | NodeReading:
        """The card laid between two squared-up frames, or the reading that says why none
        can be made out (`vision.node.card.locate_card`)."""
        return locate_card(before, after, self.cal.card, faint)


def _sure(r: Reading) -> float:
    return 0.0 if r.colour == UNKNOWN else round(float(r.confidence), 4)


def _nodes(n: int) -> str:
    return f"{n} node{'s' if n > 1 else ''}"
