"""Building calibrations: colours learnt from labelled photos, from frames of the real table and
from the rendered table. Every sample is measured exactly as the readers measure.

`vision.calibration` holds the data and its files; this module builds them, so the readers
(which need a calibration) and the builders (which need the readers' measuring) form no circle.
"""

from __future__ import annotations

import csv
import functools
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.balls import detect_balls, order_key
from vision.calibration import Calibration
from vision.cards import detect_cards
from vision.classifier import learn
from vision.colour import weighted
from vision.detect import Found, find_objects, load_image, measure_box
from vision.errors import CalibrationError
from vision.render import (
    BALL_COLOURS,
    CARD_COLOURS,
    LIGHTS,
    card_layout,
    render_cards,
    render_tray,
    scene_calibration,
)

Box = tuple[int, int, int, int]
SAME_COLOUR = 20.0  # weighted-Lab distance within which objects of one photo share its label


def read_labels(csv_path: str | Path, images: str | Path) -> list[tuple[Path, str]]:
    """(image path, label) rows of a `file,label` CSV; unlabelled rows are skipped."""
    csv_path, images = Path(csv_path), Path(images)
    try:
        with open(csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as exc:
        raise CalibrationError(f"cannot read labels {csv_path}: {exc.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CalibrationError(f"labels {csv_path} is not a UTF-8 CSV file: {exc}") from None
    if not rows or "file" not in rows[0] or "label" not in rows[0]:
        raise CalibrationError(f"labels {csv_path} must have a header 'file,label'")
    out = []
    for row in rows:
        label = (row.get("label") or "").strip().lower()
        if not label:
            continue
        p = images / row["file"].strip()
        if not p.exists():
            raise CalibrationError(f"labels {csv_path} lists {row['file']}, not found in {images}")
        out.append((p, label))
    if not out:
        raise CalibrationError(f"labels {csv_path} has no labelled rows")
    return out


def read_boxes(
    json_path: str | Path, images: str | Path
) -> list[tuple[Path, list[tuple[str, Box]]]]:
    """(image path, [(label, box)]) from a real-scenes `labels.json` (boxes `[x, y, w, h]`)."""
    json_path, images = Path(json_path), Path(images)
    try:
        doc = json.loads(Path(json_path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CalibrationError(f"cannot read labels {json_path}: {exc}") from None
    entries = doc.get("images") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        raise CalibrationError(f"labels {json_path} has no 'images' object")
    out = []
    for name, info in sorted(entries.items()):
        try:
            objects = [(str(o["label"]).lower(), _box(o["box"])) for o in info["objects"]]
        except (KeyError, TypeError, ValueError):
            raise CalibrationError(f"labels {json_path}: {name} has a malformed object") from None
        p = images / name
        if not p.exists():
            raise CalibrationError(f"labels {json_path} lists {name}, not found in {images}")
        if objects:
            out.append((p, objects))
    if not out:
        raise CalibrationError(f"labels {json_path} has no labelled objects")
    return out


def _box(value: Any) -> Box:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or value[2] <= 0
        or value[3] <= 0
    ):
        raise ValueError(value)
    return tuple(value)


def labelled_subset(rows: Sequence[tuple[Path, str]], per_class: int) -> list[tuple[Path, str]]:
    """The first `per_class` rows of each label (in the given order)."""
    seen: dict[str, int] = {}
    out = []
    for p, label in rows:
        if seen.get(label, 0) < per_class:
            out.append((p, label))
            seen[label] = seen.get(label, 0) + 1
    return out


def _frame(item: Any) -> np.ndarray:
    return load_image(item) if isinstance(item, str | Path) else item


def calibrate_images(
    labelled: Iterable[tuple[Any, str]], base: Calibration | None = None
) -> Calibration:
    """A calibration learnt from (image or path, label) pairs, every object of an image that
    shares its main colour taking the label; `base` supplies the regions and camera settings
    to keep."""
    samples = []
    for item, label in labelled:
        objects = find_objects(_frame(item), base.white_roi if base else None)
        if not objects:
            raise CalibrationError(
                f"no object found in {item if isinstance(item, str | Path) else 'image'}"
            )
        samples += [(label, o.lab) for o in _alike(objects)]
    return _with(base, learn(samples))


def _alike(objects: Sequence[Found]) -> list[Found]:
    """The objects of one labelled photo that share its colour: those near the medoid colour
    (weighted by area), so a stray object in a corner does not teach a wrong colour."""
    labs = weighted(np.array([o.lab for o in objects], np.float64))
    areas = np.array([o.radius**2 for o in objects])
    dist = np.linalg.norm(labs[:, None, :] - labs[None], axis=2)
    medoid = int(np.argmin(dist @ areas))
    return [o for o, d in zip(objects, dist[medoid], strict=True) if d <= SAME_COLOUR]


def calibrate_boxes(
    labelled: Iterable[tuple[Any, Sequence[tuple[str, Box]]]], base: Calibration | None = None
) -> Calibration:
    """A calibration learnt from photos with boxed, labelled objects (image or path, [(label,
    box)]): each object is measured as found by the still-photo reader, or inside its box
    when the reader found none there."""
    samples = []
    for item, objects in labelled:
        frame = _frame(item)
        white_roi = base.white_roi if base else None
        found = find_objects(frame, white_roi)
        for label, box in objects:
            samples.append((label, measure_box(frame, box, found, white_roi)))
    if not samples:
        raise CalibrationError("no labelled objects to learn colours from")
    return _with(base, learn(samples))


def _with(base: Calibration | None, protos) -> Calibration:
    return Calibration(prototypes=protos) if base is None else replace(base, prototypes=protos)


def tray_samples(
    cal: Calibration, empty: np.ndarray, frame: np.ndarray, colours: Sequence[str]
) -> list[tuple[str, tuple[float, float, float]]]:
    """(colour, Lab) samples from a frame of the tray holding `colours` in slot order (slot 0
    nearest `first_end`), measured exactly as the ball reader measures."""
    found = detect_balls(frame, empty, cal)
    if len(found) != len(colours):
        raise CalibrationError(f"expected {len(colours)} balls in the tray, found {len(found)}")
    found.sort(key=lambda f: order_key(cal, f[0].x, f[0].y))
    return [(c, tuple(float(v) for v in lab)) for c, (_, lab) in zip(colours, found, strict=True)]


def card_samples(
    cal: Calibration, empty: np.ndarray, frame: np.ndarray, cards: Mapping[str, str]
) -> list[tuple[str, tuple[float, float, float]]]:
    """(colour, Lab) samples from a frame with one card in each listed zone (zone -> colour)."""
    found = detect_cards(frame, empty, cal, zones=list(cards))
    out = []
    for zone, colour in cards.items():
        here = [lab for z, _, lab in found if z == zone]
        if len(here) != 1:
            raise CalibrationError(f"expected one card in zone {zone!r}, found {len(here)}")
        out.append((colour, tuple(float(v) for v in here[0])))
    return out


def calibrate_table(
    base: Calibration,
    balls: Iterable[tuple[str, Sequence[float]]] = (),
    cards: Iterable[tuple[str, Sequence[float]]] = (),
) -> Calibration:
    """`base` (regions, camera) with prototypes learnt from ball and card samples; balls and
    cards are learnt apart, since a green ball and a green card are different materials."""
    protos = learn(balls) + learn(cards)
    if not protos:
        raise CalibrationError("no samples to learn colours from")
    return replace(base, prototypes=protos)


def rendered_samples(seed: int = 0, size=(640, 480)) -> list[tuple[str, str, tuple]]:
    """(kind, colour, Lab) samples, kind "ball" or "card", of every colour under every light,
    measured the way the readers measure. Seeds are far from the ones tests use."""
    cal = scene_calibration(size)
    out = []
    for li, light in enumerate(LIGHTS):
        for rep in range(2):
            s = 1_000_000 + seed * 1000 + li * 10 + rep
            order = [str(c) for c in np.random.default_rng(s).permutation(BALL_COLOURS)]
            empty = render_tray([], light, s, size)
            frame = render_tray(order, light, s, size, frame=1)
            out += [("ball", c, lab) for c, lab in tray_samples(cal, empty, frame, order)]
            colours = [str(c) for c in np.random.default_rng(s + 1).permutation(CARD_COLOURS)]
            zones = {"seat1": colours[:3], "seat2": colours[3:6], "seat3": colours[6:9]}
            placed, _ = card_layout(zones, s, size)
            cframe = render_cards(zones, light, s, size, frame=2)
            for zone, blob, lab in detect_cards(cframe, empty, cal):
                near = min(
                    (p for p in placed if p[0] == zone),
                    key=lambda p: math.hypot(blob.x - p[2][0], blob.y - p[2][1]),
                )
                out.append(("card", near[1], tuple(float(v) for v in lab)))
    return out


@functools.lru_cache(maxsize=4)
def rendered_calibration(seed: int = 0, size: tuple[int, int] = (640, 480)) -> Calibration:
    """A calibration learnt from rendered balls and cards under every light, for frames of
    `size` from vision.render (simulation and tests). Cached."""
    size = (int(size[0]), int(size[1]))
    samples = rendered_samples(seed, size)
    return calibrate_table(
        scene_calibration(size),
        balls=[(c, lab) for k, c, lab in samples if k == "ball"],
        cards=[(c, lab) for k, c, lab in samples if k == "card"],
    )
