"""The Node mat's printed lattice, found anew in the first frame of each game.

Cards are laid on a mat printed with a lattice of thin lines, one cell a node. The camera arm
gets nudged between game nights and the mat is put down by hand, so the lattice is never
taken from the calibration's pixels: it is found in the frame itself, cards and hands and all.

- **Lines, not edges.** A printed line is thinner than a few pixels: brighter or darker than
  the mat on both sides (the calibration says which). Its response is how far the log
  brightness dips (or rises) against both neighbours a little way off; the edge of a card, a
  shadow or a lamp's gradient is a step, brighter on one side only, and gives nothing.
  Each response is weighed against the responses round it: a lamp on one side of the mat
  and a window on the other print the same lattice with a different contrast.
- **Turn, pitch, phase.** The lattice's lines project onto a sharp comb only at the lattice's
  own turn; the comb's period is the pitch and its phase where the lines lie.
- **Which lines.** A phase says where lines lie up to a whole cell, and the lattice is all
  alike: the lattice's own extent decides (its `cols + 1` lines are there, the places one
  pitch beyond are not). When a hand or cards hide most of an edge line, the lines must
  still lean that way and the lattice's middle lie within half a cell of where a nudged
  camera puts it. A lattice whose extent cannot be told, or that lies further than a nudged
  camera moves it, is not found: "The camera has moved: check the camera set-up".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.node.grid import Grid

WORK_WIDTH = 640  # larger frames are searched at this width
REACH = 2  # pixels either side of a line where the mat is seen
TOP_SHARE = 0.04  # the strongest share of line responses that take part
LOCAL = 63  # pixels: the neighbourhood a line's response is weighed against
MAX_TURN = 10.0  # degrees: the camera's turn and the mat's together
PITCH_RANGE = 0.12  # the camera's zoom and a mat's print: pitch within +-12 % of calibration
SHIFT_CELLS = 2.5  # the lattice's centre lies within this many cells of the calibration's
DECISIVE = 0.2  # the lattice's outer line against the place one pitch beyond it
PRIOR_CELLS = 0.5  # ... or, when that is close, its middle this near the expected one


def line_responses(frame: np.ndarray, dark: bool) -> tuple[np.ndarray, np.ndarray]:
    """How strongly each pixel lies on a thin line running down (first) and across (second)
    the frame: the dip of log brightness against both neighbours `REACH` pixels away (a rise
    for light lines when not `dark`)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    g = cv2.GaussianBlur(np.log(grey.astype(np.float32) + 8.0), (0, 0), 0.8)
    if not dark:
        g = -g
    d = REACH
    h, w = g.shape
    pad = cv2.copyMakeBorder(g, d, d, d, d, cv2.BORDER_REPLICATE)
    left, right = pad[d : d + h, :w], pad[d : d + h, 2 * d :]
    up, down = pad[:h, d : d + w], pad[2 * d :, d : d + w]
    down_lines = np.maximum(cv2.min(left, right) - g, 0)
    across_lines = np.maximum(cv2.min(up, down) - g, 0)
    return down_lines, across_lines


class _Lines:
    """The strongest line responses of one direction as weighted points."""

    def __init__(self, response: np.ndarray, region: np.ndarray | None) -> None:
        # against the lines' own level round them: a lamp on one side of the mat and a
        # window on the other print the same lattice with a different contrast
        level = cv2.blur(response, (LOCAL, LOCAL))
        r = response / (level + float(response.mean()) + 1e-9)
        if region is not None:
            r = np.where(region > 0, r, 0)
        values = r[r > 0]
        if len(values) < 50:
            self.pts = np.zeros((0, 2), np.float32)
            self.w = np.zeros(0, np.float32)
            return
        k = max(1, int(len(values) * (1 - TOP_SHARE)))
        cut = float(np.partition(values, k)[k]) if k < len(values) else float(values.max())
        cut = max(cut, 1e-6)
        ys, xs = np.nonzero(r >= cut)
        self.pts = np.stack([xs, ys], axis=1).astype(np.float32)
        self.w = r[ys, xs].astype(np.float32)
        self.span = int(math.hypot(*response.shape)) + 2

    def profile(self, angle: float) -> np.ndarray:
        """Weights summed by position along the normal at `angle` (radians), 1-pixel bins
        offset by `span` (bin b holds positions b - span - 0.5 .. b - span + 0.5)."""
        u = self.pts[:, 0] * math.cos(angle) + self.pts[:, 1] * math.sin(angle)
        idx = np.clip((u + self.span + 0.5).astype(np.int32), 0, 2 * self.span - 1)
        return np.bincount(idx, self.w, 2 * self.span)

    def sharpest(self, around: float, reach: float) -> float:
        """The normal's angle (radians) within `reach` of `around` at which the lines pile up
        into the sharpest comb: coarse, fine, then a parabola through the best three."""

        def score(a: float) -> float:
            p = self.profile(a)
            return float((p * p).sum())

        best = around
        for step, span in ((1.0, reach), (0.25, 1.0), (0.0625, 0.25)):
            steps = np.arange(-span, span + 1e-9, step)
            angles = best + np.radians(steps)
            scores = [score(a) for a in angles]
            i = int(np.argmax(scores))
            best = float(angles[i])
        s0, s1, s2 = (
            score(best - math.radians(0.0625)),
            score(best),
            score(best + math.radians(0.0625)),
        )
        den = s0 - 2 * s1 + s2
        if den < 0:
            best += math.radians(0.0625) * 0.5 * (s0 - s2) / den
        return best


