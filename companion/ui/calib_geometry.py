"""The geometry of the camera set-up screen, apart from Kivy: where the camera's frame is drawn
in its box (letterboxed, y up on the screen, y down in the frame), the shapes a finger drags
over it (rectangles, a ring of tiles' ellipse, a lattice's corners, a card's edge), which
handle a touch takes, and what a drag makes of a shape (always inside the frame, never
smaller than a few pixels).

Shapes live in frame pixels, so what the screen edits is what the calibration stores.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

Point = tuple[float, float]
MIN_SIDE = 8.0  # frame pixels: a rectangle or a radius is never dragged smaller
MOVE = "move"  # the handle that moves a whole rectangle (its inside)
HAND = 0.7  # the first tile's handle sits this far out towards it, like a clock's hand, so
# that it never lies on a radius handle (tile 1 at 3 o'clock would hide the one across)


@dataclass(frozen=True)
class View:
    """The frame (width, height) drawn as large as fits in `box` (x, y, width, height in
    window pixels, y up), centred, its aspect kept: bars fill the rest."""

    frame: tuple[int, int]
    box: tuple[float, float, float, float]

    @property
    def scale(self) -> float:
        (fw, fh), (_, _, bw, bh) = self.frame, self.box
        return max(min(bw / fw, bh / fh), 1e-9)

    @property
    def picture(self) -> tuple[float, float, float, float]:
        """Where the frame is drawn: x, y (bottom left), width, height in window pixels."""
        (fw, fh), (bx, by, bw, bh), s = self.frame, self.box, self.scale
        return (bx + (bw - fw * s) / 2, by + (bh - fh * s) / 2, fw * s, fh * s)

    def to_screen(self, p: Point) -> Point:
        x0, y0, _, height = self.picture
        return (x0 + p[0] * self.scale, y0 + height - p[1] * self.scale)

    def to_frame(self, q: Point) -> Point:
        x0, y0, _, height = self.picture
        return ((q[0] - x0) / self.scale, (y0 + height - q[1]) / self.scale)

    def inside(self, q: Point) -> bool:
        x0, y0, w, h = self.picture
        return x0 <= q[0] <= x0 + w and y0 <= q[1] <= y0 + h


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def corners(self) -> dict[str, Point]:
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        return {"tl": (x0, y0), "tr": (x1, y0), "br": (x1, y1), "bl": (x0, y1)}

    def contains(self, p: Point) -> bool:
        return self.x <= p[0] <= self.x + self.w and self.y <= p[1] <= self.y + self.h

    def whole(self, frame: tuple[int, int]) -> tuple[int, int, int, int]:
        """In whole pixels inside the frame, as calibrations store regions."""
        x0 = int(round(min(max(self.x, 0), frame[0] - 1)))
        y0 = int(round(min(max(self.y, 0), frame[1] - 1)))
        x1 = int(round(min(max(self.x + self.w, x0 + 1), frame[0])))
        y1 = int(round(min(max(self.y + self.h, y0 + 1), frame[1])))
        return (x0, y0, max(x1 - x0, 1), max(y1 - y0, 1))


@dataclass(frozen=True)
class Ellipse:
    """A ring of tiles: its centre, radii (across, down) and the angle of the first tile
    (degrees, image axes: -90 is the top)."""

    centre: Point
    radii: Point
    first: float

    def at(self, degrees: float) -> Point:
        a = math.radians(degrees)
        return (
            self.centre[0] + self.radii[0] * math.cos(a),
            self.centre[1] + self.radii[1] * math.sin(a),
        )

    def slots(self, n: int = 12) -> tuple[Point, ...]:
        return tuple(self.at(self.first + 360.0 / n * k) for k in range(n))


@dataclass(frozen=True)
class Quad:
    """A table area with a lattice: corners top-left, top-right, bottom-right, bottom-left."""

    corners: tuple[Point, Point, Point, Point]

    def homography(self, cols: float, rows: float) -> np.ndarray:
        """From table units (x across `cols`, y down `rows`) to frame pixels."""
        import numpy as np

        src = [(0, 0), (cols, 0), (cols, rows), (0, rows)]
        a, b = [], []
        for (u, v), (x, y) in zip(src, self.corners, strict=True):
            a.append([u, v, 1, 0, 0, 0, -u * x, -v * x])
            a.append([0, 0, 0, u, v, 1, -u * y, -v * y])
            b += [x, y]
        h = np.linalg.solve(np.array(a, float), np.array(b, float))
        return np.append(h, 1.0).reshape(3, 3)

    def grid_lines(self, cols: int, rows: int) -> list[tuple[Point, Point]]:
        """The lines between nodes of a `cols` x `rows` grid, as seen in the frame."""
        import numpy as np

        if cols < 1 or rows < 1:
            return []
        try:
            h = self.homography(cols, rows)
        except np.linalg.LinAlgError:  # three corners in a line: nothing to draw yet
            return []

        def project(u: float, v: float) -> Point:
            x, y, w = h @ (u, v, 1.0)
            return (float(x / w), float(y / w))

        lines = [(project(c, 0), project(c, rows)) for c in range(cols + 1)]
        return lines + [(project(0, r), project(cols, r)) for r in range(rows + 1)]


@dataclass(frozen=True)
class Segment:
    """Two handles on a card's edge: a lattice's pitch is its length over the spots it spans."""

    a: Point
    b: Point

    @property
    def length(self) -> float:
        return math.dist(self.a, self.b)


Shape = Rect | Ellipse | Quad | Segment


def handles(shape: Shape, selected: bool = True) -> dict[str, Point]:
    """The points a finger can take, by name. A rectangle shows its corners only while it
    is selected (boxes side by side would otherwise crowd each other's corners), and
    always its centre, which moves it (a box smaller than a finger has no inside to take)."""
    if isinstance(shape, Rect):
        centre = {MOVE: (shape.x + shape.w / 2, shape.y + shape.h / 2)}
        return shape.corners() | centre if selected else centre
    if isinstance(shape, Ellipse):
        (cx, cy), (rx, ry) = shape.centre, shape.radii
        return {
            "centre": shape.centre,
            "rx": (cx + rx, cy),
            "ry": (cx, cy + ry),
            "first": _towards(shape.centre, shape.at(shape.first), HAND),
        }
    if isinstance(shape, Quad):
        return {f"c{i}": p for i, p in enumerate(shape.corners)}
    return {"a": shape.a, "b": shape.b}


def hit(
    shapes: Mapping[str, Shape], p: Point, reach: float, prefer: str | None = None
) -> tuple[str, str] | None:
    """(shape, handle) a touch at `p` (frame pixels) takes: the nearest handle within
    `reach` (those of the selected shape, `prefer`, win close calls), else the smallest
    rectangle the touch is inside (MOVE), else None."""
    best, best_d = None, math.inf
    for name, shape in shapes.items():
        for key, q in handles(shape, name == prefer).items():
            d = math.dist(p, q)
            if d > reach:
                continue
            d -= 0.25 * reach if name == prefer else 0.0
            if d < best_d:
                best, best_d = (name, key), d
    if best is not None:
        return best
    inside = [(s.w * s.h, n) for n, s in shapes.items() if isinstance(s, Rect) and s.contains(p)]
    return (min(inside)[1], MOVE) if inside else None


def _towards(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def _clamp(v: float, lo: float, hi: float) -> float:
    return min(max(v, lo), hi)


def _in_frame(p: Point, frame: tuple[int, int]) -> Point:
    return (_clamp(p[0], 0.0, frame[0]), _clamp(p[1], 0.0, frame[1]))


def drag(start: Shape, handle: str, grab: Point, now: Point, frame: tuple[int, int]) -> Shape:
    """`start` with `handle` moved as a finger went from `grab` to `now` (frame pixels): a
    handle keeps its distance from the finger (no jump at the first move), and the result
    stays inside the frame and at least MIN_SIDE across."""
    dx, dy = now[0] - grab[0], now[1] - grab[1]
    fw, fh = frame
    if isinstance(start, Rect):
        if handle == MOVE:
            w, h = min(start.w, fw), min(start.h, fh)
            return Rect(_clamp(start.x + dx, 0, fw - w), _clamp(start.y + dy, 0, fh - h), w, h)
        x0, y0, x1, y1 = start.x, start.y, start.x + start.w, start.y + start.h
        if "l" in handle:
            x0 = _clamp(x0 + dx, 0, max(x1 - MIN_SIDE, 0))
        else:
            x1 = _clamp(x1 + dx, min(x0 + MIN_SIDE, fw), fw)
        if "t" in handle:
            y0 = _clamp(y0 + dy, 0, max(y1 - MIN_SIDE, 0))
        else:
            y1 = _clamp(y1 + dy, min(y0 + MIN_SIDE, fh), fh)
        return Rect(x0, y0, x1 - x0, y1 - y0)
    if isinstance(start, Ellipse):
        hx, hy = handles(start)[handle]
        hx, hy = hx + dx, hy + dy
        (cx, cy), (rx, ry) = start.centre, start.radii
        if handle == "centre":
            return Ellipse(_in_frame((hx, hy), frame), start.radii, start.first)
        if handle == "rx":
            return Ellipse(start.centre, (_clamp(abs(hx - cx), MIN_SIDE, fw), ry), start.first)
        if handle == "ry":
            return Ellipse(start.centre, (rx, _clamp(abs(hy - cy), MIN_SIDE, fh)), start.first)
        first = math.degrees(math.atan2((hy - cy) / ry, (hx - cx) / rx))
        return Ellipse(start.centre, start.radii, round(first, 2))
    if isinstance(start, Quad):
        i = int(handle[1:])
        x, y = start.corners[i]
        corners = list(start.corners)
        corners[i] = _in_frame((x + dx, y + dy), frame)
        return Quad(tuple(corners))
    point = start.a if handle == "a" else start.b
    moved = _in_frame((point[0] + dx, point[1] + dy), frame)
    return Segment(moved, start.b) if handle == "a" else Segment(start.a, moved)


def stretch(segment: Segment, length: float) -> Segment:
    """The segment from its first end, along its direction, `length` long (the pitch
    stepper): a segment with no direction yet runs across."""
    (ax, ay), d = segment.a, segment.length
    ux, uy = ((segment.b[0] - ax) / d, (segment.b[1] - ay) / d) if d > 1e-9 else (1.0, 0.0)
    return Segment(segment.a, (ax + ux * length, ay + uy * length))


def scaled(shape: Shape, sx: float, sy: float) -> Shape:
    """The shape for a frame `sx`, `sy` times the size (a calibration made at another size)."""
    if isinstance(shape, Rect):
        return Rect(shape.x * sx, shape.y * sy, shape.w * sx, shape.h * sy)
    if isinstance(shape, Ellipse):
        (cx, cy), (rx, ry) = shape.centre, shape.radii
        return Ellipse((cx * sx, cy * sy), (rx * sx, ry * sy), shape.first)
    if isinstance(shape, Quad):
        return Quad(tuple((x * sx, y * sy) for x, y in shape.corners))
    return Segment((shape.a[0] * sx, shape.a[1] * sy), (shape.b[0] * sx, shape.b[1] * sy))
