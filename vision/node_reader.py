"""Node placement reader: which card was just laid on the table, where, and its colours.

Both frames are squared up onto the table grid (the calibrated table area and node pitch) with
a node of margin, `PX` pixels a node. What changed between them is the new card, which lies
on top of everything: its tilt comes from the edges inside the change, its lattice (white
lines between square nodes) from the whiteness along each axis of the tilted card, and its
extent from the lattice cells that changed. Each node's colour is measured against the white
of the card itself and classified; the placement snaps to the grid.

Anything the reader cannot be sure of is said, never guessed: a change too big or the wrong
shape for one card (a hand in view, a knocked table) is no reading; two ways to lay the card
that both fit what changed, a card half-way between grid nodes, or a node the classifier is
unsure of make the reading `ask`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import UNKNOWN, Classifier, Prototype
from vision.colour import robust_colour, to_lab
from vision.errors import CalibrationError

FORMAT = "node-table-calibration"
PX = 20  # pixels a node in the squared-up table
DIFF_LEVEL = 28  # 8-bit change that counts (noise is a few levels after a 5x5 blur)
MIN_CHANGE = 0.5  # nodes of change below which nothing was placed
MAX_ANGLE = 14.0  # degrees: a card further off the grid is not read
SNAP_LIMIT = 0.42  # nodes: a card further off a grid position is between two of them
CELL_COVER = 0.35  # share of a lattice cell that must change for the card to lie on it
EDGE_SHARE = 0.01  # share of the frame's edge that changed: an arm reaching in
ASK_BELOW = 0.8  # node confidence below which a person is asked


@dataclass(frozen=True)
class NodeCalibration:
    """The table area (corners top-left, top-right, bottom-right, bottom-left, in frame
    pixels), the node pitch along its top edge, the card shape and the node colours."""

    corners: tuple[tuple[float, float], ...]
    pitch: float
    prototypes: tuple[Prototype, ...]
    card: tuple[int, int] = (3, 2)  # nodes across, down as printed

    @property
    def grid(self) -> tuple[int, int]:
        (x0, y0), (x1, y1), _, (x3, y3) = self.corners
        return (
            round(math.hypot(x1 - x0, y1 - y0) / self.pitch),
            round(math.hypot(x3 - x0, y3 - y0) / self.pitch),
        )

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(sorted({p.colour for p in self.prototypes}))

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": 1,
            "corners": [list(c) for c in self.corners],
            "pitch": self.pitch,
            "card": list(self.card),
            "prototypes": [asdict(p) for p in self.prototypes],
        }

    @classmethod
    def from_json(cls, data) -> NodeCalibration:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError(f'not a Node table calibration (no "format": "{FORMAT}")')
        try:
            corners = tuple((float(x), float(y)) for x, y in data["corners"])
            pitch = float(data["pitch"])
            card = tuple(int(v) for v in data.get("card", (3, 2)))
            protos = tuple(
                Prototype(**{**p, "lab": tuple(float(v) for v in p["lab"])})
                for p in data["prototypes"]
            )
        except KeyError as exc:
            raise CalibrationError(f"Node table calibration without {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(f"damaged Node table calibration: {exc}") from None
        if len(corners) != 4 or pitch <= 0 or len(card) != 2 or min(card) < 1 or not protos:
            raise CalibrationError(
                "a Node table calibration needs 4 corners, a positive pitch, a card shape "
                "and colour prototypes"
            )
        cal = cls(corners, pitch, protos, card)
        if min(cal.grid) < max(card):
            raise CalibrationError("the table area is smaller than a card")
        return cal

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> NodeCalibration:
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"not JSON ({exc.msg}, line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise CalibrationError("not JSON (not text at all)") from None


@dataclass(frozen=True)
class NodeReading:
    """One reading. `status`: "placed" (confident), "ask" (a person must confirm: see
    `reason`), "nothing" (no card was added) or "unsteady" (a hand or too much changed).

    `colours` are the card's rows as they lie, `confidence` per node in the same order;
    (`row`, `col`) is the grid node under its top-left node; `alternatives` other
    (row, col, rows, cols) the card could lie on."""

    status: str
    reason: str = ""
    row: int = 0
    col: int = 0
    colours: tuple[tuple[str, ...], ...] = ()
    confidence: tuple[tuple[float, ...], ...] = ()
    offset: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    alternatives: tuple[tuple[int, int, int, int], ...] = field(default=())

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.colours), len(self.colours[0])) if self.colours else (0, 0)

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "reason": self.reason,
            "row": self.row,
            "col": self.col,
            "rows": self.shape[0],
            "cols": self.shape[1],
            "colours": [list(r) for r in self.colours],
            "confidence": [list(r) for r in self.confidence],
            "offset": list(self.offset),
            "angle": self.angle,
            "alternatives": [list(a) for a in self.alternatives],
        }


class Squaring:
    """`square(frame)`: the table squared up, PX pixels a node, one node of margin round."""

    def __init__(self, cal: NodeCalibration) -> None:
        cols, rows = cal.grid
        self.size = ((cols + 2) * PX, (rows + 2) * PX)
        dst = np.float32([[1, 1], [cols + 1, 1], [cols + 1, rows + 1], [1, rows + 1]]) * PX
        self.warp = cv2.getPerspectiveTransform(np.float32(cal.corners), dst)

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("a frame is a colour image")
        return cv2.warpPerspective(frame, self.warp, self.size, flags=cv2.INTER_LINEAR)


class NodeReader:
    """`read(before, after) -> NodeReading` for two still frames of the table."""

    def __init__(self, cal: NodeCalibration, *, ask_below: float = ASK_BELOW) -> None:
        self.cal = cal
        self.ask_below = ask_below
        self.classifier = Classifier(cal.prototypes)
        self.square = Squaring(cal)

    def read(self, before: np.ndarray, after: np.ndarray) -> NodeReading:
        if reaches_in(thumbnail(before), thumbnail(after)):
            return NodeReading("unsteady", "a hand reaches in from the edge of the view")
        return self.read_squared(self.square(before), self.square(after))

    def read_squared(self, before: np.ndarray, after: np.ndarray) -> NodeReading:
        changed = _change(before, after)
        area = cv2.countNonZero(changed) / PX**2
        card_w, card_h = self.cal.card
        if area < MIN_CHANGE:
            return NodeReading("nothing", "no card was added")
        if area > 1.5 * card_w * card_h:
            return NodeReading("unsteady", f"{area:.0f} nodes changed: a hand or a knock")
        pts = cv2.findNonZero(changed)
        (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
        long, short = max(rw, rh) / PX, min(rw, rh) / PX
        if long > max(card_w, card_h) + 0.9 or short > min(card_w, card_h) + 0.9:
            return NodeReading("unsteady", "the change is not one card: a hand or a knock")
        angle = _tilt(after, changed, pts)
        if angle is None or abs(angle) > MAX_ANGLE:
            return NodeReading("ask", "the card lies too far off the grid to read")
        return self._card(after, changed, pts, angle)

    def _card(self, after, changed, pts, angle) -> NodeReading:
        cx, cy = pts.reshape(-1, 2).mean(axis=0)
        half = 3.5 * PX
        # the card's own frame: rotated by -angle about the change, 7 x 7 nodes
        m = cv2.getRotationMatrix2D((float(cx), float(cy)), angle, 1.0)
        m[:, 2] += (half - cx, half - cy)
        win = (int(2 * half), int(2 * half))
        # beyond the squared-up table: black, which is no node (never a mirrored card)
        img = cv2.warpAffine(after, m, win, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        mask = cv2.warpAffine(changed, m, win, flags=cv2.INTER_NEAREST)
        white = _whiteness(img)
        on = white & (mask > 0)
        if cv2.countNonZero(on) < 2 * PX:
            return NodeReading("ask", "no white card edge in what changed")
        ox = _phase(on.sum(axis=0), mask.sum(axis=0))
        oy = _phase(on.sum(axis=1), mask.sum(axis=1))
        cells = self._cells(mask, ox, oy)
        if not cells:
            return NodeReading("ask", "the change covers no whole node")
        ref = np.median(img[on].reshape(-1, 3).astype(np.float32), axis=0)
        blocks = self._blocks(cells, img, ox, oy, ref)
        if not blocks:
            return NodeReading("ask", "what changed does not fit one card")
        inv = cv2.invertAffineTransform(m)
        found = []
        for i0, j0, h, w in blocks:
            centre = np.array([ox + (j0 + w / 2) * PX, oy + (i0 + h / 2) * PX, 1.0])
            tx, ty = inv @ centre / PX - 1.0  # table nodes
            col, row = round(tx - w / 2), round(ty - h / 2)
            found.append((row, col, h, w, (tx - w / 2 - col, ty - h / 2 - row), (i0, j0)))
        row, col, h, w, off, (i0, j0) = found[0]
        colours, confs = [], []
        for i in range(h):
            line, cline = [], []
            for j in range(w):
                colour, conf = self._node(
                    img, ox + (j0 + j + 0.5) * PX, oy + (i0 + i + 0.5) * PX, ref
                )
                line.append(colour)
                cline.append(conf)
            colours.append(tuple(line))
            confs.append(tuple(cline))
        out = NodeReading(
            "placed",
            "",
            row,
            col,
            tuple(colours),
            tuple(confs),
            (round(float(off[0]), 2), round(float(off[1]), 2)),
            round(float(angle), 1),
            tuple((r, c, hh, ww) for r, c, hh, ww, _, _ in found[1:]),
        )
        unsure = sum(c < self.ask_below for line in confs for c in line)
        if len(found) > 1:
            return _ask(out, f"the card could lie {len(found)} ways on what changed")
        if max(abs(off[0]), abs(off[1])) > SNAP_LIMIT:
            return _ask(out, "the card lies between two grid positions")
        if unsure:
            return _ask(out, f"unsure of {unsure} node{'s' if unsure > 1 else ''}")
        return out

    def _cells(self, mask, ox, oy) -> set[tuple[int, int]]:
        """Lattice cells (i down, j across) of the window that mostly changed."""
        out = set()
        n = int(mask.shape[0] // PX) + 1
        inset = int(0.2 * PX)
        for i in range(-1, n):
            for j in range(-1, n):
                y0, x0 = int(round(oy + i * PX)) + inset, int(round(ox + j * PX)) + inset
                y1, x1 = y0 + PX - 2 * inset, x0 + PX - 2 * inset
                if y0 < 0 or x0 < 0 or y1 > mask.shape[0] or x1 > mask.shape[1]:
                    continue
                if mask[y0:y1, x0:x1].mean() / 255 >= CELL_COVER:
                    out.add((i, j))
        return out

    def _blocks(self, cells, img, ox, oy, ref) -> list[tuple[int, int, int, int]]:
        """(i0, j0, h, w) card positions holding every changed cell, each of their other
        cells showing a node (an unchanged node covered by one of the same colour)."""
        top, bottom = min(i for i, _ in cells), max(i for i, _ in cells)
        left, right = min(j for _, j in cells), max(j for _, j in cells)
        cw, ch = self.cal.card
        out = []
        for h, w in sorted({(ch, cw), (cw, ch)}):
            for i0 in range(bottom - h + 1, top + 1):
                for j0 in range(right - w + 1, left + 1):
                    block = {(i0 + i, j0 + j) for i in range(h) for j in range(w)}
                    rest = block - cells
                    if all(
                        self._node(img, ox + (j + 0.5) * PX, oy + (i + 0.5) * PX, ref)[1]
                        >= self.ask_below
                        for i, j in rest
                    ):
                        out.append((i0, j0, h, w))
        # the fullest explanation first: fewest unchanged cells
        return sorted(out, key=lambda b: b[2] * b[3] - len(cells))

    def _node(self, img, x, y, ref) -> tuple[str, float]:
        lab = node_lab(img, x, y, ref)
        if lab is None:
            return UNKNOWN, 0.0
        got = self.classifier.classify(lab)
        if got.colour == UNKNOWN:
            return UNKNOWN, 0.0
        return got.colour, round(float(got.confidence), 3)


def node_lab(img: np.ndarray, x: float, y: float, ref: np.ndarray) -> np.ndarray | None:
    """The Lab colour of the node centred on (x, y) of a squared-up card, against the card's
    white `ref`; None off the image or where a white line runs through (not a node)."""
    r = int(0.27 * PX)
    x, y = int(round(x)), int(round(y))
    if x - r < 0 or y - r < 0 or x + r > img.shape[1] or y + r > img.shape[0]:
        return None
    patch = img[y - r : y + r, x - r : x + r]
    if _whiteness(patch).mean() > 0.15:
        return None
    return robust_colour(to_lab(patch.reshape(-1, 1, 3), ref).reshape(-1, 3))


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A quarter-size frame, enough to see an arm at the edge of the view."""
    return cv2.resize(frame, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)


