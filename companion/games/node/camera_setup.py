"""Node's camera set-up (the contract: companion.ui.camera_setup.contract): the mat's tab, its
lattice found on the empty mat and its colours named, node by node, on a card laid on it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths
from companion.ui.calib_geometry import Quad
from companion.ui.camera_setup.base import LIGHT, Setup, merged, saved
from companion.ui.camera_setup.contract import Tab
from companion.words import plural
from vision.classify import Prototype
from vision.errors import CalibrationError


@dataclass(frozen=True)
class NodeCard:
    """A card found on the Node table: its shape as it lies (rows, columns), what the
    reader measured of it (`vision.node.card.Nodes`: each node's pixels row by row, the
    white of its paper) and a first guess at each node's colour name ("grey" when there is
    none)."""

    shape: tuple[int, int]
    nodes: Any
    guesses: tuple[str, ...]


class NodeSetup(Setup):
    """The mat's lattice, found on a photo of the empty mat (`vision.node.table_setup`, as
    `companion vision calibrate-node` finds it), and the node colours named on a card laid
    on it. The lattice is shown, not dragged."""

    fixed = frozenset({"table"})  # the lattice is found on the empty mat

    def __init__(self, path: Path, frame_size, simulated: bool = False) -> None:
        from vision.node.calibration import NodeCalibration
        from vision.render.node import NODE_COLOURS, default_layout

        super().__init__(frame_size)
        self.path = Path(path)
        self.colours = NODE_COLOURS
        self.learnt: tuple[Prototype, ...] = ()
        self.found: NodeCard | None = None
        self.lattice = None  # vision.node.table_setup.Lattice found on this session's empty mat

        def usual() -> NodeCalibration:
            from vision.node.grid import Grid

            layout = default_layout(size=self.frame_size)
            protos: tuple = ()
            if simulated:  # the rendered table's set-up, as the simulated camera shows it
                from vision.render.node import rendered_node_calibration

                return rendered_node_calibration(layout)
            (x0, y0), (x1, y1), _, (x3, y3) = layout.corners
            cols, rows = layout.grid
            grid = Grid(
                (x0, y0),
                ((x1 - x0) / cols, (y1 - y0) / cols),
                ((x3 - x0) / rows, (y3 - y0) / rows),
                cols,
                rows,
            )
            return NodeCalibration(grid, self.frame_size, protos, dark_lines=False)

        self.base, in_file = self._open(NodeCalibration.load, usual, "Node ")
        self.has_lattice = in_file or simulated  # else the usual layout, only to show
        self.shapes = {"table": self._quad(self.base.grid_for(self.frame_size))}

    @staticmethod
    def _quad(grid) -> Quad:
        return Quad(tuple((round(float(x), 1), round(float(y), 1)) for x, y in grid.corners()))

    def grid(self) -> tuple[int, int]:
        g = self.lattice.grid if self.lattice is not None else self.base.grid
        return g.cols, g.rows

    def labels(self) -> dict[str, str]:
        cols, rows = self.grid()
        found = "found" if self.lattice is not None else "in force"
        return {"table": f"lattice {found}: {cols} x {rows} nodes"}

    def instructions(self) -> str:
        return (
            "Empty table: the whole mat in view, nothing on it (its lattice is found). Then "
            "lay one card (one colour, or all of them) and Learn colours; one card of each "
            "colour in turn if need be."
        )

    def calibration(self):
        from vision.node.calibration import NodeCalibration

        protos = merged(self.base.prototypes, self.learnt)
        if not protos:
            raise CalibrationError("no Node colours known yet: lay a card and Learn colours")
        if self.lattice is None:
            if not self.has_lattice:
                raise CalibrationError("the mat's lattice is not found yet: take the Empty table")
            return replace(self.base, prototypes=protos)
        lat = self.lattice
        return NodeCalibration(lat.grid, lat.frame_size, protos, lat.dark_lines, self.base.card)

    def learn(self, empty, frame) -> str:
        """Finds the lattice on `empty` and the card laid since; its nodes are then named by
        a person (`NodeCard`, then `learn_named`). Returns what was found, or why nothing
        was."""
        found = self.find_card(empty, frame)
        if isinstance(found, str):
            self.found = None
            return found
        self.found = found
        h, w = found.shape
        return f"Found a card of {h} x {w} nodes: tap each node until it shows its colour."

    def find_card(self, empty, frame):
        """The card laid on the empty mat, as `NodeCard` with the colour the set-up so far
        reads at each node ("grey" when it knows none); or a sentence saying why no card
        was found. Raises CalibrationError when the empty mat shows no lattice."""
        from vision.classify import Classifier
        from vision.colour import colour_of
        from vision.node.table_setup import card_nodes, find_lattice

        if empty is None:
            return "First take the Empty table, with no card on it."
        lattice = find_lattice(empty)
        self.lattice = lattice
        self.shapes = {"table": self._quad(lattice.grid)}
        self.changed = True
        try:
            nodes = card_nodes(lattice, empty, frame, self.base.card)
        except CalibrationError as exc:
            return f"{str(exc)[0].upper()}{str(exc)[1:]}."
        h, w = nodes.placement[2:]
        known = merged(self.base.prototypes, self.learnt)
        guesses = ["grey"] * len(nodes.pixels)
        if known:
            clf = Classifier(known)
            labs = [colour_of(px, nodes.white) for px in nodes.pixels]
            for k, got in enumerate(clf.classify_many(labs)):
                if got.confidence >= 0.8:
                    guesses[k] = got.colour
        return NodeCard((h, w), nodes, tuple(guesses))

    def learn_named(self, card: NodeCard, named) -> str:
        """Prototypes from the found card's nodes as a person named them ("grey": not
        named, left out); says which learnt colours look alike under this light."""
        from vision.classify import Classifier
        from vision.node.table_setup import learn_colours

        names = ["" if c == "grey" else c for c in named]
        if not any(names):
            return "Nothing learnt: no node was named."
        self.learnt = merged(self.learnt, learn_colours([(card.nodes, names)]))
        self.changed = True
        count = sum(1 for c in names if c)
        left = len(names) - count
        said = f"Learnt {', '.join(sorted({c for c in names if c}))} from {plural(count, 'node')}"
        said += f" ({left} not named)." if left else "."
        known = merged(self.base.prototypes, self.learnt)
        for a, b in Classifier(known).look_alike():
            said += f" {a} and {b} look alike under this light: the app will ask between them."
        lacking = [c for c in self.colours if c not in {p.colour for p in known}]
        return said + (
            f" Still unknown: {', '.join(lacking)}." if lacking else " Every colour known."
        )

    def accept(self) -> str:
        cal = self.calibration()
        cal.save(self.path)  # as `companion vision calibrate-node` saves it
        self.base, self.learnt, self.lattice, self.changed = cal, (), None, False
        self.has_lattice = True
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render.node import LaidCard, default_layout, render_node_table

        card = LaidCard((("red", "yellow", "green"), ("blue", "purple", "red")), 3, 4)
        cards = [card] if laid else []
        return render_node_table(cards, LIGHT, 1, default_layout(size=self.frame_size), frame=i)


TABS = (
    Tab(
        "node",
        "Node table",
        lambda data_dir, frame_size, simulated: NodeSetup(
            paths.calibration_path(data_dir, "node"), frame_size, simulated
        ),
        lay="one card",
        naming="Tap each node until it shows its colour (- : leave it out)",
    ),
)
