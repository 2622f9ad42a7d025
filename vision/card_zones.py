"""Cards laid on the table, read by zone: the cards face up with their colour, the cards face
down, and whether a hand leaves a zone unreadable.

Each game begins on the empty table: the set-up is found in it (`vision.layout`: the camera
may have moved since the calibration) and with it the seat zones. A card is then found
anywhere on the table, at any angle, by what changed against the empty table; it belongs to
the zone that holds most of it, so a card laid across a zone's edge is read, not a reason to
block the zone. A region that is no card (a hand, an arm, a cup) hides only what it covers:
the cards it leaves in view are read, and the zones it reaches are marked `covered` (there may
be more cards under it).

A card's colour is its ink's, never its paper's or its floor's: the face is squared up, its
white paper border (when it has one) is its own white reference (`colour.reference_white`),
and the ink is the face's colourful part. A face-down card shows the printed back, learnt like
a colour (`BACK`). Competitive Laser prism cards also show a floor pattern, read from the
face's texture (`vision.floor_texture`).

Cards and other regions are found by `vision.card_regions`, each face measured by
`vision.card_face`; this module reads them into zones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.card_face import Face, measure_face
from vision.card_regions import CardTable
from vision.classify import UNKNOWN, Classifier
from vision.errors import CalibrationError
from vision.floor_texture import FloorModel
from vision.layout import CameraMoved, Layout

BACK = "back"  # the prototype name of the printed card back


@dataclass(frozen=True)
class Card:
    zone: str
    colour: str  # "" when face down or unreadable
    confidence: float
    box: tuple[int, int, int, int]  # x, y, width, height in the frame
    face_down: bool = False
    touching: bool = False
    floor: str = ""  # a competitive prism card's floor pattern, when read and sure
    corners: tuple[tuple[float, float], ...] = ()
    candidates: tuple[str, ...] = ()

    def to_json(self) -> dict:
        out = {
            "colour": self.colour,
            "confidence": self.confidence,
            "box": list(self.box),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }
        if self.candidates:
            out["candidates"] = list(self.candidates)
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
    blocked: bool = False  # no reading at all (the white patch covered, the camera moved)
    unreadable: int = 0  # card-sized things that are not cards
    covered: bool = False  # a hand reaches in: the cards it leaves in view, maybe not all

    def to_json(self) -> dict:
        return {
            "zone": self.zone,
            "blocked": self.blocked,
            "covered": self.covered,
            "unreadable": self.unreadable,
            "cards": [c.to_json() for c in self.cards],
        }


class ZoneReader:
    """`read(frame) -> tuple[ZoneView, ...]` for the calibration's card zones (or `zones`).

    `colours`: the game's card colours; `colour_set`: which of the calibration's sets they
    are learnt in (a Laser blue card is not a Color Milk blue card). `background` is the empty
    table (the first frame read when not given). A frame whose white patch is covered gives
    every zone as blocked. With `floors` (Laser's competitive patterns) each card's floor is
    read too, if the calibration has learnt every one of them; else no floor is ever sure."""

    def __init__(
        self,
        calibration: Calibration,
        colours: Iterable[str],
        *,
        zones: Iterable[str] | None = None,
        background: np.ndarray | None = None,
        floors: Iterable[str] = (),
        colour_set: str = "",
    ) -> None:
        if not calibration.card_zones:
            raise CalibrationError("the calibration has no card zones")
        self.cal = calibration
        self.classifier: Classifier = calibration.classifier_for(colour_set)
        self.colours = tuple(colours)
        missing = set(self.colours) - set(self.classifier.colours)
        if missing:
            raise CalibrationError(f"calibration has no prototype for {', '.join(sorted(missing))}")
        self.allowed = self.colours + ((BACK,) if BACK in self.classifier.colours else ())
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
        self.table: CardTable | None = None
        self.moved = False
        if background is not None:
            self.set_background(background)

    def __repr__(self) -> str:
        return f"<ZoneReader zones={[z for z, _ in self.zones]} colours={self.colours}>"

    def set_background(self, frame: np.ndarray) -> None:
        self.background = frame.copy()
        try:
            layout = Layout.find(
                frame, reference=self.cal.reference_edges, patch=self.cal.white_roi
            )
        except CameraMoved:
            self.table, self.moved = None, True
            return
        self.table, self.moved = CardTable(self.cal, layout, self.zones), False

    def read(self, frame: np.ndarray) -> tuple[ZoneView, ...]:
        if self.background is None:
            self.set_background(frame)
            return ()
        if self.table is None:
            return tuple(ZoneView(z, blocked=True) for z, _ in self.zones)
        white = self.table.layout.white(frame)
        if white is None:  # the white patch is covered: no colour can be trusted
            return tuple(ZoneView(z, blocked=True) for z, _ in self.zones)
        found, others = self.table.regions(frame, white)
        covered: set[str] = set()
        unreadable: dict[str, int] = {}
        a_max = self.table.area[1]
        for region, edge in others:
            if edge or cv2.contourArea(region) > 1.5 * a_max:
                covered |= self.table.reached(region)  # a hand hides only what it covers
            else:
                zone = self.table.zone_of(cv2.boxPoints(cv2.minAreaRect(region)))
                if zone is not None:
                    unreadable[zone] = unreadable.get(zone, 0) + 1
        placed = []
        for corners, touching in found:
            zone = self.table.zone_of(corners)
            if zone is None:
                continue
            if cv2.contourArea(corners.astype(np.float32)) > a_max:  # cards edge to edge
                placed.append((zone, corners, True, None))
                continue
            centre = corners.mean(axis=0)
            face = measure_face(
                frame,
                corners,
                white.at(*centre),
                texture=self._floor_model is not None,
            )
            placed.append((zone, corners, touching, face))
        readings = self.classifier.classify_many(
            [f.lab for _, _, _, f in placed if f is not None], self.allowed
        )
        readings = iter(readings)
        cards: dict[str, list[Card]] = {}
        for zone, corners, touching, face in placed:
            card = self._card(zone, corners, touching, face, next(readings) if face else None)
            cards.setdefault(zone, []).append(card)
        views = []
        for name, _ in self.zones:
            here = tuple(sorted(cards.get(name, []), key=_reading_order))
            views.append(ZoneView(name, here, False, unreadable.get(name, 0), name in covered))
        return tuple(views)

    def _card(self, zone, corners, touching, face, reading) -> Card:
        box = tuple(int(v) for v in cv2.boundingRect(corners.astype(np.float32)))
        outline = tuple((float(x), float(y)) for x, y in corners)
        if face is None or reading is None:
            return Card(zone, "", 0.0, box, touching=touching, corners=outline)
        conf = 0.0 if reading.colour == UNKNOWN else round(float(reading.confidence), 4)
        candidates = tuple(c for c in reading.candidates if c != BACK)
        if reading.colour == BACK:
            return Card(
                zone,
                "",
                conf,
                box,
                face_down=True,
                touching=touching,
                corners=outline,
                candidates=candidates,
            )
        colour = "" if reading.colour == UNKNOWN else reading.colour
        floor = ""
        if self._floor_model is not None and colour and face.texture is not None:
            f = self._floor_model.read(face.texture)
            floor = f.floor if f.sure else ""
        return Card(
            zone,
            colour,
            conf,
            box,
            touching=touching,
            floor=floor,
            corners=outline,
            candidates=candidates,
        )


def faces(
    cal: Calibration, empty: np.ndarray, frame: np.ndarray, zones: Iterable[str] | None = None
) -> list[tuple[str, np.ndarray, Face]]:
    """(zone, corners, face) of every card lying in `zones` of `frame` (all by default), as
    the reader measures them: the samples a calibration learns from."""
    layout = Layout.find(empty, reference=cal.reference_edges, patch=cal.white_roi)
    wanted = None if zones is None else set(zones)
    table = CardTable(
        cal, layout, [(z, r) for z, r in cal.card_zones if wanted is None or z in wanted]
    )
    white = layout.white(frame)
    if white is None:
        raise CalibrationError("the white patch is covered in the calibration frame")
    out = []
    for corners, _ in table.regions(frame, white)[0]:
        zone = table.zone_of(corners)
        face = measure_face(frame, corners, white.at(*corners.mean(axis=0)))
        if zone is not None and face is not None:
            out.append((zone, corners, face))
    return out


def _reading_order(card: Card):
    """Top row first, left to right (rows a card's height apart)."""
    x, y, w, h = card.box
    return (round(y / max(math.sqrt(w * h), 1)), x)