def reaches_in(before: np.ndarray, after: np.ndarray) -> bool:
    """Did the edge of the view change between two thumbnails? Cards are laid well inside
    it; an arm comes in across it."""
    changed = _change(before, after)
    edge = np.concatenate(
        [changed[:2].ravel(), changed[-2:].ravel(), changed[:, :2].ravel(), changed[:, -2:].ravel()]
    )
    return float(edge.mean()) / 255 > EDGE_SHARE


def _ask(reading: NodeReading, reason: str) -> NodeReading:
    from dataclasses import replace

    return replace(reading, status="ask", reason=reason)


def _change(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    a = cv2.blur(before, (5, 5))
    b = cv2.blur(after, (5, 5))
    d = cv2.absdiff(a, b)
    diff = cv2.max(cv2.max(d[..., 0], d[..., 1]), d[..., 2])
    _, mask = cv2.threshold(diff, DIFF_LEVEL, 255, cv2.THRESH_BINARY)
    k = np.ones((3, 3), np.uint8)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)


def _whiteness(img: np.ndarray) -> np.ndarray:
    """Near-neutral, bright pixels: the card between and around its nodes."""
    b, g, r = cv2.split(img)
    lo, hi = cv2.min(cv2.min(b, g), r), cv2.max(cv2.max(b, g), r)
    return (lo.astype(np.uint16) * 10 >= hi.astype(np.uint16) * 7) & (hi >= 70)


