"""The ball tray as it lies tonight and the balls in one frame of it.

The tray is found on the empty tray (`vision.layout`: the camera may have moved since the
set-up, the tray may lie the other way round). In a frame, a ball is what changed against the
empty tray, in balanced CIELAB, inside the tray and not reaching out of it (a hand); balls
touch in a row, so each ball is a peak of the distance from the changed region's edge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.colour import spread_of
from vision.errors import CalibrationError
from vision.layout import Layout
from vision.segment import Blob, DifferenceMask, blob_from_contour, inner_pixels, measure


class Tray:
    """The tray as it lies tonight: its outline, where slot 0 stops, the balls' size, and the
    empty tray to tell a ball from (a difference in balanced colour, so a lamp switched on is
    not a ball and a ball as bright as the tray still differs in hue)."""

    def __init__(self, cal: Calibration, layout: Layout) -> None:
        if cal.tray_roi is None:
            raise CalibrationError("the calibration has no ball tray region (tray_roi)")
        self.cal = cal
        self.layout = layout
        corners = layout.polygon(cal.tray_roi)  # top-left, top-right, bottom-right, bottom-left
        sides = {
            "left": (corners[[0, 3]], corners[[1, 2]]),
            "right": (corners[[1, 2]], corners[[0, 3]]),
            "top": (corners[[0, 1]], corners[[3, 2]]),
            "bottom": (corners[[3, 2]], corners[[0, 1]]),
        }
        near, far = sides[cal.first_end]
        self.ends = (near.mean(axis=0), far.mean(axis=0))
        self.outline = corners
        self.radius = tuple(r * layout.scale for r in cal.ball_radius)
        # the tray and a ball's width round it, to see what reaches into it from outside
        m = int(self.radius[1])
        x, y, w, h = cv2.boundingRect(np.round(corners).astype(np.int32))
        fh, fw = layout.empty.shape[:2]
        x0, y0 = max(0, x - m), max(0, y - m)
        self.box = (x0, y0, max(1, min(fw, x + w + m) - x0), max(1, min(fh, y + h + m) - y0))
        # half size is plenty for balls of 8+ px radius and keeps a frame within a few ms
        self.scale = 0.5 if self.radius[0] >= 8 else 1.0
        self.diff = DifferenceMask(layout.empty, self.box, scale=self.scale)
        self.inside = np.zeros(self.diff.ref.shape[:2], np.uint8)
        local = (corners - (x0, y0)) * self.scale
        cv2.fillPoly(self.inside, [np.round(local).astype(np.int32)], 255)
        # the tray and a margin for a ball's blur and shadow: change beyond it is not a ball
        k = max(3, int(self.radius[0] * self.scale) | 1)
        self.rim = cv2.dilate(self.inside, np.ones((k, k), np.uint8))
        empty_white = layout.white(layout.empty)
        self.empty_white = None if empty_white is None else empty_white.reference

    def _in_tray(self, changed: np.ndarray) -> np.ndarray:
        """What changed inside the tray, less anything that reaches out of it (a hand, an
        arm, a sleeve: balls lie in the tray). Works on the mask's own (scaled) pixels."""
        n, labels = cv2.connectedComponents(changed)
        out = np.bincount(labels[(changed > 0) & (self.rim == 0)], minlength=n)
        reaching = out > (self.radius[0] * self.scale) ** 2  # more than a blurred rim
        reaching[0] = True
        return np.where(reaching[labels] | (self.inside == 0), 0, 255).astype(np.uint8)

    def _round(self, mask: np.ndarray, x: float, y: float, r: float) -> bool:
        """Is the changed region at (x, y) (mask pixels, radius r) a ball? Balls touch only
        along the tray: across it, just beyond the ball's edge, nothing changed."""
        start, stop = self.ends
        along = (stop - start) / max(float(np.linalg.norm(stop - start)), 1e-9)
        across = np.array([-along[1], along[0]])
        h, w = mask.shape
        outside = inside = 0
        for side in (1, -1):
            for t in np.linspace(-0.5, 0.5, 5):
                p = np.array([x, y]) + side * 1.35 * r * across + t * r * along
                px, py = int(round(p[0])), int(round(p[1]))
                if 0 <= px < w and 0 <= py < h:
                    inside += 1
                    outside += mask[py, px] > 0
        return inside == 0 or outside <= 0.3 * inside

    def order_key(self, x: float, y: float) -> float:
        """Distance along the tray from the end where slot 0 stops."""
        start, stop = self.ends
        axis = (stop - start) / max(float(np.linalg.norm(stop - start)), 1e-9)
        return float(np.dot(np.array([x, y]) - start, axis))

    def first_ball(self, x: float, y: float) -> None:
        """The round's first ball came to rest at (x, y): slot 0 is at the end nearer to it
        (a tray laid the other way round tonight reads the same)."""
        if self.order_key(x, y) > 0.5 * float(np.linalg.norm(self.ends[1] - self.ends[0])):
            self.ends = self.ends[::-1]

    def find(self, frame: np.ndarray, white: np.ndarray) -> list[Blob]:
        """Balls resting or rolling in the tray (no colours yet); `white` the frame's level.

        Balls touch in a row (the normal case at the chute), so they are not told apart by
        their outlines: each ball is a peak of the distance from the changed region's edge,
        as deep as a ball's radius and a ball's radius from any deeper peak."""
        gain = None if self.empty_white is None else self.empty_white / white
        mask = self._in_tray(self.diff(frame, gain, full=False))
        # a glint or a side as pale as the tray leaves holes in a ball: filled
        outer, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        mask = cv2.drawContours(mask, outer, -1, 255, cv2.FILLED)
        s = self.scale
        r_min, r_max = (r * s for r in self.radius)
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        dist = cv2.GaussianBlur(dist, (0, 0), 1.0)  # one peak per flat top
        k = max(3, int(2 * r_min) | 1)
        peaks = (dist >= cv2.dilate(dist, np.ones((k, k), np.uint8))) & (dist >= 0.7 * r_min)
        n, labels = cv2.connectedComponents(mask)
        ys, xs = np.nonzero(peaks)
        found: dict[int, list[tuple[float, float, float]]] = {}
        centres: list[tuple[float, float]] = []
        for i in np.argsort(-dist[ys, xs]):
            x, y, r = float(xs[i]), float(ys[i]), float(dist[ys[i], xs[i]])
            if any(math.hypot(x - cx, y - cy) < 1.4 * r_min for cx, cy in centres):
                continue
            centres.append((x, y))
            found.setdefault(int(labels[ys[i], xs[i]]), []).append((x, y, r))
        areas = np.bincount(labels.ravel(), minlength=n)
        out: list[Blob] = []
        x0, y0 = self.box[:2]
        for label, balls in found.items():
            # a region deeper than any ball, or much larger than the balls in it, is a hand
            # lying in the tray (an arm as dark as the table shows only where it crosses it)
            nominal = math.sqrt(r_min * r_max)  # the calibration's ball, between its bounds
            if max(r for _, _, r in balls) > 1.25 * nominal or areas[label] > 1.6 * sum(
                math.pi * r * r for _, _, r in balls
            ):
                continue
            for x, y, r in balls:
                if not self._round(mask, x, y, r):
                    continue  # changed beside it across the tray: a finger, not a ball
                # the ball's centre is the middle of its changed pixels, steadier than the
                # peak (a glint or a pale side shifts the peak from frame to frame)
                x, y = _centroid(mask, x, y, r)
                centre = (int(round(x / s + x0)), int(round(y / s + y0)))
                radius = int(r / s)
                outline = cv2.ellipse2Poly(centre, (radius, radius), 0, 0, 360, 20)
                b = blob_from_contour(outline.reshape(-1, 1, 2))
                if b is not None:
                    out.append(b)
        return out


