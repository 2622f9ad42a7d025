"""The Node table's set-up, one code path for the set-up screen and `companion vision
calibrate-node`: the lattice found on a photo of the empty mat, and the node colours learnt
from one card of each colour (or one card showing them all) laid on it, measured exactly as
the reader measures them (`vision.node`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.classify import Classifier, Prototype, learn
from vision.colour import colour_of, spread_of
from vision.errors import CalibrationError
from vision.node.calibration import NODE_SET, NodeCalibration
from vision.node.card import Nodes
from vision.node.grid import Grid
from vision.node.grid_search import find_grid
from vision.node.reader import NodeReader
from vision.node.reading import NodeReading

MIN_CELLS = 3  # a lattice smaller than a card in either direction is no Node mat


@dataclass(frozen=True)
class Lattice:
    """The mat's lattice found on the empty mat, and whether its lines are dark."""

    grid: Grid
    dark_lines: bool
    frame_size: tuple[int, int]


def find_lattice(empty: np.ndarray) -> Lattice:
    """The lattice printed on the mat in a photo of the empty mat (dark lines on a light mat,
    or light lines on a dark one). Raises CalibrationError when there is none."""
    size = (empty.shape[1], empty.shape[0])
    found = [(grid, dark) for dark in (True, False) if (grid := find_grid(empty, dark))]
    # the mat's own lattice is the largest one; a pattern of a few cells is something else
    found = [(g, dark) for g, dark in found if min(g.cols, g.rows) >= MIN_CELLS]
    if found:
        grid, dark = max(found, key=lambda f: f[0].cols * f[0].rows)
        return Lattice(Grid.from_json(grid.to_json()), dark, size)  # as its file keeps it
    raise CalibrationError(
        "no printed lattice found on the empty mat: the whole mat in view, evenly lit, "
        "nothing on it"
    )


def card_nodes(lattice: Lattice, empty: np.ndarray, frame: np.ndarray, card=(3, 2)) -> Nodes:
    """The card laid on the empty mat in `frame`, as the reader finds it (its nodes' pixels
    row by row as it lies, and its paper's white). Raises CalibrationError."""
    if frame.shape != empty.shape:
        raise CalibrationError("the card photo and the empty mat's differ in size")
    # the reader only has to find the card here: one colour that takes every node
    probe = NodeCalibration(
        lattice.grid,
        lattice.frame_size,
        (Prototype("node", (50.0, 0.0, 0.0), 1000.0),),
        lattice.dark_lines,
        tuple(card),
    )
    reader = NodeReader(probe)
    reader.use(lattice.grid)
    found = reader.locate(reader.square(empty), reader.square(frame))
    if isinstance(found, NodeReading):
        raise CalibrationError(f"no card found: {found.reason}")
    return found


def learn_colours(
    found: Sequence[tuple[Nodes, Sequence[str]]],
) -> tuple[Prototype, ...]:
    """Prototypes of the node colours from cards found (`card_nodes`), each with the colour
    of each of its nodes (row by row as it lies; "" for a node not to learn): all the nodes of
    one colour together make that colour's one piece."""
    pooled: dict[str, list[np.ndarray]] = {}
    whites: dict[str, list[np.ndarray]] = {}
    for nodes, colours in found:
        if len(colours) != len(nodes.pixels):
            raise CalibrationError(
                f"the card has {len(nodes.pixels)} nodes but {len(colours)} colours were named"
            )
        for px, colour in zip(nodes.pixels, colours, strict=True):
            if colour:
                pooled.setdefault(colour, []).append(px)
                whites.setdefault(colour, []).append(nodes.white)
    if not pooled:
        raise CalibrationError("no node colour named")
    samples = []
    for colour, parts in pooled.items():
        # balanced each by its own card's white, then one sample of the colour
        labs = [colour_of(px, w) for px, w in zip(parts, whites[colour], strict=True)]
        spreads = [spread_of(px, w) for px, w in zip(parts, whites[colour], strict=True)]
        lab = np.median(np.array(labs), axis=0)
        sigma = float(np.sqrt(np.mean(np.square(spreads))))
        samples.append((colour, tuple(float(v) for v in lab), sigma))
    return learn(samples, NODE_SET)


def look_alikes(prototypes: Sequence[Prototype]) -> list[tuple[str, str]]:
    return Classifier(prototypes).look_alike()


def calibrate(
    empty: np.ndarray,
    cards: Sequence[tuple[np.ndarray, Sequence[str]]],
    card: tuple[int, int] = (3, 2),
) -> NodeCalibration:
    """A Node calibration from a photo of the empty mat and photos of cards laid on it, each
    with its nodes' colours row by row as it lies (one name for a card of one colour)."""
    lattice = find_lattice(empty)
    found = []
    for frame, colours in cards:
        nodes = card_nodes(lattice, empty, frame, card)
        named = list(colours) * len(nodes.pixels) if len(colours) == 1 else list(colours)
        found.append((nodes, named))
    protos = learn_colours(found)
    return NodeCalibration(lattice.grid, lattice.frame_size, protos, lattice.dark_lines, card)
