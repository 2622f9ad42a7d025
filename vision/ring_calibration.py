"""The ring's calibration: where the 12 floor tiles and the six colour cards are in the
camera's frame, the white patch, and the colour prototypes learnt for the figures; as JSON
(`"format": "table-companion-ring"`). Bad files are one-line `CalibrationError`s."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.classifier import Prototype
from vision.errors import CalibrationError

FORMAT = "table-companion-ring"
VERSION = 1
COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")  # circle order
TILES = 12


@dataclass(frozen=True)
class RingCalibration:
    frame_size: tuple[int, int]
    centre: tuple[float, float]
    radii: tuple[float, float]
    first: float  # angle of tile 0, degrees (image axes: x right, y down; -90 is the top)
    tile: float  # tile side, pixels
    cards: Mapping[str, tuple[float, float, float, float]]  # colour -> x, y, w, h
    white_roi: tuple[int, int, int, int]
    prototypes: tuple[Prototype, ...] = ()

    @property
    def slots(self) -> tuple[tuple[float, float], ...]:
        (cx, cy), (rx, ry) = self.centre, self.radii
        angles = (math.radians(self.first + 30 * k) for k in range(TILES))
        return tuple((cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in angles)

    def spots(self, colour: str) -> tuple[tuple[float, float], tuple[float, float]]:
        x, y, w, h = self.cards[colour]
        return (x + 0.27 * w, y + 0.5 * h), (x + 0.73 * w, y + 0.5 * h)


def to_json(cal: RingCalibration) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "frame_size": list(cal.frame_size),
        "ellipse": {"centre": list(cal.centre), "radii": list(cal.radii), "first": cal.first},
        "tile": cal.tile,
        "cards": {c: list(r) for c, r in cal.cards.items()},
        "white_roi": list(cal.white_roi),
        "prototypes": [
            {"colour": p.colour, "lab": list(p.lab), "sigma": p.sigma, "samples": p.samples}
            for p in cal.prototypes
        ],
    }


def _numbers(value: Any, n: int, what: str) -> tuple[float, ...]:
    ok = isinstance(value, list) and len(value) == n
    ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    if not ok or not all(math.isfinite(v) for v in value):
        raise CalibrationError(f"ring calibration: {what} must be {n} numbers")
    return tuple(float(v) for v in value)


def from_json(data: Any) -> RingCalibration:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"not a ring calibration (format {FORMAT!r} expected)")
    if data.get("version") != VERSION:
        raise CalibrationError(f"ring calibration version {data.get('version')!r} is unknown")
    try:
        w, h = (int(v) for v in _numbers(data.get("frame_size"), 2, "frame_size"))
        e = data.get("ellipse")
        if not isinstance(e, dict):
            raise CalibrationError("ring calibration: ellipse must be an object")
        centre = _numbers(e.get("centre"), 2, "ellipse centre")
        radii = _numbers(e.get("radii"), 2, "ellipse radii")
        (first,) = _numbers([e.get("first", -90)], 1, "ellipse first")
        (tile,) = _numbers([data.get("tile")], 1, "tile")
        cards = data.get("cards")
        if not isinstance(cards, dict) or set(cards) != set(COLOURS):
            raise CalibrationError("ring calibration: cards must give x, y, w, h per colour")
        cards = {c: _numbers(cards[c], 4, f"card {c}") for c in COLOURS}
        roi = tuple(int(v) for v in _numbers(data.get("white_roi"), 4, "white_roi"))
        protos = []
        for p in data.get("prototypes") or []:
            if not isinstance(p, dict) or not isinstance(p.get("colour"), str):
                raise CalibrationError("ring calibration: a prototype needs a colour")
            lab = _numbers(p.get("lab"), 3, "prototype lab")
            (sigma,) = _numbers([p.get("sigma")], 1, "prototype sigma")
            protos.append(Prototype(p["colour"], lab, max(sigma, 0.1), int(p.get("samples", 1))))
    except (TypeError, ValueError) as exc:
        raise CalibrationError(f"ring calibration: {exc}") from None
    if min(w, h, tile, *radii) <= 0:
        raise CalibrationError("ring calibration: sizes must be positive")
    return RingCalibration((w, h), centre, radii, first, tile, cards, roi, tuple(protos))


def load(path: str | Path) -> RingCalibration:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"cannot read ring calibration {path}: {exc.strerror}") from None
    try:
        return from_json(json.loads(text))
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"ring calibration {path} is not JSON: {exc.msg}") from None


def save(path: str | Path, cal: RingCalibration) -> None:
    Path(path).write_text(json.dumps(to_json(cal), indent=1), encoding="utf-8")
