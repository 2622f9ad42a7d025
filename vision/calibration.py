"""Calibration: colour prototypes, regions of interest and locked camera settings, as JSON.

The colours are learnt by `vision.learn` from a few labelled samples per colour, measured
exactly as the readers measure; this module holds only the data and its files. It is saved
atomically and only when accepted: until then the previous calibration stays in force, and the
one before is kept beside it as `<name>.previous.json`. A damaged file raises CalibrationError
with the reason and is never overwritten.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.classify import Classifier, Prototype
from vision.errors import CalibrationError
from vision.registration import decode_reference

FORMAT = "table-companion-calibration"
VERSION = 1
Rect = tuple[int, int, int, int]  # x, y, width, height in frame pixels
ENDS = ("left", "right", "top", "bottom")
LAB_RANGE = 200.0  # L*a*b* values lie within about ±128 (L* 0-100): beyond is no colour


@dataclass(frozen=True)
class Calibration:
    prototypes: tuple[Prototype, ...]
    white_roi: Rect | None = None  # the reference patch; None = estimate white from the scene
    tray_roi: Rect | None = None  # where balls come to rest
    first_end: str = "left"  # the tray end where slot 0 stops (the far end from the mill)
    ball_radius: tuple[float, float] = (8.0, 80.0)  # pixels, min and max
    slot_pitch: float | None = None  # pixels between resting balls along the tray, if fixed
    card_zones: tuple[tuple[str, Rect], ...] = ()  # (zone name, region)
    card_area: tuple[float, float] = (400.0, 60000.0)  # pixels, min and max
    frame_size: tuple[int, int] | None = None  # (width, height) the regions refer to
    camera: Mapping[str, Any] = field(default_factory=dict)  # locked exposure, gains, ...
    # floor pattern -> its texture measures (`vision.floor_texture`), learnt from one card each
    floors: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    # the empty table the regions were drawn on (`registration.encode_reference`), so each
    # game finds them again however the camera was nudged; None: trust the pixels
    reference: str | None = None

    @functools.cached_property
    def classifier(self) -> Classifier:
        return Classifier(self.prototypes)

    def classifier_for(self, colour_set: str) -> Classifier:
        """The classifier of one set of pieces (a file from before sets: all its colours)."""
        mine = tuple(p for p in self.prototypes if p.set == colour_set)
        mine = mine or tuple(p for p in self.prototypes if not p.set)
        if not mine:
            learnt = ", ".join(self.colour_sets) or "none"
            raise CalibrationError(
                f"the calibration has learnt no {colour_set or 'unnamed'} colours (sets: {learnt})"
            )
        return _classifier(mine)

    @property
    def colour_sets(self) -> tuple[str, ...]:
        return tuple(sorted({p.set for p in self.prototypes}))

    @functools.cached_property
    def reference_edges(self):
        if self.reference is None:
            return None
        return decode_reference(self.reference)

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(sorted({p.colour for p in self.prototypes}))

    def zone(self, name: str) -> Rect:
        for z, rect in self.card_zones:
            if z == name:
                return rect
        raise KeyError(name)


@functools.lru_cache(maxsize=16)
def _classifier(prototypes: tuple[Prototype, ...]) -> Classifier:
    return Classifier(prototypes)


# JSON ----------------------------------------------------------------------------------


def to_json(cal: Calibration) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "prototypes": [
            {
                "colour": p.colour,
                "lab": list(p.lab),
                "sigma": p.sigma,
                "samples": p.samples,
                **({"set": p.set} if p.set else {}),
            }
            for p in cal.prototypes
        ],
        "white_roi": list(cal.white_roi) if cal.white_roi else None,
        "tray_roi": list(cal.tray_roi) if cal.tray_roi else None,
        "first_end": cal.first_end,
        "ball_radius": list(cal.ball_radius),
        "slot_pitch": cal.slot_pitch,
        "card_zones": {z: list(r) for z, r in cal.card_zones},
        "card_area": list(cal.card_area),
        "frame_size": list(cal.frame_size) if cal.frame_size else None,
        "camera": dict(cal.camera),
        "floors": {f: list(m) for f, m in cal.floors.items()},
        "reference": cal.reference,
    }


def _rect(value: Any, what: str) -> Rect | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or value[2] <= 0
        or value[3] <= 0
        or value[0] < 0
        or value[1] < 0
    ):
        raise CalibrationError(
            f"{what} must be [x, y, width, height] in whole pixels, got {value!r}"
        )
    return tuple(value)


def _zone(name: str, value: Any) -> Rect:
    rect = _rect(value, f"card zone {name!r}")
    if rect is None:
        raise CalibrationError(f"card zone {name!r} must be [x, y, width, height], got null")
    return rect


def _pair(value: Any, what: str) -> tuple[float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) for v in value)
        or value[0] > value[1]
    ):
        raise CalibrationError(f"{what} must be [min, max], got {value!r}")
    return (float(value[0]), float(value[1]))


def _pitch(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise CalibrationError(f"slot_pitch must be a positive number of pixels, got {value!r}")
    return float(value)


def from_json(data: Any) -> Calibration:
    """Validate a parsed calibration document; every problem is a one-line CalibrationError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError("not a Table Companion calibration (no 'format' marker)")
    if data.get("version") != VERSION:
        raise CalibrationError(
            f"calibration version {data.get('version')!r} is not supported (expected {VERSION})"
        )
    protos = []
    raw = data.get("prototypes")
    if not isinstance(raw, list):  # empty is allowed: regions set up, colours not learnt yet
        raise CalibrationError("calibration has no list of colour prototypes")
    for i, p in enumerate(raw):
        try:
            lab = tuple(float(v) for v in p["lab"])
            sigma = float(p["sigma"])
            colour = p["colour"]
            samples = int(p.get("samples", 1))
            colour_set = p.get("set", "")
        except (KeyError, TypeError, ValueError):
            raise CalibrationError(f"prototype #{i} is malformed: {p!r}") from None
        if (
            not isinstance(colour, str)
            or not colour
            or len(lab) != 3
            or not sigma > 0
            or not all(np.isfinite(lab))
            or max(abs(v) for v in lab) > LAB_RANGE
            or not np.isfinite(sigma)
            or not isinstance(colour_set, str)
        ):
            raise CalibrationError(f"prototype #{i} is malformed: {p!r}")
        protos.append(Prototype(colour, lab, sigma, samples, colour_set))
    zones = data.get("card_zones") or {}
    if not isinstance(zones, dict):
        raise CalibrationError("card_zones must map zone names to [x, y, width, height]")
    first_end = data.get("first_end", "left")
    if first_end not in ENDS:
        raise CalibrationError(f"first_end must be one of {', '.join(ENDS)}, got {first_end!r}")
    size = data.get("frame_size")
    if size is not None and (
        not isinstance(size, list)
        or len(size) != 2
        or not all(isinstance(v, int) and v > 0 for v in size)
    ):
        raise CalibrationError(f"frame_size must be [width, height], got {size!r}")
    camera = data.get("camera") or {}
    if not isinstance(camera, dict):
        raise CalibrationError("camera settings must be a JSON object")
    floors = data.get("floors") or {}
    if not isinstance(floors, dict) or not all(
        isinstance(m, list)
        and len(m) == 3
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in m)
        and all(np.isfinite(m))
        and min(m) >= 0
        for m in floors.values()
    ):
        raise CalibrationError("floors must map floor names to three texture measures")
    reference = data.get("reference")
    if reference is not None:
        if not isinstance(reference, str):
            raise CalibrationError("reference must be the empty table as base64 PNG text")
        try:
            decode_reference(reference)
        except ValueError as exc:
            raise CalibrationError(f"reference: {exc}") from None
    cal = Calibration(
        prototypes=tuple(protos),
        white_roi=_rect(data.get("white_roi"), "white_roi"),
        tray_roi=_rect(data.get("tray_roi"), "tray_roi"),
        first_end=first_end,
        ball_radius=_pair(data.get("ball_radius", [8, 80]), "ball_radius"),
        slot_pitch=_pitch(data.get("slot_pitch")),
        card_zones=tuple((str(z), _zone(z, r)) for z, r in zones.items()),
        card_area=_pair(data.get("card_area", [400, 60000]), "card_area"),
        frame_size=tuple(size) if size else None,
        camera=camera,
        floors={str(f): tuple(float(v) for v in m) for f, m in floors.items()},
        reference=reference,
    )
    _check_geometry(cal)
    return cal


