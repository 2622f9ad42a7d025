"""What the camera set-up screen edits, one set-up per table: the shapes dragged over the
picture, what to lay where to learn colours, the learning itself (measured by the readers'
own code) and the calibration file the set-up becomes. No Kivy here.

    CardsSetup  Balls & cards: tray, white patch, a card zone per seat and the centre
                -> vision.calibration.Calibration, saved through CalibrationStore
    RingSetup   Laser: the ring's ellipse (12 tiles), six colour cards, white patch
                -> vision.ring_calibration.RingCalibration
    NodeSetup   Node: the table's corners and the node pitch (a card's edge)
                -> vision.node_reader.NodeCalibration

Every file is written atomically and the one it replaces is kept as `<name>.previous.json`;
nothing is written until `accept()`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths
from companion.ui.calib_geometry import Ellipse, Quad, Rect, Segment, Shape, scaled, stretch
from vision.calibration import Calibration, CalibrationStore, previous_path
from vision.classifier import Prototype, learn
from vision.errors import CalibrationError
from vision.floor_texture import FLOORS

MAX_SEATS = 5
LIGHT = "daylight"  # the simulated room while setting up


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` by `text` (temp file, fsync, rename), keeping the old file as
    `<name>.previous.json`: a power cut leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        keep = previous_path(path)
        tmp = keep.with_name(keep.name + ".tmp")
        tmp.write_bytes(path.read_bytes())
        os.replace(tmp, keep)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def saved(path: Path) -> str:
    kept = previous_path(path)
    return f"Saved {path.name}" + (
        f"; the old one is kept as {kept.name}." if kept.exists() else "."
    )


def letters(colours) -> str:
    from companion.ui.colours import label

    return " ".join(label(c) for c in colours)


def _merge(old: tuple[Prototype, ...], new: tuple[Prototype, ...]) -> tuple[Prototype, ...]:
    """The new prototypes, and the old ones of every colour not learnt again."""
    fresh = {p.colour for p in new}
    return new + tuple(p for p in old if p.colour not in fresh)


def _fit(shapes: dict[str, Shape], was: tuple[int, int] | None, now: tuple[int, int]):
    """Shapes of a calibration made for frames of size `was`, for frames of size `now`."""
    if not was or tuple(was) == tuple(now):
        return shapes
    sx, sy = now[0] / was[0], now[1] / was[1]
    return {k: scaled(s, sx, sy) for k, s in shapes.items()}


def _rect(r) -> Rect:
    return Rect(*(float(v) for v in r))


class Setup:
    """Common to the three set-ups: `shapes` (name -> shape, frame pixels), `labels` (what
    the overlay writes beside a shape), `changed` (something not yet accepted)."""

    title = ""
    path: Path

    def __init__(self, frame_size: tuple[int, int]) -> None:
        self.frame_size = (int(frame_size[0]), int(frame_size[1]))
        self.shapes: dict[str, Shape] = {}
        self.changed = False
        self.note = ""  # what loading the file in force said

    def _open(self, load, default, what: str = "") -> tuple[Any, bool]:
        """The set-up in the file (`load(path)`), else `default()`, with `note` saying which:
        (the set-up, whether it came from the file)."""
        try:
            base = load(self.path)
        except (CalibrationError, OSError) as exc:
            self.note = (
                f"No {what}set-up yet: start from the usual layout"
                if not self.path.exists()
                else f"{exc}; starting from the usual layout"
            )
            return default(), False
        self.note = f"Set-up in force: {self.path.name}"
        return base, True

    def labels(self) -> dict[str, str]:
        return {name: name for name in self.shapes}

    def move(self, name: str, shape: Shape) -> None:
        self.shapes[name] = shape
        self.changed = True

    def instructions(self) -> str:
        raise NotImplementedError

    def learn(self, empty: np.ndarray | None, frame: np.ndarray) -> str:
        raise NotImplementedError

    def accept(self) -> str:
        raise NotImplementedError

    def scene(self, laid: bool, i: int) -> np.ndarray:
        """The simulated table's camera frame, bare or with the things to learn laid out."""
        raise NotImplementedError


