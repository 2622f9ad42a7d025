"""The Node placement reader's adapter (see companion.runtime.readers; Node's camera module
brings it): the table is watched for steady frames (vision.node.watch), each compared with
the table as last read; a card laid since becomes a CardRead for Node's interpret (placed,
or to confirm with the reason). The mat's lattice is found anew whenever watching begins (a
game's first frame): when it cannot be, the camera has moved, which is said once, and the
cards are entered by touch until it is found again."""

from __future__ import annotations

from companion import paths
from companion.cues import Announce
from companion.game import ReaderSpec
from companion.runtime.readers import SETTLED_GAP, CalibrationFile, Setup

from .events import CardRead
from .rules import GAME

NODE = CalibrationFile(
    "node",
    "Node table",
    lambda file: paths.calibration_path(file.parent, "node"),
    "The camera does not know the Node table yet: enter the cards by touch, and "
    "set the table up in Settings, Camera set-up.",
)


def simulated_table(setup: Setup):
    """The simulated Node table the camera looks at (companion.games.node.sim_node), or
    None with a real camera."""
    return setup.scene.part(GAME.name).node if setup.scene is not None else None


def node_calibration(setup: Setup):
    """The real table's calibration, or the simulated table's for its present layout."""
    table = simulated_table(setup)
    layout = table.layout if table is not None else None

    def simulated():
        from vision.render.node import rendered_node_calibration

        return rendered_node_calibration(layout)

    def real(path):
        from vision.node.calibration import NodeCalibration

        return NodeCalibration.load(path)

    return setup.calibration(NODE, simulated, real, variant=layout)


class NodeAdapter:
    still_gap = SETTLED_GAP  # the watcher waits for steady frames only

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.watcher = None  # vision.node.watch.NodeWatcher once calibrated
        self._calibration = None  # ... with this calibration
        self._spec: ReaderSpec | None = None
        self._fresh = True  # the next frame is the table to compare with ...
        self._laid = 0  # ... or, on the simulated table, the table with this many cards
        self._told_moved = False  # "the camera has moved" was said
        self.off = False

    def want(self, spec: ReaderSpec | None) -> None:
        if spec is None or self._spec is None:
            self._fresh = True  # not watched in between: start again from what lies there
            table = simulated_table(self.setup)
            # the simulated table as the reader was wanted: a card laid while the reader
            # was still being calibrated is news, as the balls rolled in meanwhile are
            self._laid = table.laid() if table is not None else 0
        self._spec = spec

    def read(self, image) -> list:
        if self._spec is None:
            return []
        calibration = node_calibration(self.setup)  # (known after the first time)
        if calibration is None:
            self.off = True
            return []
        if calibration is not self._calibration:  # the first, or a new simulated table
            from vision.node.reader import NodeReader
            from vision.node.watch import NodeWatcher

            reader = NodeReader(calibration, ask_below=self.setup.ask_threshold)
            self.watcher, self._calibration, self._fresh = NodeWatcher(reader), calibration, True
        if self._fresh:
            self._fresh = False
            table = simulated_table(self.setup)
            self.watcher.reset(table.picture(self._laid) if table is not None else image)
        readings = self.watcher.feed(image)
        if self.watcher.moved != self._told_moved:
            self._told_moved = self.watcher.moved
            if self.watcher.moved:
                self.setup.on_cue(Announce(f"{self.watcher.waiting} Enter the cards by touch."))
        self.setup.reading.set()
        return [
            CardRead(
                tuple(tuple(line) for line in r.colours),
                r.row,
                r.col,
                tuple(tuple(line) for line in r.confidence),
                "" if r.status == "placed" else r.reason,
            )
            for r in readings
        ]