def _check_geometry(cal: Calibration) -> None:
    """Regions that cannot be on the frame, or a ball or card no frame could hold, are a
    damaged calibration (each named), not a reader that runs out of memory later."""
    if cal.frame_size is None:
        return
    w, h = cal.frame_size
    if w * h > 50_000_000:
        raise CalibrationError(f"frame_size {w}x{h} is larger than any camera's")
    rects = [("white_roi", cal.white_roi), ("tray_roi", cal.tray_roi)]
    rects += [(f"card zone {z!r}", r) for z, r in cal.card_zones]
    for name, r in rects:
        if r is not None and (r[0] + r[2] > w or r[1] + r[3] > h):
            raise CalibrationError(f"{name} {list(r)} lies outside the {w}x{h} frame")
    if cal.ball_radius[1] > min(w, h) / 2 or cal.ball_radius[0] <= 0:
        raise CalibrationError(f"ball_radius {list(cal.ball_radius)} does not fit a {w}x{h} frame")
    if cal.slot_pitch is not None and cal.slot_pitch > max(w, h):
        raise CalibrationError(f"slot_pitch {cal.slot_pitch} is longer than the frame")
    if cal.card_area[1] > w * h or cal.card_area[0] <= 0:
        raise CalibrationError(f"card_area {list(cal.card_area)} does not fit a {w}x{h} frame")