def _comb(profile: np.ndarray, pitch: float, reach: float) -> tuple[float, float]:
    """The period within `reach` (a share) of `pitch` at which the profile is most periodic,
    and the phase (bins) of its lines."""
    u = np.arange(len(profile), dtype=np.float64)
    nz = profile > 0
    u, w = u[nz], profile[nz]
    best = (0.0, pitch, 0.0)
    for p in np.arange(pitch * (1 - reach), pitch * (1 + reach) + 1e-9, pitch * 0.0025):
        z = (w * np.exp(2j * math.pi * u / p)).sum()
        if abs(z) > best[0]:
            best = (abs(z), float(p), float(np.angle(z) / (2 * math.pi) * p) % p)
    return best[1], best[2]


def _strengths(profile: np.ndarray, phase: float, pitch: float) -> tuple[np.ndarray, int]:
    """Line strength at every place the comb puts a line (summed +-1.5 bins, less the
    profile's level between lines), and the index k of the first such place (at
    phase + k pitch)."""
    n = len(profile)
    first = math.ceil((2 - phase) / pitch)
    last = math.floor((n - 3 - 0.7 * pitch - phase) / pitch)
    cum = np.concatenate([[0.0], np.cumsum(profile)])
    out = []
    for k in range(first, last + 1):
        c = phase + k * pitch
        lo, hi = int(round(c - 1.5)), int(round(c + 1.5)) + 1
        on = cum[hi] - cum[lo]
        a, b = int(round(c + 0.3 * pitch)), int(round(c + 0.7 * pitch))
        between = (cum[b] - cum[a]) / max(1, b - a) * (hi - lo)
        out.append(max(0.0, on - between))
    return np.array(out), first


def _refine(profile: np.ndarray, phase: float, pitch: float, ks: Sequence[int]):
    """Phase and pitch fitted to the lines' own centres (weighted least squares)."""
    pos, wts, idx = [], [], []
    for k in ks:
        c = phase + k * pitch
        lo, hi = int(round(c - 3)), int(round(c + 3)) + 1
        if lo < 0 or hi > len(profile):
            continue
        seg = profile[lo:hi]
        if seg.sum() <= 0:
            continue
        pos.append(float((seg * np.arange(lo, hi)).sum() / seg.sum()))
        wts.append(float(seg.sum()))
        idx.append(k)
    if len(pos) < 3:
        return phase, pitch
    a = np.stack([np.ones(len(idx)), np.array(idx, np.float64)], axis=1)
    w = np.sqrt(np.array(wts))
    sol, *_ = np.linalg.lstsq(a * w[:, None], np.array(pos) * w, rcond=None)
    return float(sol[0]), float(sol[1])


@dataclass(frozen=True)
class _Axis:
    angle: float  # the lines' normal, radians
    offset: float  # position of line 0 along the normal (pixels from the frame origin)
    pitch: float
    count: int  # cells between the first and last line