# Balls & cards ------------------------------------------------------------------------------

CARD_SETS = {
    "Color Milk": ("blue", "green", "orange", "pink", "purple"),
    "Laser": ("red", "yellow", "green", "cyan", "blue", "magenta"),
    "backs": ("back",),
}
# not colours: one competitive Laser prism card of each floor pattern, any colour, in the centre
FLOOR_SET = "Laser floors"
CARD_SETS[FLOOR_SET] = FLOORS


class CardsSetup(Setup):
    """The Color Milk tray, its white patch and the card zones (`seat1`.. and `centre`)."""

    title = "Balls & cards"

    def __init__(self, path: Path, frame_size, seats: int | None = None) -> None:
        from vision.render import scene_calibration
        from vision.render_cards import table_zones

        super().__init__(frame_size)
        self.path = Path(path)
        self.store = CalibrationStore(self.path)
        default = replace(
            scene_calibration(self.frame_size), card_zones=table_zones(self.frame_size)
        )
        self.defaults = {z: _rect(r) for z, r in default.card_zones}
        base, _ = self._open(lambda _path: self.store.load(), lambda: default)
        self.note = self.store.message or self.note
        self.base = base
        shapes: dict[str, Shape] = {}
        if base.tray_roi:
            shapes["tray"] = _rect(base.tray_roi)
        if base.white_roi:
            shapes["white"] = _rect(base.white_roi)
        for name, r in base.card_zones:
            shapes[name] = _rect(r)
        shapes = _fit(shapes, base.frame_size, self.frame_size)
        shapes.setdefault("tray", _rect(default.tray_roi))
        shapes.setdefault("white", _rect(default.white_roi))
        shapes.setdefault("centre", self.defaults["centre"])
        self.shapes = shapes
        have = sum(1 for n in shapes if n.startswith("seat"))
        self.seats = 0
        self.set_seats(seats or have or MAX_SEATS)
        self.changed = False
        self.card_set = next(iter(CARD_SETS))
        self.samples: dict[tuple[str, str], list] = {}  # (kind, colour) -> Lab samples
        self.floors: dict[str, tuple[float, ...]] = {}  # learnt here; else the file's

    def set_seats(self, n: int) -> None:
        n = max(1, min(MAX_SEATS, n))
        for k in range(1, MAX_SEATS + 1):
            name = f"seat{k}"
            if k <= n:
                self.shapes.setdefault(name, self.defaults[name])
            else:
                self.shapes.pop(name, None)
        self.changed = self.changed or n != self.seats
        self.seats = n
        # the zones in reading order for the plan: the seats, then the centre
        self.shapes = {k: self.shapes[k] for k in self._order()}

    def _order(self) -> list[str]:
        seats = [f"seat{k}" for k in range(1, self.seats + 1)]
        return ["tray", "white", *seats, "centre"]

    def zones(self) -> list[str]:
        return [n for n in self._order() if n not in ("tray", "white")]

    def next_card_set(self) -> None:
        names = list(CARD_SETS)
        self.card_set = names[(names.index(self.card_set) + 1) % len(names)]

    def plan(self) -> dict[str, tuple[str, ...]]:
        """The cards of the chosen set spread over the zones in order, as evenly as they go
        (6 colours over 4 zones: 2, 2, 1, 1), each zone's read left to right."""
        colours, zones = CARD_SETS[self.card_set], self.zones()
        if self.card_set == FLOOR_SET:
            return {"centre": FLOORS}
        if colours == ("back",):
            return dict.fromkeys(zones, colours)
        out, i = {}, 0
        for k, zone in enumerate(zones):
            n = len(colours) // len(zones) + (k < len(colours) % len(zones))
            out[zone] = colours[i : i + n]
            i += n
        return {z: c for z, c in out.items() if c}

    def labels(self) -> dict[str, str]:
        from vision.render import BALL_COLOURS

        plan = self.plan()
        out = {"tray": f"tray: {letters(BALL_COLOURS)} from the left", "white": "white"}
        for zone in self.zones():
            out[zone] = zone
            if zone in plan:
                cards = " ".join(FLOORS) if self.card_set == FLOOR_SET else letters(plan[zone])
                out[zone] = f"{zone}: {cards}"
        return out

    def instructions(self) -> str:
        from vision.render import BALL_COLOURS

        if self.card_set == FLOOR_SET:
            return (
                "Drag each box onto its place. Learn: Empty table first, then lay one "
                f"competitive prism card of each floor in the centre, left to right: "
                f"{', '.join(FLOORS)}."
            )
        return (
            "Drag each box onto its place. Learn: Empty table first, then lay the balls "
            f"({letters(BALL_COLOURS)} from the left) and the cards shown in each zone."
        )

    def calibration(self) -> Calibration:
        """The calibration the screen shows now: its regions, the colours learnt so far and
        the old colours not learnt again."""
        fs = self.frame_size
        kept = tuple(z for z in self.base.card_zones if z[0] not in self.shapes)
        kept = tuple(z for z in kept if not z[0].startswith("seat"))  # seats are set here
        zones = tuple((z, self.shapes[z].whole(fs)) for z in self.zones()) + kept
        balls = [(c, lab) for (k, c), labs in self.samples.items() if k == "ball" for lab in labs]
        cards = [(c, lab) for (k, c), labs in self.samples.items() if k == "card" for lab in labs]
        new = learn(balls) + learn(cards)
        return replace(
            self.base,
            prototypes=_merge(self.base.prototypes, new),
            tray_roi=self.shapes["tray"].whole(fs),
            white_roi=self.shapes["white"].whole(fs),
            card_zones=zones,
            frame_size=fs,
            floors=self.floors or self.base.floors,
        )

    def learn(self, empty, frame) -> str:
        from vision.balls import detect_balls, order_key
        from vision.cards import detect_cards
        from vision.render import BALL_COLOURS

        if empty is None:
            return "First take the Empty table, with nothing in the tray or the zones."
        cal = self.calibration()
        learnt, missing = [], []
        balls = detect_balls(frame, empty, cal)
        balls.sort(key=lambda b: order_key(cal, b[0].x, b[0].y))
        if len(balls) == len(BALL_COLOURS):
            for colour, (_, lab) in zip(BALL_COLOURS, balls, strict=True):
                self.samples[("ball", colour)] = [tuple(float(v) for v in lab)]
            learnt.append(f"balls {letters(BALL_COLOURS)}")
        elif balls:
            missing.append(f"{len(balls)} balls in the tray, not {len(BALL_COLOURS)}")
        if self.card_set == FLOOR_SET:
            return self._learn_floors(empty, frame, cal, learnt, missing)
        plan = self.plan()
        found = detect_cards(frame, empty, cal, zones=list(plan))
        got = []
        for zone, colours in plan.items():
            here = sorted((b.x, tuple(float(v) for v in lab)) for z, b, lab in found if z == zone)
            if len(here) != len(colours):
                if here:
                    missing.append(f"{zone}: {len(here)} cards, not {len(colours)}")
                else:
                    missing.append(f"{zone}: no card")
                continue
            for colour, (_, lab) in zip(colours, here, strict=True):
                self.samples.setdefault(("card", colour), [])
                got.append((colour, lab))
        for colour in {c for c, _ in got}:
            self.samples[("card", colour)] = [lab for c, lab in got if c == colour]
        if got:
            learnt.append(f"cards {letters(sorted({c for c, _ in got}))}")
        return self._said(learnt, missing) + " " + self.colours_known()

    def _learn_floors(self, empty, frame, cal, learnt, missing) -> str:
        """The floor patterns from one competitive prism card of each laid in the centre,
        left to right in the order of `FLOORS` (`vision.floor_texture.learn_floors`)."""
        from vision.floor_texture import learn_floors

        try:
            self.floors = learn_floors(frame, empty, cal, FLOORS, "centre")
            learnt.append(f"floors {', '.join(FLOORS)}")
        except CalibrationError as exc:
            missing.append(str(exc))
        return self._said(learnt, missing)

    def _said(self, learnt: list[str], missing: list[str]) -> str:
        if learnt:
            self.changed = True
        said = "Learnt " + "; ".join(learnt) + "." if learnt else "Nothing learnt."
        return said + (" Missing: " + "; ".join(missing) + "." if missing else "")

    def colours_known(self) -> str:
        have = self.calibration().colours
        return f"Colours known: {letters(have)}." if have else "No colours known yet."

    def accept(self) -> str:
        self.store.propose(self.calibration())
        self.store.accept()
        self.changed = False
        self.base = self.store.current
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render import BALL_COLOURS
        from vision.render_cards import FLOOR_CARDS, render_seats

        seats = self.plan() if laid else {}
        if laid and self.card_set == FLOOR_SET:
            seats = {"centre": FLOOR_CARDS}
        balls = BALL_COLOURS if laid else ()
        return render_seats(seats, LIGHT, 1, self.frame_size, frame=i % 4, angle=8, balls=balls)


