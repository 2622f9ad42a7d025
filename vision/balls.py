"""Ball reader: which balls arrive in the tray, in which order, and what colour each one is.

Per frame: skip it if the white patch is covered; white balance from the patch; difference
against the empty tray in white-balanced CIELAB (each image balanced by its own patch, so a
cloud or a lamp is not a ball, and a ball as bright as the tray still differs in hue);
contours with area, circularity and elongation limits; a blob that fails them (balls touching
in a row) is cut at its necks by the distance transform. Each ball is measured with the local
white of the tray under it. Detections are tracked; a ball is reported once it has rested in
the same place with the same colour for `agree` frames, and balls are reported strictly in
arrival order. With a break-beam, the beam says how many balls came out and the camera says
which.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from companion.events import BallSeen
from vision.calibration import Calibration
from vision.classifier import UNKNOWN, Reading
from vision.colour import frame_white, patch_trustworthy
from vision.errors import CalibrationError
from vision.segment import (
    Blob,
    DifferenceMask,
    find_blobs,
    inner_pixels,
    measure,
)

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")
MIN_CIRCULARITY = 0.75
MAX_ELONGATION = 1.4


def find_balls(
    frame: np.ndarray,
    background: np.ndarray,
    cal: Calibration,
    white: np.ndarray | None = None,
    diff: DifferenceMask | None = None,
) -> list[Blob]:
    """Balls resting or rolling in the tray (no colours yet). Pass `diff` (built once from the
    empty tray) when reading many frames."""
    if cal.tray_roi is None:
        raise CalibrationError("the calibration has no ball tray region (tray_roi)")
    if white is None:
        white = frame_white(frame, cal.white_roi)
    if diff is None:
        diff = tray_difference(background, cal)
    mask = diff(frame, white)
    r_min, r_max = cal.ball_radius
    a_min, a_max = math.pi * r_min**2, math.pi * r_max**2
    x0, y0 = cal.tray_roi[:2]
    # touching balls (the normal case at the chute) are one blob: it is cut at its necks
    return find_blobs(
        mask,
        offset=(x0, y0),
        min_area=a_min,
        max_area=a_max,
        min_circularity=MIN_CIRCULARITY,
        max_elongation=MAX_ELONGATION,
        split=True,
    )


class TrayLight:
    """Local white balance along the tray, for light that changes colour across the table.

    A lamp on one side and a window on the other light the patch and the far end of the tray
    differently. The empty tray is one uniform material, so the colour of the empty tray under
    a ball, relative to the tray beside the patch, says how the light there differs from the
    light on the patch. Only the hue of that ratio is used; brightness comes from the patch.
    """

    def __init__(self, background: np.ndarray, cal: Calibration):
        self.background = background
        self.enabled = cal.white_roi is not None and cal.tray_roi is not None
        if not self.enabled:
            return
        px, py, pw, ph = cal.white_roi
        tx, ty, tw, th = cal.tray_roi
        pcx, pcy = px + pw / 2, py + ph / 2
        # the tenth of the tray nearest to the patch
        if abs(pcx - (tx + tw / 2)) / tw >= abs(pcy - (ty + th / 2)) / th:
            sw = max(4, tw // 10)
            x0 = tx if pcx < tx + tw / 2 else tx + tw - sw
            strip = background[ty : ty + th, x0 : x0 + sw]
        else:
            sh = max(4, th // 10)
            y0 = ty if pcy < ty + th / 2 else ty + th - sh
            strip = background[y0 : y0 + sh, tx : tx + tw]
        self.ref = np.maximum(np.median(strip.reshape(-1, 3), axis=0).astype(np.float32), 1.0)

    def white_at(self, blob: Blob, white: np.ndarray) -> np.ndarray:
        if not self.enabled:
            return white
        px = inner_pixels(self.background, blob.contour, shrink=0.0)
        if len(px) < 10:
            return white
        ratio = np.maximum(np.median(px, axis=0).astype(np.float32), 1.0) / self.ref
        return white * (ratio / ratio.mean())


def order_key(cal: Calibration, x: float, y: float) -> float:
    """Distance along the tray from the end where slot 0 comes to rest."""
    rx, ry, rw, rh = cal.tray_roi
    end = cal.first_end
    return {"left": x - rx, "right": rx + rw - x, "top": y - ry, "bottom": ry + rh - y}[end]


def tray_difference(background: np.ndarray, cal: Calibration) -> DifferenceMask:
    # half size is plenty for balls of 8+ px radius and keeps a frame within a few ms
    scale = 0.5 if cal.ball_radius[0] >= 8 else 1.0
    return DifferenceMask(
        background, cal.tray_roi, frame_white(background, cal.white_roi), scale=scale
    )


def detect_balls(frame, background, cal: Calibration) -> list[tuple[Blob, np.ndarray]]:
    """Every ball in the tray with its measured Lab colour."""
    white = frame_white(frame, cal.white_roi)
    light = TrayLight(background, cal)
    return [
        (b, measure(frame, b.contour, light.white_at(b, white)))
        for b in find_balls(frame, background, cal, white)
    ]


@dataclass
class _Track:
    x: float
    y: float
    r: float
    first_seen: int
    order_key: float  # distance from the tray end where slot 0 stops
    readings: list[Reading] = field(default_factory=list)
    still: int = 0  # consecutive frames without moving
    missing: int = 0
    confirmed: Reading | None = None
    emitted: bool = False


class BallReader:
    """Feed frames; get `BallSeen(colour, slot, confidence)` for newly confirmed balls only.

    The first frame fed is taken as the empty tray unless `background` is given; call
    `reset()` when the tray is emptied for a new round. `ask_threshold` is the confidence below
    which the app asks a person; readings that never settle are reported below it.
    """

    def __init__(
        self,
        calibration: Calibration,
        *,
        colours: Iterable[str] = BALL_COLOURS,
        background: np.ndarray | None = None,
        agree: int = 3,
        patience: int = 12,
        ask_threshold: float = 0.8,
        use_beam: bool = False,
    ):
        if calibration.tray_roi is None:
            raise CalibrationError("the calibration has no ball tray region (tray_roi)")
        self.cal = calibration
        self.colours = tuple(colours)
        missing = set(self.colours) - set(calibration.colours)
        if missing:
            raise CalibrationError(f"calibration has no prototype for {', '.join(sorted(missing))}")
        self.agree = agree
        self.patience = patience
        self.ask_threshold = ask_threshold
        self.use_beam = use_beam
        self.reset(background)

    def reset(self, background: np.ndarray | None = None) -> None:
        """Forget the balls; the next frame (or `background`) is the empty tray."""
        self.background = background
        self._diff: DifferenceMask | None = None
        self._light: TrayLight | None = None
        self.tracks: list[_Track] = []
        self.frame_no = 0
        self.emitted = 0
        self.skipped = 0  # frames not read because the white patch was covered
        self.beam_count = 0
        self._beam_wait = 0

    def _use_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()
        self._diff = tray_difference(self.background, self.cal)
        self._light = TrayLight(self.background, self.cal)

    def ball_passed(self, count: int = 1) -> None:
        """The break-beam saw `count` more balls leave the mill."""
        self.use_beam = True
        self.beam_count += count

    def __repr__(self) -> str:
        return (
            f"<BallReader {len(self.tracks)} tracked, {self.emitted} reported, "
            f"beam={self.beam_count if self.use_beam else 'off'}>"
        )

    def _order_key(self, x: float, y: float) -> float:
        return order_key(self.cal, x, y)

    def feed(self, frame: np.ndarray) -> list[BallSeen]:
        if self.background is None:
            self._use_background(frame)
            return []
        if self._light is None:
            self._use_background(self.background)
        self.frame_no += 1
        if not patch_trustworthy(frame, self.cal.white_roi, self.background):
            self.skipped += 1  # tracks wait; the next clear frame carries on
            return []
        white = frame_white(frame, self.cal.white_roi)
        blobs = find_balls(frame, self.background, self.cal, white, self._diff)
        seen = set()
        for b in blobs:
            t = self._match(b, seen)
            if t is None:
                t = _Track(b.x, b.y, b.radius, self.frame_no, self._order_key(b.x, b.y))
                self.tracks.append(t)
            seen.add(id(t))
            moved = math.hypot(b.x - t.x, b.y - t.y) > 0.25 * t.r
            t.x, t.y, t.r, t.missing = b.x, b.y, b.radius, 0
            t.order_key = self._order_key(b.x, b.y)
            if moved:
                t.still, t.readings = 0, []
                continue
            t.still += 1
            if t.confirmed is None:
                lab = measure(frame, b.contour, self._light.white_at(b, white))
                t.readings.append(self.cal.classifier.classify(lab, self.colours))
                self._settle(t)
        for t in self.tracks:
            if id(t) not in seen:
                t.missing += 1
        # a detection that vanished before it was confirmed was not a ball (a hand, a shadow)
        self.tracks = [t for t in self.tracks if t.confirmed or t.missing <= 2]
        return self._emit()

    def _match(self, b: Blob, taken: set) -> _Track | None:
        best, bd = None, 0.0
        for t in self.tracks:
            if id(t) in taken:
                continue
            d = math.hypot(b.x - t.x, b.y - t.y)
            if d < 1.2 * max(t.r, b.radius) * (3 if t.still == 0 else 1) and (
                best is None or d < bd
            ):
                best, bd = t, d
        return best

    def _settle(self, t: _Track) -> None:
        last = t.readings[-self.agree :]
        if len(last) == self.agree and len({r.colour for r in last}) == 1:
            # the weakest of the agreeing frames speaks for the ball
            t.confirmed = min(last, key=lambda r: r.confidence)
        elif len(t.readings) >= self.patience:
            # it never settled: report the most frequent answer, below the ask threshold
            colours = [r.colour for r in t.readings]
            top = max(set(colours), key=colours.count)
            share = colours.count(top) / len(colours)
            worst = min((r for r in t.readings if r.colour == top), key=lambda r: r.confidence)
            conf = min(worst.confidence * share, self.ask_threshold * 0.5)
            t.confirmed = Reading(top, conf, worst.distance, worst.ranking, worst.lab)

    def _emit(self) -> list[BallSeen]:
        out = []
        pending = sorted(
            (t for t in self.tracks if not t.emitted), key=lambda t: (t.first_seen, t.order_key)
        )
        for t in pending:
            if t.confirmed is None:
                break  # an earlier ball is still unread: keep the order
            if self.use_beam and self.emitted >= self.beam_count:
                break  # the camera sees more than came out of the mill: wait for the beam
            r = t.confirmed
            conf = r.confidence if r.colour != UNKNOWN else 0.0
            pitch = self.cal.slot_pitch
            if pitch and abs(t.order_key - (self.emitted + 0.5) * pitch) > 0.6 * pitch:
                # not where ball number `slot` comes to rest: a ball before it may have been
                # missed, so its slot is in doubt; a person confirms
                conf = min(conf, self.ask_threshold * 0.5)
            out.append(BallSeen(r.colour, self.emitted, round(conf, 4)))
            t.emitted = True
            self.emitted += 1
        if self.use_beam and self.emitted < self.beam_count and not pending:
            # the beam counted a ball the camera cannot see (covered, fell out): ask
            self._beam_wait += 1
            if self._beam_wait > self.patience * 2:
                out.append(BallSeen(UNKNOWN, self.emitted, 0.0))
                self.emitted += 1
                self._beam_wait = 0
        else:
            self._beam_wait = 0
        return out
