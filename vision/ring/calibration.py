"""The ring's calibration: where the set-up lay when it was made (the 12 floor tiles' rough
places and size, the six colour cards, the white patch, the empty table as a registration
reference) and what was learnt from one figure of each colour (their colours and sizes, and
how the grey of the tiles and the cards' paper compare with white); as JSON
(`"format": "table-companion-ring"`). Bad files are one-line `CalibrationError`s.

Positions are only where to start looking: each game the ring is laid anew and found again
(`vision.ring.layout`). Version 1 files (the set-up screen's ellipse, colours measured the
old way) keep their geometry; their colours must be learnt again.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.classify import Classifier, Prototype
from vision.errors import CalibrationError
from vision.registration import decode_reference

FORMAT = "table-companion-ring"
VERSION = 2
COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")  # circle order
CAT = "cat"
EMPTY = "empty"  # a tile with nothing on it: its own grey, a class like the colours
TILES = 12

Point = tuple[float, float]


@dataclass(frozen=True)
class RingCalibration:
    frame_size: tuple[int, int]
    tiles: tuple[Point, ...]  # rough tile centres, tile 0 nearest the top, clockwise
    tile: float  # a tile's side (or diameter), pixels
    cards: Mapping[str, tuple[Point, ...]]  # colour -> the card's four corners
    white_roi: tuple[int, int, int, int]
    reference: str | None = None  # the empty table (`registration.encode_reference`)
    # linear colour of a tile's grey and of the cards' paper as a share of the white
    # (B, G, R), measured at calibration: each frame's white is then read off them
    tile_grey: tuple[float, float, float] | None = None
    paper: tuple[float, float, float] | None = None
    areas: Mapping[str, float] = field(default_factory=dict)  # class -> area / tile area
    prototypes: tuple[Prototype, ...] = ()
    # the colour cards' ink (CIELAB) when the figures' colours were learnt: each game the
    # figures' colours move as the cards' ink does under that game's light
    inks: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    # the share of each card that is bare paper, empty: less, and spares stand on it
    paper_share: Mapping[str, float] = field(default_factory=dict)

    @functools.cached_property
    def classifier(self) -> Classifier:
        return Classifier(self.prototypes)

    @functools.cached_property
    def reference_edges(self):
        return None if self.reference is None else decode_reference(self.reference)

    @property
    def learnt(self) -> bool:
        """Colours, sizes and references all learnt: the calibration can read."""
        have = {p.colour for p in self.prototypes}
        return (
            self.tile_grey is not None
            and self.paper is not None
            and have >= {*COLOURS, CAT, EMPTY}
            and set(self.areas) >= {*COLOURS, CAT}
            and set(self.inks) >= set(COLOURS)
            and set(self.paper_share) >= set(COLOURS)
        )

    def missing(self) -> list[str]:
        """What is still to be learnt, in words."""
        have = {p.colour for p in self.prototypes}
        out = [c for c in (*COLOURS, CAT) if c not in have or c not in self.areas]
        if self.tile_grey is None or self.paper is None or EMPTY not in have:
            out.append("the empty ring")
        elif not set(self.inks) >= set(COLOURS) or not set(self.paper_share) >= set(COLOURS):
            out.append("the colour cards")
        return out


def ellipse_tiles(centre: Point, radii: Point, first: float) -> tuple[Point, ...]:
    """The 12 tile centres on an ellipse, tile 0 at angle `first` (degrees, image axes: -90
    is the top), clockwise."""
    (cx, cy), (rx, ry) = centre, radii
    angles = (math.radians(first + 30 * k) for k in range(TILES))
    return tuple((cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in angles)


def rect_corners(rect) -> tuple[Point, ...]:
    x, y, w, h = (float(v) for v in rect)
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _r(v: float) -> float:
    return round(float(v), 2)


def to_json(cal: RingCalibration) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "frame_size": list(cal.frame_size),
        "tiles": [[_r(x), _r(y)] for x, y in cal.tiles],
        "tile": _r(cal.tile),
        "cards": {c: [[_r(x), _r(y)] for x, y in pts] for c, pts in cal.cards.items()},
        "white_roi": list(cal.white_roi),
        "tile_grey": None if cal.tile_grey is None else [round(v, 4) for v in cal.tile_grey],
        "paper": None if cal.paper is None else [round(v, 4) for v in cal.paper],
        "areas": {c: round(a, 4) for c, a in cal.areas.items()},
        "prototypes": [
            {"colour": p.colour, "lab": list(p.lab), "sigma": p.sigma, "samples": p.samples}
            for p in cal.prototypes
        ],
        "inks": {c: [round(v, 2) for v in lab] for c, lab in cal.inks.items()},
        "paper_share": {c: round(v, 4) for c, v in cal.paper_share.items()},
        "reference": cal.reference,
    }


def _numbers(value: Any, n: int, what: str) -> tuple[float, ...]:
    ok = isinstance(value, list) and len(value) == n
    ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    if not ok or not all(math.isfinite(v) for v in value):
        raise CalibrationError(f"ring calibration: {what} must be {n} numbers")
    return tuple(float(v) for v in value)


def _points(value: Any, n: int, what: str) -> tuple[Point, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise CalibrationError(f"ring calibration: {what} must be {n} points")
    return tuple(_numbers(p, 2, what) for p in value)


def _optional(value: Any, what: str) -> tuple[float, float, float] | None:
    if value is None:
        return None
    got = _numbers(value, 3, what)
    if min(got) <= 0:
        raise CalibrationError(f"ring calibration: {what} must be positive")
    return got


def from_json(data: Any) -> RingCalibration:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"not a ring calibration (format {FORMAT!r} expected)")
    version = data.get("version")
    if version not in (1, VERSION):
        raise CalibrationError(f"ring calibration version {version!r} is unknown")
    w, h = (int(v) for v in _numbers(data.get("frame_size"), 2, "frame_size"))
    (tile,) = _numbers([data.get("tile")], 1, "tile")
    cards = data.get("cards")
    if not isinstance(cards, dict) or set(cards) != set(COLOURS):
        raise CalibrationError("ring calibration: cards must give each colour's card")
    roi = tuple(int(v) for v in _numbers(data.get("white_roi"), 4, "white_roi"))
    if version == 1:  # the set-up screen's first files: an ellipse and upright cards
        e = data.get("ellipse")
        if not isinstance(e, dict):
            raise CalibrationError("ring calibration: ellipse must be an object")
        centre = _numbers(e.get("centre"), 2, "ellipse centre")
        radii = _numbers(e.get("radii"), 2, "ellipse radii")
        (first,) = _numbers([e.get("first", -90)], 1, "ellipse first")
        tiles = ellipse_tiles(centre, radii, first)
        corners = {c: rect_corners(_numbers(cards[c], 4, f"card {c}")) for c in COLOURS}
        return _checked(RingCalibration((w, h), tiles, tile, corners, roi))
    tiles = _points(data.get("tiles"), TILES, "tiles")
    corners = {c: _points(cards[c], 4, f"card {c}") for c in COLOURS}
    areas = data.get("areas") or {}
    if not isinstance(areas, dict):
        raise CalibrationError("ring calibration: areas must map classes to numbers")
    areas = {str(c): _numbers([a], 1, f"area of {c}")[0] for c, a in areas.items()}
    protos = []
    for p in data.get("prototypes") or []:
        if not isinstance(p, dict) or not isinstance(p.get("colour"), str):
            raise CalibrationError("ring calibration: a prototype needs a colour")
        lab = _numbers(p.get("lab"), 3, "prototype lab")
        (sigma,) = _numbers([p.get("sigma")], 1, "prototype sigma")
        samples = p.get("samples", 1)
        if not isinstance(samples, int) or samples < 1:
            raise CalibrationError("ring calibration: prototype samples must be a count")
        protos.append(Prototype(p["colour"], lab, max(sigma, 0.1), samples))
    inks = data.get("inks") or {}
    if not isinstance(inks, dict) or not set(inks) <= set(COLOURS):
        raise CalibrationError("ring calibration: inks must map card colours to CIELAB")
    inks = {c: _numbers(lab, 3, f"ink of {c}") for c, lab in inks.items()}
    shares = data.get("paper_share") or {}
    if not isinstance(shares, dict) or not set(shares) <= set(COLOURS):
        raise CalibrationError("ring calibration: paper_share must map card colours to shares")
    shares = {c: _numbers([v], 1, f"paper share of {c}")[0] for c, v in shares.items()}
    if any(not 0 < v <= 1 for v in shares.values()):
        raise CalibrationError("ring calibration: a paper share lies between 0 and 1")
    reference = data.get("reference")
    if reference is not None:
        if not isinstance(reference, str):
            raise CalibrationError("ring calibration: reference must be base64 PNG text")
        try:
            decode_reference(reference)
        except ValueError as exc:
            raise CalibrationError(f"ring calibration: reference: {exc}") from None
    return _checked(
        RingCalibration(
            (w, h),
            tiles,
            tile,
            corners,
            roi,
            reference,
            _optional(data.get("tile_grey"), "tile_grey"),
            _optional(data.get("paper"), "paper"),
            areas,
            tuple(protos),
            inks,
            shares,
        )
    )


def _checked(cal: RingCalibration) -> RingCalibration:
    w, h = cal.frame_size
    if min(w, h, cal.tile) <= 0 or any(a <= 0 for a in cal.areas.values()):
        raise CalibrationError("ring calibration: sizes must be positive")
    x, y, rw, rh = cal.white_roi
    if rw <= 0 or rh <= 0 or x < 0 or y < 0 or x + rw > w or y + rh > h:
        raise CalibrationError("ring calibration: the white patch must lie inside the frame")
    return cal


def load(path: str | Path) -> RingCalibration:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"cannot read ring calibration {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CalibrationError(f"ring calibration {path} is not JSON text") from None
    try:
        return from_json(json.loads(text))
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"ring calibration {path} is not JSON: {exc.msg}") from None


def save(path: str | Path, cal: RingCalibration) -> None:
    Path(path).write_text(json.dumps(to_json(cal), indent=1), encoding="utf-8")
