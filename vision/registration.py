"""Where the set-up lies in a frame: the camera arm gets nudged between game nights, so a
reader never trusts the pixel positions of its calibration without checking them.

`register(reference, frame)` finds the affine transform that takes the calibration's empty
table (`reference`) onto a frame of the same table now, by enhanced correlation (OpenCV's
`findTransformECC`) on the edges of the two images, coarse to fine. Edges, taken on the log
of the brightness, do not change with the colour or the level of the light, so a table set up
in daylight is found again under a lamp. A transform that correlates poorly, or moves the
camera further than an arm is ever nudged (`MAX_SHIFT`, `MAX_TURN`, `MAX_SCALE`), is no
registration: the reader says "The camera has moved: check the camera set-up" instead of
reading from stale positions.

`refine(...)` then finds one piece of the set-up (a tray, a tile, a colour card) near where
the camera's transform puts it, since players lay them anew each night.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 320  # registration works on images this wide
LEVELS = 3  # coarse-to-fine pyramid levels
MIN_CORRELATION = 0.6  # edge images correlating less than this are not the same table
MAX_SHIFT = 0.1  # of the frame's width: no nudged arm moves the view further
MAX_TURN = 15.0  # degrees
MAX_SCALE = 0.15  # zoom in or out
MOVED = "The camera has moved: check the camera set-up."


def edges(frame: np.ndarray, width: int = WORK_WIDTH) -> np.ndarray:
    """Gradient magnitude of the log brightness at `width` pixels across (float32)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = width / grey.shape[1]
    small = cv2.resize(
        grey, (width, max(1, round(grey.shape[0] * scale))), interpolation=cv2.INTER_AREA
    )
    g = cv2.GaussianBlur(np.log(small.astype(np.float32) + 8.0), (0, 0), 1.5)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    return cv2.magnitude(gx, gy)


@dataclass(frozen=True)
class Transform:
    """An affine map of frame pixels: calibration -> now."""

    matrix: tuple[tuple[float, float, float], tuple[float, float, float]]
    correlation: float = 1.0

    @classmethod
    def identity(cls) -> Transform:
        return cls(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)))

    @property
    def m(self) -> np.ndarray:
        return np.array(self.matrix, np.float64)

    def points(self, pts: Sequence[Sequence[float]]) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        return p @ self.m[:, :2].T + self.m[:, 2]

    def rect(self, rect: Sequence[float]) -> np.ndarray:
        """A calibration rectangle (x, y, w, h) as the polygon it is now."""
        x, y, w, h = rect
        return self.points([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])

    @property
    def scale(self) -> float:
        return math.sqrt(abs(np.linalg.det(self.m[:, :2])))

    @property
    def turn(self) -> float:
        m = self.m
        return math.degrees(math.atan2(m[1, 0] - m[0, 1], m[0, 0] + m[1, 1]))

    def shift(self, size: tuple[int, int]) -> float:
        """How far the frame's centre moved, in pixels."""
        w, h = size
        return float(np.linalg.norm(self.points([(w / 2, h / 2)])[0] - (w / 2, h / 2)))

    def plausible(self, size: tuple[int, int]) -> bool:
        return (
            self.correlation >= MIN_CORRELATION
            and self.shift(size) <= MAX_SHIFT * size[0]
            and abs(self.turn) <= MAX_TURN
            and abs(self.scale - 1.0) <= MAX_SCALE
        )


def _ecc(a: np.ndarray, b: np.ndarray, warp: np.ndarray, mode: int) -> tuple[float, np.ndarray]:
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    return cv2.findTransformECC(a, b, warp.astype(np.float32), mode, crit, None, 5)


