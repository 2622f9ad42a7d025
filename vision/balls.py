"""Ball reader: which balls arrive in the tray, in which order, and what colour each one is.

Each round begins on the empty tray: the tray is found in it (`vision.layout`: the camera may
have moved since the set-up, the tray may lie the other way round). Per frame: skip it if the
white patch is covered; what changed against the empty tray, in balanced CIELAB, inside the
tray and not reaching out of it (a hand); balls touch in a row, so each ball is a peak of the
distance from the changed region's edge. Each ball is measured with the white the layout
gives at its place (the patch, carried across the table by the light field). Detections are
tracked; a ball is reported once it has rested in the same place with the same colour for
`agree` frames, and balls are reported strictly in arrival order. With a break-beam, the beam
says how many balls came out and the camera says which.

The tray and the balls found in one frame are `vision.ball_tray`; this module follows them
from frame to frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from companion.events import BallSeen
from vision.ball_tray import Tray, tray_for
from vision.calibration import Calibration
from vision.classify import UNKNOWN, Reading
from vision.errors import CalibrationError
from vision.layout import CameraMoved
from vision.segment import Blob, measure

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")
BALL_SET = "balls"  # the calibration's set of ball colours


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
    waited: int = 0  # frames confirmed but held back: not where the next slot rests


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
        self.classifier = calibration.classifier_for(BALL_SET)
        missing = set(self.colours) - set(self.classifier.colours)
        if missing:
            raise CalibrationError(f"calibration has no prototype for {', '.join(sorted(missing))}")
        self.agree = agree
        self.patience = patience
        self.ask_threshold = ask_threshold
        self.use_beam = use_beam
        self.reset(background)

    def reset(self, background: np.ndarray | None = None) -> None:
        """Forget the balls; the next frame (or `background`) is the empty tray."""
        self.background = None
        self.tray: Tray | None = None
        self.moved = False  # the tray cannot be found: nothing is read until the next reset
        self.tracks: list[_Track] = []
        self.frame_no = 0
        self.emitted = 0
        self.skipped = 0  # frames not read because the white patch was covered
        self.beam_count = 0
        self._beam_wait = 0
        self._end_known = False  # which tray end slot 0 is at, from the round's first ball
        self.candidates: dict[int, tuple[str, ...]] = {}  # per slot reported, likely first
        self._last_key = 0.0  # where the last ball reported rests, along the tray
        if background is not None:
            self._use_background(background)

    def _use_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()
        try:
            self.tray = tray_for(self.cal, self.background)
        except CameraMoved:
            self.moved = True

    def ball_passed(self, count: int = 1) -> None:
        """The break-beam saw `count` more balls leave the mill."""
        self.use_beam = True
        self.beam_count += count

    def __repr__(self) -> str:
        return (
            f"<BallReader {len(self.tracks)} tracked, {self.emitted} reported, "
            f"beam={self.beam_count if self.use_beam else 'off'}>"
        )

    def feed(self, frame: np.ndarray) -> list[BallSeen]:
        if self.background is None:
            self._use_background(frame)
            return []
        if self.tray is None:
            return []  # the camera moved: the app says so and asks instead
        self.frame_no += 1
        white = self.tray.layout.white(frame)
        if white is None:
            self.skipped += 1  # the patch is covered: tracks wait for the next clear frame
            return []
        seen = set()
        for b in self.tray.find(frame, white.reference):
            t = self._match(b, seen)
            key = self.tray.order_key(b.x, b.y)
            if t is None:
                t = _Track(b.x, b.y, b.radius, self.frame_no, key)
                self.tracks.append(t)
            seen.add(id(t))
            moved = math.hypot(b.x - t.x, b.y - t.y) > 0.25 * t.r
            t.x, t.y, t.r, t.missing, t.order_key = b.x, b.y, b.radius, 0, key
            if moved:
                t.still, t.readings = 0, []
                continue
            t.still += 1
            if t.confirmed is None:
                lab = measure(frame, b.contour, white.at(b.x, b.y))
                t.readings.append(self.classifier.classify(lab, self.colours))
                self._settle(t)
        for t in self.tracks:
            if id(t) not in seen:
                t.missing += 1
        resting = [t for t in self.tracks if t.still > 0]
        if not self._end_known and resting:
            first = min(resting, key=lambda t: t.first_seen)
            # a ball that came alone says where slot 0 is; balls seen first all at once
            # (the camera woke to a full tray) keep the calibration's end
            if sum(t.first_seen == first.first_seen for t in self.tracks) == 1:
                self.tray.first_ball(first.x, first.y)
            self._end_known = True
            for t in self.tracks:
                t.order_key = self.tray.order_key(t.x, t.y)
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

    def _pitch(self) -> float:
        """How far apart balls rest along the tray: the calibration's cups, else touching."""
        if self.cal.slot_pitch:
            return self.cal.slot_pitch * self.tray.layout.scale
        low, high = self.tray.radius
        return 2 * math.sqrt(low * high)

    def flush(self) -> list[BallSeen]:
        """The balls read but held back (a ball before them never showed): reported now,
        in order, each asked (its slot is in doubt). For a round that ends, or photos."""
        for t in self.tracks:
            if not t.emitted and t.confirmed is not None:
                t.waited = self.patience + 1
        return self._emit()

    def _emit(self) -> list[BallSeen]:
        out = []
        # balls come to rest in order from the tray's end: slot k lies k places from it,
        # whenever the camera first saw it (a hand may have hidden it as it arrived)
        pending = sorted((t for t in self.tracks if not t.emitted), key=lambda t: t.order_key)
        pitch = self._pitch()
        for t in pending:
            if t.confirmed is None:
                break  # an earlier ball is still unread: keep the order
            if self.use_beam and self.emitted >= self.beam_count:
                break  # the camera sees more than came out of the mill: wait for the beam
            r = t.confirmed
            conf = r.confidence if r.colour != UNKNOWN else 0.0
            # where the next slot's ball rests: a pitch on from the last one, or half a pitch
            # from the tray's end; a ball further on leaves a gap
            rest = self._last_key + pitch if self.emitted else 0.5 * pitch
            if t.order_key - rest > 0.5 * pitch:
                # not where ball number `slot` comes to rest: a ball before it may be hidden
                # (a hand) or missed; wait a while for it, then a person confirms
                t.waited += 1
                if t.waited <= self.patience:
                    break
                # the balls the gap holds were never seen: each is asked, then this one
                for _ in range(max(0, round((t.order_key - rest) / pitch))):
                    out.append(BallSeen(UNKNOWN, self.emitted, 0.0))
                    self.emitted += 1
                conf = min(conf, self.ask_threshold * 0.5)
            out.append(BallSeen(r.colour, self.emitted, round(conf, 4)))
            self.candidates[self.emitted] = r.candidates
            t.emitted = True
            self.emitted += 1
            self._last_key = t.order_key
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