# Laser ring ---------------------------------------------------------------------------------


class RingSetup(Setup):
    title = "Laser ring"

    def __init__(self, path: Path, frame_size) -> None:
        from vision import ring_calibration
        from vision.render_ring import ring_calibration as rendered_ring

        super().__init__(frame_size)
        self.path = Path(path)
        base, _ = self._open(ring_calibration.load, lambda: rendered_ring(self.frame_size), "ring ")
        self.base = base
        shapes: dict[str, Shape] = {"ring": Ellipse(base.centre, base.radii, base.first)}
        shapes["white"] = _rect(base.white_roi)
        for colour, r in base.cards.items():
            shapes[colour] = _rect(r)
        self.shapes = _fit(shapes, base.frame_size, self.frame_size)
        self.learnt: tuple[Prototype, ...] = ()

    def labels(self) -> dict[str, str]:
        from companion.ui.colours import label

        out = {"ring": "", "white": "white"}
        return out | {c: f"{label(c)} card" for c in self.shapes if c not in out}

    def instructions(self) -> str:
        return (
            "Drag the ring's centre, radii and tile 1, the cards and the white patch. Learn: "
            "a figure on tiles 1-6 (R Y G C B M), the cat on tile 7."
        )

    def calibration(self):
        from vision.ring_calibration import COLOURS, RingCalibration

        ring = self.shapes["ring"]
        size = (ring.radii[0] + ring.radii[1]) / (self.base.radii[0] + self.base.radii[1])
        return RingCalibration(
            self.frame_size,
            ring.centre,
            ring.radii,
            ring.first,
            self.base.tile * size,  # the tiles look as much larger as the ring does
            {c: self.shapes[c].whole(self.frame_size) for c in COLOURS},
            self.shapes["white"].whole(self.frame_size),
            _merge(self.base.prototypes, self.learnt),
        )

    def learn(self, empty, frame) -> str:
        from vision.ring_calibration import COLOURS
        from vision.ring_reader import FIGURE_AREA, WHITE, _measure, _Regions

        plan = [*COLOURS, WHITE]  # tiles 1-6 in circle order, then the cat
        regions = _Regions(self.calibration())
        samples, missing = [], []
        for k, colour in enumerate(plan):
            spot = _measure(frame, regions.tiles[k])
            if spot.lab is None or spot.area < FIGURE_AREA:
                missing.append(f"tile {k + 1} ({'cat' if colour == WHITE else colour})")
            else:
                samples.append((colour, tuple(float(v) for v in spot.lab)))
        if samples:
            self.learnt = _merge(self.learnt, learn(samples))
            self.changed = True
        got = [("cat" if c == WHITE else c) for c, _ in samples]
        said = f"Learnt {', '.join(got)}." if got else "Nothing learnt."
        if missing:
            said += " Missing: " + ", ".join(missing) + "."
        known = sorted({p.colour for p in self.calibration().prototypes})
        lacking = sorted(set(plan) - set(known))
        said += f" Still unknown: {', '.join(lacking)}." if lacking else " Every colour known."
        return said

    def accept(self) -> str:
        from vision import ring_calibration

        cal = self.calibration()
        write_atomically(self.path, json.dumps(ring_calibration.to_json(cal), indent=1))
        self.base, self.learnt, self.changed = cal, (), False
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render_ring import CAT, RING_COLOURS, TILES, RingBoard, render_ring

        tiles = [*RING_COLOURS, CAT] if laid else []
        tiles += [None] * (TILES - len(tiles))
        board = RingBoard(tuple(tiles), dict.fromkeys(RING_COLOURS, 0))
        return render_ring(board, LIGHT, 1, self.frame_size, frame=i % 4)