def register(
    reference: np.ndarray, frame: np.ndarray, start: Transform | None = None
) -> Transform | None:
    """The transform taking `reference` (the calibration's empty table, BGR or its `edges`)
    onto `frame`, or None when the two cannot be brought together plausibly."""
    a = reference if reference.dtype == np.float32 and reference.ndim == 2 else edges(reference)
    b = edges(frame, a.shape[1])
    size = (frame.shape[1], frame.shape[0])
    s = a.shape[1] / frame.shape[1]  # frame pixels -> work pixels
    warp = (start or Transform.identity()).m.astype(np.float32).copy()
    warp[:, 2] *= s
    pyramid = [(a, b)]
    for _ in range(LEVELS - 1):
        pyramid.append((cv2.pyrDown(pyramid[-1][0]), cv2.pyrDown(pyramid[-1][1])))
    warp[:, 2] /= 2 ** (LEVELS - 1)
    cc = 0.0
    for level, (pa, pb) in enumerate(reversed(pyramid)):
        # a shift and a turn first: on the coarsest image an affine fit can run away
        mode = cv2.MOTION_EUCLIDEAN if level == 0 else cv2.MOTION_AFFINE
        try:
            cc, warp = _ecc(pa, pb, warp, mode)
        except cv2.error:
            return None
        if level < LEVELS - 1:
            warp[:, 2] *= 2
    # findTransformECC maps the template's pixels into the input's: reference -> frame
    warp[:, 2] /= s
    t = Transform(tuple(tuple(float(v) for v in row) for row in warp), round(float(cc), 3))
    return t if t.plausible(size) else None


def refine(
    reference: np.ndarray,
    frame: np.ndarray,
    polygon: Sequence[Sequence[float]],
    camera: Transform,
    reach: float,
) -> Transform | None:
    """One piece of the set-up (its outline `polygon` in the reference) found in `frame` near
    where `camera` puts it, up to `reach` pixels away: a transform of the piece alone
    (shift and turn), or None when it is not there."""
    pts = np.asarray(polygon, np.float64)
    x0, y0 = pts.min(axis=0) - reach
    x1, y1 = pts.max(axis=0) + reach
    h, w = reference.shape[:2]
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    # the frame brought back onto the reference's pixels, then the piece's window compared
    inv = cv2.invertAffineTransform(camera.m.astype(np.float32))
    back = cv2.warpAffine(frame, inv, (w, h), flags=cv2.INTER_LINEAR)
    a = _window_edges(reference[y0:y1, x0:x1])
    b = _window_edges(back[y0:y1, x0:x1])
    mask = np.zeros(a.shape, np.uint8)
    grown = (pts - pts.mean(axis=0)) * 1.15 + pts.mean(axis=0) - (x0, y0)
    cv2.fillPoly(mask, [np.round(grown).astype(np.int32)], 1)
    warp = np.eye(2, 3, dtype=np.float32)
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    try:
        cc, warp = cv2.findTransformECC(a, b, warp, cv2.MOTION_EUCLIDEAN, crit, mask, 3)
    except cv2.error:
        return None
    if cc < MIN_CORRELATION or np.hypot(*warp[:, 2]) > reach:
        return None
    # local (window) -> reference -> camera
    local = np.vstack([warp, [0, 0, 1]]).astype(np.float64)
    to_win = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    full = np.vstack([camera.m, [0, 0, 1]]) @ np.linalg.inv(to_win) @ local @ to_win
    return Transform(tuple(tuple(float(v) for v in row) for row in full[:2]), round(float(cc), 3))


def _window_edges(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    g = cv2.GaussianBlur(np.log(grey.astype(np.float32) + 8.0), (0, 0), 1.2)
    return cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))


def encode_reference(frame: np.ndarray) -> str:
    """The calibration's empty table as kept in its file: grey, `WORK_WIDTH` wide, PNG."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    scale = WORK_WIDTH / grey.shape[1]
    small = cv2.resize(
        grey, (WORK_WIDTH, round(grey.shape[0] * scale)), interpolation=cv2.INTER_AREA
    )
    ok, png = cv2.imencode(".png", small)
    if not ok:
        raise ValueError("cannot encode the reference frame")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_reference(text: str) -> np.ndarray:
    """`edges` of a reference kept by `encode_reference` (raises ValueError if damaged)."""
    try:
        data = np.frombuffer(base64.b64decode(text, validate=True), np.uint8)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"reference frame is not base64: {exc}") from None
    grey = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if data.size else None
    if grey is None or grey.shape[1] != WORK_WIDTH or grey.shape[0] > 4 * WORK_WIDTH:
        raise ValueError("reference frame is not a PNG of the expected size")
    return edges(grey, WORK_WIDTH)