def load(path: str | Path) -> Calibration:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(f"no calibration file at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read calibration {path}: {exc}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: nested absurdly deep
        raise CalibrationError(f"calibration {path} is damaged (not JSON: {exc})") from None
    try:
        return from_json(data)
    except CalibrationError as exc:
        raise CalibrationError(f"calibration {path} is damaged: {exc}") from None


def save(path: str | Path, cal: Calibration) -> None:
    """Write atomically: a power cut leaves the old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(to_json(cal), f, indent=2)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _copy(src: Path, dst: Path) -> None:
    tmp = dst.with_name(dst.name + ".tmp")
    tmp.write_bytes(src.read_bytes())
    os.replace(tmp, dst)


def previous_path(path: Path) -> Path:
    return path.with_name(path.stem + ".previous" + path.suffix)


class CalibrationStore:
    """The calibration in force, and a proposed one that replaces it only when accepted.

    `load()` falls back to the previous file when the current one is damaged, and says so in
    `message`; the damaged file is left untouched for inspection until the next accept, which
    keeps it as `<name>.damaged.json`.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.current: Calibration | None = None
        self.pending: Calibration | None = None
        self.message: str | None = None

    def load(self) -> Calibration:
        try:
            self.current = load(self.path)
            self.message = None
        except CalibrationError as exc:
            prev = previous_path(self.path)
            if not self.path.exists() or not prev.exists():
                raise
            self.current = load(prev)  # raises too if that one is damaged as well
            self.message = f"{exc}; using the previous calibration {prev.name}"
        return self.current

    def propose(self, cal: Calibration) -> None:
        self.pending = cal

    def discard(self) -> None:
        self.pending = None

    def accept(self) -> Calibration:
        if self.pending is None:
            raise CalibrationError("no new calibration to accept")
        if self.path.exists():
            # copy, not move: at every moment a valid current file exists (old, then new)
            try:
                old = load(self.path)
            except CalibrationError:
                _copy(self.path, self.path.with_name(self.path.stem + ".damaged.json"))
            else:
                save(previous_path(self.path), old)
        save(self.path, self.pending)
        self.current, self.pending, self.message = self.pending, None, None
        return self.current
