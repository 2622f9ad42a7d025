"""What lies in each card zone, as a whole: the cards face up with their colour, the cards
face down, and whether the zone can be read at all.

A zone is compared with the empty table (`segment.DifferenceMask`). Each changed region is
then one of:
- a card: card-sized and rectangular; its inner pixels are classified among the game's
  colours and BACK (the printed card back, learnt like a colour). A back is "not revealed
  yet", never a colour;
- cards that touch: a region that is no card but parts at its necks into card-shaped pieces;
  the pieces are read, and marked `touching` so that the game asks instead of guessing;
- a hand (or an arm, a cup): a region reaching the zone's edge or larger than any card. The
  zone is `blocked`: no reading at all this frame;
- something else card-sized but not card-shaped: counted as `unreadable`, so the game asks.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.cards import MIN_RECTANGULARITY
from vision.classifier import UNKNOWN
from vision.colour import (
    frame_white,
    patch_trustworthy,
    quantiles,
    to_lab,
    weighted,
)
from vision.errors import CalibrationError
from vision.floor_texture import FloorModel
from vision.floor_texture import measures as floor_measures
from vision.segment import Blob, DifferenceMask, blob_from_contour, split_touching

BACK = "back"  # the prototype name of the printed card back
EDGE = 2  # pixels: a region this close to the zone's edge comes from outside it
MASK_SCALE = 0.5  # cards are found on a half-size image (measured at full size): speed
MIXED_DISTANCE = 22.0  # weighted Lab: a pixel this far from the card's colour is another ink
MIXED_SHARE = 0.2  # of the face that is not white paper (the border, the emblem)
PAPER_L, PAPER_CHROMA = 75.0, 14.0  # white paper, once the frame is white-balanced


@dataclass(frozen=True)
class Card:
    zone: str
    colour: str  # "" when face down or unreadable
    confidence: float
    box: tuple[int, int, int, int]  # x, y, width, height in the frame
    face_down: bool = False
    touching: bool = False
    floor: str = ""  # a competitive prism card's floor pattern, when read and sure

    def to_json(self) -> dict:
        out = {"colour": self.colour, "confidence": self.confidence, "box": list(self.box)}
        if self.floor:
            out["floor"] = self.floor
        if self.face_down:
            out["face_down"] = True
        if self.touching:
            out["touching"] = True
        return out


@dataclass(frozen=True)
class ZoneView:
    zone: str
    cards: tuple[Card, ...] = ()
    blocked: bool = False  # a hand or an arm over the zone: no reading
    unreadable: int = 0  # card-sized things that are not cards

    def to_json(self) -> dict:
        return {
            "zone": self.zone,
            "blocked": self.blocked,
            "unreadable": self.unreadable,
            "cards": [c.to_json() for c in self.cards],
        }


class ZoneReader:
    """`read(frame) -> tuple[ZoneView, ...]` for the calibration's card zones (or `zones`).

    `background` is the empty table (the first frame read when not given). A frame whose
    white patch is covered gives every zone as blocked. With `floors` (Laser's competitive
    patterns) each card's floor is read too, if the calibration has learnt every one of
    them; else no floor is ever sure (the game asks)."""

    def __init__(
        self,
        calibration: Calibration,
        colours: Iterable[str],
        *,
        zones: Iterable[str] | None = None,
        background: np.ndarray | None = None,
        floors: Iterable[str] = (),
    ) -> None:
        if not calibration.card_zones:
            raise CalibrationError("the calibration has no card zones")
        self.cal = calibration
        self.colours = tuple(colours)
        missing = set(self.colours) - set(calibration.colours)
        if missing:
            raise CalibrationError(f"calibration has no prototype for {', '.join(sorted(missing))}")
        # the back is optional: without its prototype a face-down card is unreadable (asked)
        self.allowed = self.colours + ((BACK,) if BACK in calibration.colours else ())
        wanted = None if zones is None else set(zones)
        self.zones = tuple(
            (z, r) for z, r in calibration.card_zones if wanted is None or z in wanted
        )
        if wanted is not None and len(self.zones) != len(wanted):
            known = ", ".join(z for z, _ in calibration.card_zones)
            raise CalibrationError(f"unknown card zone in {sorted(wanted)} (have {known})")
        self.floors = tuple(floors)
        learnt = {f: m for f, m in calibration.floors.items() if f in self.floors}
        self._floor_model = None
        if self.floors and len(learnt) == len(set(self.floors)):
            self._floor_model = FloorModel(learnt)
        self.background: np.ndarray | None = None
        self._masks: list[DifferenceMask] = []
        if background is not None:
            self.set_background(background)

    def __repr__(self) -> str:
        return f"<ZoneReader zones={[z for z, _ in self.zones]} colours={self.colours}>"

    def set_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()
        bg_white = frame_white(frame, self.cal.white_roi)
        self._masks = [
            DifferenceMask(frame, rect, bg_white, scale=MASK_SCALE) for _, rect in self.zones
        ]

    def read(self, frame: np.ndarray) -> tuple[ZoneView, ...]:
        if self.background is None:
            self.set_background(frame)
            return ()
        if not patch_trustworthy(frame, self.cal.white_roi, self.background):
            return tuple(ZoneView(z, blocked=True) for z, _ in self.zones)
        white = frame_white(frame, self.cal.white_roi)
        views = [
            self._zone(frame, white, name, rect, mask)
            for (name, rect), mask in zip(self.zones, self._masks, strict=True)
        ]
        # every card of the frame is classified in one call: the classifier's set-up per
        # call costs more than one card's colour
        pending = [c for v in views for c in v.cards if isinstance(c, _Measured)]
        if pending:
            readings = self.cal.classifier.classify_many([m.lab for m in pending], self.allowed)
            read = {id(m): self._classified(m, r) for m, r in zip(pending, readings, strict=True)}
            views = [replace(v, cards=tuple(read.get(id(c), c) for c in v.cards)) for v in views]
        return tuple(views)

    def _zone(self, frame, white, name, rect, diff: DifferenceMask) -> ZoneView:
        """The zone's cards; a card's colour still to classify is a `_Measured`."""
        mask = diff(frame, white)
        a_min, a_max = self.cal.card_area
        x0, y0, w, h = rect
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cards: list = []
        unreadable = 0
        for c in contours:
            bx, by, bw, bh = cv2.boundingRect(c)
            area = cv2.contourArea(c)
            if area < a_min / 2:
                continue  # noise, a crumb
            at_edge = bx <= EDGE or by <= EDGE or bx + bw >= w - EDGE or by + bh >= h - EDGE
            if at_edge or area > 2.5 * a_max:
                return ZoneView(name, blocked=True)
            b = blob_from_contour(cv2.convexHull(c), (x0, y0))
            if self._card_shaped(b):
                cards.append(self._card(frame, white, name, b))
                continue
            pieces = [p for p in _pieces(c, (x0, y0)) if self._card_shaped(p)]
            if len(pieces) >= 2:
                cards += [self._card(frame, white, name, p, touching=True) for p in pieces]
            elif b is not None and b.area > a_max and b.rectangularity >= MIN_RECTANGULARITY:
                box = tuple(int(v) for v in cv2.boundingRect(b.contour))
                cards.append(Card(name, "", 0.0, box, touching=True))  # cards edge to edge
            else:
                unreadable += 1
        cards.sort(key=lambda k: (round(k.box[1] / max(k.box[3], 1)), k.box[0]))
        return ZoneView(name, tuple(cards), unreadable=unreadable)

    def _card_shaped(self, b: Blob | None) -> bool:
        a_min, a_max = self.cal.card_area
        return b is not None and a_min <= b.area <= a_max and b.rectangularity >= MIN_RECTANGULARITY

    def _card(self, frame, white, zone: str, b: Blob, touching: bool = False):
        box = tuple(int(v) for v in cv2.boundingRect(b.contour))
        face = _Face(frame, b.contour)
        px = face.inner()[::2]  # every other pixel is plenty
        if len(px) == 0:
            return Card(zone, "", 0.0, box, touching=touching)
        pixels = to_lab(px.reshape(-1, 1, 3), face.white(white, px)).reshape(-1, 3)
        lab = _face_colour(pixels)
        if _mixed(pixels, lab):  # two cards edge to edge look like one: never a colour
            return Card(zone, "", 0.0, box, touching=True)
        texture = None if self._floor_model is None else floor_measures(frame, b.contour)
        return _Measured(zone, box, touching, lab, texture)

    def _classified(self, m: _Measured, r) -> Card:
        conf = 0.0 if r.colour == UNKNOWN else round(float(r.confidence), 4)
        if r.colour == BACK:
            return Card(m.zone, "", conf, m.box, face_down=True, touching=m.touching)
        colour = "" if r.colour == UNKNOWN else r.colour
        floor = ""
        if self._floor_model is not None and colour:
            f = self._floor_model.read(m.texture)
            floor = f.floor if f.sure else ""
        return Card(m.zone, colour, conf, m.box, touching=m.touching, floor=floor)


@dataclass(frozen=True, eq=False)
class _Measured:
    """A card whose colour is measured (`lab`) but not yet classified."""

    zone: str
    box: tuple[int, int, int, int]
    touching: bool
    lab: np.ndarray
    texture: np.ndarray | None = None  # floor measures, when floors are read


class _Face:
    """One card's pixels, its outline drawn once for both measures taken on it: the inner
    pixels (as `segment.inner_pixels`, shrink 0.2) and the white of its own margin (as
    `cards.card_white`, its ink taken from those inner pixels)."""

    def __init__(self, frame: np.ndarray, contour: np.ndarray) -> None:
        self.contour = contour
        x, y, w, h = cv2.boundingRect(contour)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
        self.region = frame[y0:y1, x0:x1]
        self.mask = np.zeros(self.region.shape[:2], np.uint8)
        if self.mask.size:
            local = contour - np.array([x0, y0]).reshape(1, 1, 2)
            cv2.drawContours(self.mask, [local], -1, 255, cv2.FILLED)

    def inner(self) -> np.ndarray:
        if self.mask.size == 0:
            return np.empty((0, 3), np.uint8)
        r = int(round(0.2 * math.sqrt(max(cv2.contourArea(self.contour), 1.0) / math.pi)))
        mask = self.mask
        if r > 0:
            inner = cv2.erode(mask, _kernel(cv2.MORPH_ELLIPSE, r))
            if cv2.countNonZero(inner) >= 10:
                mask = inner
        return self.region[mask > 0]

    def white(self, fallback: np.ndarray, ink: np.ndarray) -> np.ndarray:
        """`ink`: the face's inner pixels (uint8 BGR), to tell a white margin from a face
        printed to its edge."""
        h, w = self.mask.shape
        if w < 8 or h < 8:
            return fallback
        shrink = max(2, int(0.12 * min(cv2.minAreaRect(self.contour)[1])))
        inner = cv2.erode(self.mask, _kernel(cv2.MORPH_RECT, shrink))
        ring = cv2.subtract(self.mask, inner)
        # medians and quantiles of whole-number pixel values are taken on the uint8
        # pixels themselves (the same values as in float, without the copies)
        px = self.region[ring > 0]
        if len(px) < 20 or len(ink) < 20:
            return fallback
        grey = px.sum(axis=1, dtype=np.int32)
        top = px[grey >= quantiles(grey, (0.6,))[0]]
        white = _median_rows(top)
        ink = _median_rows(ink)
        margin = bool(np.all(white >= 1.05 * ink)) and white.sum() >= 1.15 * ink.sum()
        return np.maximum(white, 1.0) if margin and white.max() < 254 else fallback


@functools.lru_cache(maxsize=64)
def _kernel(shape: int, r: int) -> np.ndarray:
    return cv2.getStructuringElement(shape, (2 * r + 1, 2 * r + 1))


def _median_rows(px: np.ndarray) -> np.ndarray:
    """np.median(px, axis=0) as float32 of an (N, 3) array, by one partial sort of its
    columns."""
    cols = np.ascontiguousarray(px.T)
    n = cols.shape[1]
    k = n // 2
    if n % 2:
        return np.partition(cols, k, axis=1)[:, k].astype(np.float32)
    part = np.partition(cols, (k - 1, k), axis=1)
    return (part[:, k - 1].astype(np.float32) + part[:, k]) / np.float32(2)


def _mixed(pixels: np.ndarray, lab: np.ndarray) -> bool:
    """More of the face differs from its median colour than a card's white emblem covers."""
    L, a, b = pixels[:, 0], pixels[:, 1], pixels[:, 2]
    paper = (L > PAPER_L) & (a * a + b * b < PAPER_CHROMA**2)
    diff = weighted(pixels - lab)
    far = np.einsum("ij,ij->i", diff, diff) > MIXED_DISTANCE**2
    return np.count_nonzero(far & ~paper) > MIXED_SHARE * len(pixels)


def _face_colour(pixels: np.ndarray) -> np.ndarray:
    """`colour.robust_colour` of a card's Lab pixels (the same value), its median taken by
    partial sorts: a card is measured 25 times a frame."""
    lightness = pixels[:, 0]
    lo, hi = quantiles(lightness, (0.15, 0.85))
    chroma = np.abs(pixels[:, 1]) + np.abs(pixels[:, 2])
    glare = (lightness > hi) & (chroma < quantiles(chroma, (0.5,))[0])
    keep = (lightness >= lo) & (lightness <= hi) & ~glare
    return _median_rows(pixels[keep] if np.count_nonzero(keep) >= 5 else pixels)


def _pieces(contour: np.ndarray, offset: tuple[int, int]):
    """Blobs of the pieces a region parts into at its necks (cards side by side)."""
    x, y, w, h = cv2.boundingRect(contour)
    region = np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour - np.array([x, y]).reshape(1, 1, 2)], -1, 1, -1)
    for px, py, piece in split_touching(region):
        parts, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if parts:
            hull = cv2.convexHull(max(parts, key=cv2.contourArea))
            yield blob_from_contour(hull, (offset[0] + x + px, offset[1] + y + py))
