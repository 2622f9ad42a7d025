"""Building calibrations: colours learnt from labelled photos, from frames of the real table and
from the rendered table. Every sample is measured exactly as the readers measure.

`vision.calibration` holds the data and its files; this module builds them, so the readers
(which need a calibration) and the builders (which need the readers' measuring) form no circle.
"""

from __future__ import annotations

import csv
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.ball_tray import detect_balls, tray_for
from vision.balls import BALL_SET
from vision.calibration import Calibration
from vision.card_zones import faces
from vision.classify import learn
from vision.colour import weighted
from vision.detect import Found, find_objects, load_image, measure_box
from vision.errors import CalibrationError
from vision.floor_texture import measures as floor_measures
from vision.registration import encode_reference
from vision.render.tray import BALL_COLOURS, CARD_SETS, render_cards, render_tray
from vision.render.tray_geometry import scene_calibration

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
) -> list[tuple[str, tuple[float, float, float], float]]:
    """(colour, Lab, spread) samples from a frame of the tray holding `colours` in slot order
    (slot 0 nearest `first_end`), measured exactly as the ball reader measures."""
    found = detect_balls(frame, empty, cal)
    if len(found) != len(colours):
        raise CalibrationError(f"expected {len(colours)} balls in the tray, found {len(found)}")
    return [
        (c, tuple(float(v) for v in lab), spread)
        for c, (_, lab, spread) in zip(colours, found, strict=True)
    ]


def tray_rests(cal: Calibration, empty: np.ndarray, frame: np.ndarray) -> list[float]:
    """How far from the tray's end each ball of a calibration frame rests, slot 0 first."""
    tray = tray_for(cal, empty)
    return [tray.order_key(b.x, b.y) for b, _, _ in detect_balls(frame, empty, cal)]


def pitch_of(frames: Sequence[Sequence[float]]) -> float:
    """The distance between resting balls, from where the balls of calibration frames rest
    (`tray_rests` of each): the spacing of neighbours where a frame shows several, else twice
    the first ball's distance from the tray's end (balls touching from the end, or cups as
    far apart)."""
    steps = [b - a for rests in frames for a, b in zip(rests, rests[1:], strict=False)]
    firsts = [rests[0] for rests in frames if rests]
    return round(float(np.median(steps)) if steps else 2 * float(np.median(firsts)), 1)


def card_samples(
    cal: Calibration,
    empty: np.ndarray,
    frame: np.ndarray,
    cards: Mapping[str, str | Sequence[str]],
) -> list[tuple[str, tuple[float, float, float], float]]:
    """(colour, Lab, spread) samples from a frame with the listed cards in each zone (zone ->
    colour, or colours left to right), measured exactly as the card reader measures."""
    found = faces(cal, empty, frame, zones=list(cards))
    out = []
    for zone, colours in cards.items():
        colours = [colours] if isinstance(colours, str) else list(colours)
        here = sorted(
            ((corners.mean(axis=0)[0], face) for z, corners, face in found if z == zone),
            key=lambda cf: cf[0],
        )
        if len(here) != len(colours):
            seen = f"{len(here)} cards, not {len(colours)}" if here else "no card"
            raise CalibrationError(f"{zone}: {seen}")
        out += [
            (c, tuple(float(v) for v in face.lab), face.spread)
            for c, (_, face) in zip(colours, here, strict=True)
        ]
    return out


def calibrate_table(
    base: Calibration,
    balls: Iterable[tuple] = (),
    cards: Iterable[tuple] = (),
    card_set: str = "",
) -> Calibration:
    """`base` (regions, camera, the reference frame) with the ball colours and one set of
    card colours learnt anew from their samples, the other sets kept. Each set is its own:
    a green ball and a green card are different materials, and one game's blue card is not
    another's."""
    balls, cards = list(balls), list(cards)
    if not balls and not cards:
        raise CalibrationError("no samples to learn colours from")
    renewed = ({BALL_SET} if balls else set()) | ({card_set} if cards else set())
    kept = tuple(p for p in base.prototypes if p.set not in renewed)
    new = (learn(balls, BALL_SET) if balls else ()) + (learn(cards, card_set) if cards else ())
    return replace(base, prototypes=kept + new)


@functools.lru_cache(maxsize=4)
def rendered_calibration(seed: int = 0, size: tuple[int, int] = (640, 480)) -> Calibration:
    """The rendered table (simulation and tests) calibrated as a person calibrates a real
    one: on the empty table in daylight, then one piece of each colour laid once. Cached."""
    size = (int(size[0]), int(size[1]))
    s = 1_000_000 + seed
    empty = render_tray([], "daylight", s, size)
    cal = replace(scene_calibration(size), reference=encode_reference(empty))
    order = list(BALL_COLOURS)
    balls = tray_samples(cal, empty, render_tray(order, "daylight", s, size, frame=1), order)
    cal = calibrate_table(cal, balls=balls)
    for card_set, colours in CARD_SETS.items():
        cards = []
        for k, colour in enumerate(colours):  # one card at a time, as on the set-up screen
            frame = render_cards({"seat1": [colour]}, "daylight", s, size, frame=2 + k)
            cards += card_samples(cal, empty, frame, {"seat1": colour})
        cal = calibrate_table(cal, cards=cards, card_set=card_set)
    return cal


def learn_floors(frame: np.ndarray, background: np.ndarray, cal, floors: Iterable[str], zone: str):
    """floor -> measures from one card of each floor laid in `zone` left to right in the
    order of `floors` (`background`: the zone without them), for `Calibration.floors`."""
    floors = tuple(floors)
    found = sorted(faces(cal, background, frame, [zone]), key=lambda f: f[1].mean(axis=0)[0])
    if len(found) != len(floors):
        raise CalibrationError(
            f"lay one card of each floor ({', '.join(floors)}) in {zone}: {len(found)} card(s) seen"
        )
    out = {}
    for floor, (_, corners, _) in zip(floors, found, strict=True):
        m = floor_measures(frame, corners.reshape(-1, 1, 2).astype(np.int32))
        if m is None:
            raise CalibrationError(f"the {floor} card in {zone} is too small to read its floor")
        out[floor] = tuple(round(float(v), 5) for v in m)
    return out