# Node table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NodeCard:
    """A card found on the Node table: its shape as it lies (rows, columns), each node's
    measured Lab colour (row by row; None where none could be measured) and a first guess
    at its colour name ("grey" when there is none)."""

    shape: tuple[int, int]
    labs: tuple
    guesses: tuple[str, ...]


class NodeSetup(Setup):
    """The table's four corners and the pitch from one card's long edge (its nodes across)."""

    title = "Node table"

    def __init__(self, path: Path, frame_size, simulated: bool = False) -> None:
        from vision.node_reader import NodeCalibration
        from vision.render_node import NODE_COLOURS, default_layout

        super().__init__(frame_size)
        self.path = Path(path)
        self.colours = NODE_COLOURS
        self.learnt: tuple[Prototype, ...] = ()
        self.found: NodeCard | None = None

        def usual() -> NodeCalibration:
            layout = default_layout(size=self.frame_size)
            protos = ()
            if simulated:  # the rendered table's colours, as the simulated camera shows it
                from vision.render_node import rendered_node_calibration

                protos = rendered_node_calibration(layout).prototypes
            return NodeCalibration(layout.corners, layout.pitch, protos)

        base, in_file = self._open(NodeCalibration.load, usual, "Node ")
        # a Node calibration does not say its frame size: the camera's own
        size = None if in_file else self.frame_size
        self.base = base
        (x0, y0) = base.corners[0]
        (x1, y1) = base.corners[1]
        along = math.dist((x0, y0), (x1, y1)) or 1.0
        ux, uy = (x1 - x0) / along, (y1 - y0) / along
        span = base.pitch * self.nodes_along(base)
        # in the middle of the table, where a card laid to measure it is likely to lie
        mx, my = (sum(c[0] for c in base.corners) / 4, sum(c[1] for c in base.corners) / 4)
        start = (mx - span / 2 * ux, my - span / 2 * uy)
        edge = Segment(start, (start[0] + span * ux, start[1] + span * uy))
        self.shapes = _fit({"table": Quad(tuple(base.corners)), "pitch": edge}, size, frame_size)

    @staticmethod
    def nodes_along(cal) -> int:
        return max(cal.card)  # the card's long edge, as the two handles span it

    @property
    def pitch(self) -> float:
        return self.shapes["pitch"].length / self.nodes_along(self.base)

    def set_pitch(self, pitch: float) -> None:
        pitch = max(2.0, pitch)
        self.move("pitch", stretch(self.shapes["pitch"], pitch * self.nodes_along(self.base)))

    def grid(self) -> tuple[int, int]:
        (x0, y0), (x1, y1), _, (x3, y3) = self.shapes["table"].corners
        p = self.pitch
        return round(math.hypot(x1 - x0, y1 - y0) / p), round(math.hypot(x3 - x0, y3 - y0) / p)

    def labels(self) -> dict[str, str]:
        cols, rows = self.grid()
        return {"table": f"table: {cols} x {rows} nodes", "pitch": "card edge"}

    def instructions(self) -> str:
        return (
            "Drag the corners onto the play area and the edge handles onto the ends of a "
            f"card's long edge ({self.nodes_along(self.base)} nodes), or use - and +. Learn: "
            "Empty table, lay one card, Learn colours."
        )

    def _geometry(self, prototypes):
        from vision.node_reader import NodeCalibration

        corners = tuple((round(x, 1), round(y, 1)) for x, y in self.shapes["table"].corners)
        cal = NodeCalibration(corners, round(self.pitch, 2), prototypes, self.base.card)
        if min(cal.grid) < max(cal.card):
            raise CalibrationError("the table area is smaller than a card")
        return cal

    def calibration(self):
        protos = _merge(self.base.prototypes, self.learnt)
        if not protos:
            raise CalibrationError("no Node colours known yet: lay a card and Learn colours")
        return self._geometry(protos)

    def learn(self, empty, frame) -> str:
        """Finds the card laid since `empty`; its nodes are then named by a person
        (`NodeCard`, then `learn_nodes`). Returns what was found, or why nothing was."""
        found = self.find_card(empty, frame)
        if isinstance(found, str):
            self.found = None
            return found
        self.found = found
        h, w = found.shape
        return f"Found a card of {h} x {w} nodes: tap each node until it shows its colour."

    def find_card(self, empty, frame):
        """The card laid between the two frames: each node's measured colour (None where
        none could be measured) and the colour the set-up in force reads there ("grey"
        when it knows none), as `NodeCard`; or a sentence saying why no card was found."""
        from vision.node_reader import PX, NodeReader, Squaring, _change, _whiteness, node_lab
        from vision.render_node import LaidCard

        if empty is None:
            return "First take the Empty table, with no card on it."
        # the reader only has to find the card here: one colour that takes every node
        locate = self._geometry((Prototype("node", (50.0, 0.0, 0.0), 1000.0, 1),))
        reading = NodeReader(locate).read(empty, frame)
        if reading.status not in ("placed", "ask") or not reading.colours:
            return f"No card found: {reading.reason or 'nothing was laid'}."
        h, w = reading.shape
        laid = LaidCard((("",) * w,) * h, reading.row, reading.col, *reading.offset, reading.angle)
        square = Squaring(locate)
        before, after = square(empty), square(frame)
        on = _whiteness(after) & (_change(before, after) > 0)
        ref = np.median(after[on].reshape(-1, 3).astype(np.float32), axis=0)
        centres = laid.to_table([[j + 0.5, i + 0.5] for i in range(h) for j in range(w)])
        labs = [node_lab(after, (x + 1) * PX, (y + 1) * PX, ref) for x, y in centres]
        known = _merge(self.base.prototypes, self.learnt)
        guesses = ["grey"] * len(labs)
        if known:
            from vision.classifier import Classifier

            clf = Classifier(known)
            for k, lab in enumerate(labs):
                got = clf.classify(lab) if lab is not None else None
                if got is not None and got.confidence >= 0.8:
                    guesses[k] = got.colour
        return NodeCard((h, w), tuple(labs), tuple(guesses))

    def learn_nodes(self, card: NodeCard, named) -> str:
        """Prototypes from the found card's nodes as a person named them ("grey": not
        named, left out)."""
        samples = [
            (c, tuple(float(v) for v in lab))
            for c, lab in zip(named, card.labs, strict=True)
            if c != "grey" and lab is not None
        ]
        if not samples:
            return "Nothing learnt: no node was named."
        self.learnt = _merge(self.learnt, learn(samples))
        self.changed = True
        left = len(card.labs) - len(samples)
        said = f"Learnt {', '.join(sorted({c for c, _ in samples}))} from {len(samples)} nodes"
        said += f" ({left} not named)." if left else "."
        known = {p.colour for p in _merge(self.base.prototypes, self.learnt)}
        lacking = [c for c in self.colours if c not in known]
        return said + (
            f" Still unknown: {', '.join(lacking)}." if lacking else " Every colour known."
        )

    def accept(self) -> str:
        cal = self.calibration()
        write_atomically(self.path, json.dumps(cal.to_json(), indent=1))
        self.base, self.learnt, self.changed = cal, (), False
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render_node import LaidCard, default_layout, render_node_table

        card = LaidCard((("red", "yellow", "green"), ("blue", "purple", "red")), 3, 4)
        cards = [card] if laid else []
        return render_node_table(cards, LIGHT, 1, default_layout(size=self.frame_size), frame=i)


def open_setup(kind: str, data_dir: Path, frame_size, simulated: bool) -> Setup:
    from vision.doctor import calibration_path

    if kind == "cards":
        return CardsSetup(calibration_path(data_dir), frame_size)
    if kind == "ring":
        return RingSetup(paths.ring_calibration_path(data_dir), frame_size)
    return NodeSetup(paths.node_calibration_path(data_dir), frame_size, simulated)