def _tilt(after: np.ndarray, changed: np.ndarray, pts: np.ndarray) -> float | None:
    """The card's tilt (degrees, clockwise as seen) from the edges inside the change."""
    x, y, w, h = cv2.boundingRect(pts)
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    grey = cv2.cvtColor(after[y0 : y + h + 2, x0 : x + w + 2], cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    inside = cv2.erode(changed[y0 : y + h + 2, x0 : x + w + 2], np.ones((3, 3), np.uint8)) > 0
    gx, gy = gx[inside], gy[inside]
    # edges every 90 degrees: sum the gradients on the circle of 4 x their angle
    c2, s2 = gx * gx - gy * gy, 2 * gx * gy  # |g|^2 cos 2a, |g|^2 sin 2a
    m = np.maximum(gx * gx + gy * gy, 1e-6)
    c4, s4 = float(((c2 * c2 - s2 * s2) / m).sum()), float((2 * c2 * s2 / m).sum())
    if c4 == 0 and s4 == 0:
        return None
    return math.degrees(math.atan2(s4, c4) / 4)


def _phase(white: np.ndarray, total: np.ndarray) -> float:
    """Where the white lattice lines fall (pixels, 0..PX) along one axis of the card."""
    share = white / np.maximum(total, 1)
    pos = np.arange(len(share))
    z = ((share * (total > 0)) * np.exp(2j * np.pi * pos / PX)).sum()
    return float((np.angle(z) / (2 * np.pi) * PX) % PX)