def _centroid(mask: np.ndarray, x: float, y: float, r: float) -> tuple[float, float]:
    """The middle of the mask's pixels within `r` of (x, y)."""
    h, w = mask.shape
    x0, y0 = max(0, int(x - r)), max(0, int(y - r))
    x1, y1 = min(w, int(x + r) + 1), min(h, int(y + r) + 1)
    ys, xs = np.nonzero(mask[y0:y1, x0:x1])
    near = (xs + x0 - x) ** 2 + (ys + y0 - y) ** 2 <= r * r
    if not near.any():
        return x, y
    return float(xs[near].mean() + x0), float(ys[near].mean() + y0)


def tray_for(cal: Calibration, empty: np.ndarray) -> Tray:
    """The tray found on the empty tray `empty` (raises CameraMoved)."""
    layout = Layout.find(empty, reference=cal.reference_edges, patch=cal.white_roi)
    return Tray(cal, layout)


def detect_balls(frame, background, cal: Calibration) -> list[tuple[Blob, np.ndarray, float]]:
    """Every ball in the tray with its measured Lab colour and its spread, in slot order
    (slot 0 nearest the tray's first end)."""
    tray = tray_for(cal, background)
    white = tray.layout.white(frame)
    if white is None:
        return []
    out = []
    for b in tray.find(frame, white.reference):
        here = white.at(b.x, b.y)
        out.append(
            (b, measure(frame, b.contour, here), spread_of(inner_pixels(frame, b.contour), here))
        )
    out.sort(key=lambda f: tray.order_key(f[0].x, f[0].y))
    return out