def _axis(
    lines: _Lines, angle: float, reach: float, pitch: float, count: int | None, expect: float | None
) -> _Axis | None:
    """One direction of the lattice: its turn, pitch and its lines. `count`: the cells the
    lattice has (None: as many as are seen, for calibration); `expect`: where its middle
    should lie along the normal (None: anywhere)."""
    if len(lines.w) == 0:
        return None
    a = lines.sharpest(angle, reach)
    prof = lines.profile(a)
    p, ph = _comb(prof, pitch, PITCH_RANGE if count is not None else 0.3)
    s, first = _strengths(prof, ph, p)
    if len(s) < 3:
        return None
    if count is None:
        count = _longest_run(s) - 1
        if count < 2:
            return None
    n = count + 1
    if len(s) < n:
        return None
    sums = np.convolve(s, np.ones(n), "valid")
    if expect is not None:  # only windows whose middle lies near where it should
        mids = ph + (first + np.arange(len(sums)) + count / 2) * p - lines.span
        sums = np.where(np.abs(mids - expect) <= SHIFT_CELLS * p, sums, -1.0)
    i = int(np.argmax(sums))
    if sums[i] <= 0:
        return None
    inner = s[i : i + n]
    level = float(np.median(inner))
    if level <= 0:
        return None
    # the lattice a line further either way loses one of its edge lines and takes the
    # place beyond the other edge: by how much the lines say it is not that one
    beyond = [s[j] if 0 <= j < len(s) else 0.0 for j in (i - 1, i + n)]
    margin = min(inner[-1] - beyond[0], inner[0] - beyond[1])
    if margin < DECISIVE * level:
        # an edge line mostly hidden (a hand, cards along it): still this lattice if the
        # lines lean its way and its middle is where a nudged camera puts it
        middle = ph + (first + i + count / 2) * p - lines.span
        if expect is None or margin <= 0 or abs(middle - expect) > PRIOR_CELLS * p:
            return None
    ks = list(range(first + i, first + i + n))
    ph, p = _refine(prof, ph, p, ks)
    return _Axis(a, ph + ks[0] * p - lines.span, p, count)


def _longest_run(s: np.ndarray) -> int:
    """The most consecutive places with a line (over a third of the strong lines' level)."""
    top = float(np.quantile(s, 0.9))
    on = s > top / 3
    best = run = 0
    for v in on:
        run = run + 1 if v else 0
        best = max(best, run)
    return best


def _grid(down: _Axis, across: _Axis) -> Grid:
    c = np.array([math.cos(down.angle), math.sin(down.angle)])
    r = np.array([math.cos(across.angle), math.sin(across.angle)])
    m = np.stack([c, r])
    origin = np.linalg.solve(m, [down.offset, across.offset])
    col = np.linalg.solve(m, [down.pitch, 0.0])
    row = np.linalg.solve(m, [0.0, across.pitch])
    return Grid(
        (float(origin[0]), float(origin[1])),
        (float(col[0]), float(col[1])),
        (float(row[0]), float(row[1])),
        down.count,
        across.count,
    )


def find_grid(frame: np.ndarray, dark: bool, expected: Grid | None = None) -> Grid | None:
    """The lattice in `frame`, or None when it cannot be told. `expected`: the calibration's
    lattice (its size, and roughly where a nudged camera shows it); without it (at
    calibration) the lattice is searched anywhere, at any pitch, and sized by its lines."""
    k = 1.0
    if frame.shape[1] > WORK_WIDTH:
        k = WORK_WIDTH / frame.shape[1]
        frame = cv2.resize(frame, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    down_r, across_r = line_responses(frame, dark)
    region = None
    if expected is not None:
        expected = expected.scaled(k)
        grow = SHIFT_CELLS + 1
        outline = expected.to_frame(
            [
                (-grow, -grow),
                (expected.cols + grow, -grow),
                (expected.cols + grow, expected.rows + grow),
                (-grow, expected.rows + grow),
            ]
        )
        region = np.zeros(down_r.shape, np.uint8)
        cv2.fillConvexPoly(region, np.round(outline).astype(np.int32), 1)
    down, across = _Lines(down_r, region), _Lines(across_r, region)
    if expected is None:
        pitch = _pitch_guess(down)
        if pitch is None:
            return None
        d = _axis(down, 0.0, 15.0, pitch, None, None)
        if d is None:
            return None
        a = _axis(across, d.angle + math.pi / 2, 2.0, d.pitch, None, None)
    else:
        turn = math.radians(expected.turn)
        c = expected.centre
        d = _axis(down, turn, MAX_TURN, expected.pitch, expected.cols, _along(c, turn))
        if d is None:
            return None
        a = _axis(
            across,
            d.angle + math.pi / 2,
            2.0,
            expected.pitch,
            expected.rows,
            _along(c, d.angle + math.pi / 2),
        )
    if a is None:
        return None
    grid = _grid(d, a)
    return grid.scaled(1 / k) if k != 1.0 else grid


def _along(point: np.ndarray, angle: float) -> float:
    return float(point[0] * math.cos(angle) + point[1] * math.sin(angle))


def _pitch_guess(lines: _Lines) -> float | None:
    """The lattice's pitch in an empty frame: the first strong repeat of the line profile
    at the lattice's turn (its autocorrelation)."""
    if len(lines.w) == 0:
        return None
    a = lines.sharpest(0.0, 15.0)
    prof = lines.profile(a)
    prof = prof - prof.mean()
    ac = np.correlate(prof, prof, "full")[len(prof) - 1 :]
    ac = ac / max(ac[0], 1e-9)
    for lag in range(6, len(ac) // 3):
        if ac[lag] > 0.2 and ac[lag] >= ac[lag - 1] and ac[lag] >= ac[lag + 1]:
            return float(lag)
    return None
