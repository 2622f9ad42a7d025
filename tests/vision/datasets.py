"""The real-photo development sets under tests/data, read into one form.

Each photo comes with its pieces (the objects to read, with their true colour, box and outline),
the group it belongs to (the cube, light or series it was taken with) and its split:

- `calib`: the photos holding the set's calibration pieces (`calibration_pieces`); never scored;
- `dev`: may be used to choose constants;
- `test`: only measured, never used for tuning.

One calibration serves a whole set: one piece per colour in each group, the first suitable piece
in file order. The split of each set is fixed in `tests/data/<set>/split.json`; `fixed_split` is
the rule that wrote it (described in tests/data/README.md), so a changed truth file cannot
silently move photos between splits. Only files under tests/data are read.

    python -m tests.vision.datasets      # rewrites every split.json from the rule
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = ("real-scenes", "mnm-photos", "uno-cards", "colorseg-iitp")
SPLITS = ("calib", "dev", "test")

# A calibration piece must be a fair sample: big enough to measure, not a sliver, wholly in the
# photo, and (where its outline is known) filling at least half of its box.
MIN_SIDE = 16
MAX_ASPECT = 3.0
MIN_FILL = 0.5
# Outside real-scenes, the 2nd, 5th, 8th... remaining photo of each group (and of each colour,
# where a photo shows one piece) is dev: about a third, and every colour in both dev and test.
DEV_EVERY, DEV_FIRST = 3, 2

Box = tuple[int, int, int, int]
Outline = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Piece:
    """One object to read, with its truth."""

    colour: str
    box: Box  # x, y, w, h in image pixels
    outline: Outline  # polygon (a region in parts: its largest); the box's corners if no more known


@dataclass(frozen=True)
class Photo:
    """One photo of a set, its truth and its split."""

    set: str  # one of SETS
    name: str  # path relative to the set's folder
    path: Path
    pieces: tuple[Piece, ...]
    group: str  # the cube, light or series the photo belongs to
    split: str  # one of SPLITS

    def image(self) -> np.ndarray:
        """The photo as BGR uint8, read from disk on each call."""
        img = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"cannot read {self.path}")
        return img


def photos(set_name: str) -> list[Photo]:
    """Every photo of a set with its split, in file order."""
    return list(_photos(set_name))


def calibration_pieces(set_name: str) -> list[tuple[Photo, int]]:
    """(photo, piece index) of each calibration piece, as fixed in the set's split.json."""
    by_name = {p.name: p for p in _photos(set_name)}
    out = []
    for c in _split_file(set_name)["calibration"]:
        photo = by_name[c["photo"]]
        if photo.pieces[c["piece"]].colour != c["colour"]:
            raise ValueError(f"{set_name}: split.json names {c} but the truth has changed")
        out.append((photo, c["piece"]))
    return out


def crop_for(
    photo: Photo, piece: Piece, image: np.ndarray | None = None
) -> tuple[np.ndarray, Piece]:
    """The piece plus twice its size on every side (cut at the photo's edges), and its truth in
    the crop's pixels. Pass `image` to save reading the photo again."""
    img = photo.image() if image is None else image
    h, w = img.shape[:2]
    x, y, bw, bh = piece.box
    x0, y0 = max(x - 2 * bw, 0), max(y - 2 * bh, 0)
    x1, y1 = min(x + 3 * bw, w), min(y + 3 * bh, h)
    shifted = Piece(
        piece.colour,
        (x - x0, y - y0, bw, bh),
        tuple((px - x0, py - y0) for px, py in piece.outline),
    )
    return img[y0:y1, x0:x1].copy(), shifted


def colours(set_name: str) -> list[str]:
    """The set's colours, sorted."""
    return sorted({pc.colour for p in _photos(set_name) for pc in p.pieces})


# ----------------------------------------------------------------------------- reading the truth


class _Entry(NamedTuple):
    name: str
    pieces: tuple[Piece, ...]
    group: str
    role: str  # real-scenes' own role field ("calibration" or "test"), else ""
    size: tuple[int, int] | None  # width, height when the truth gives it


def _box_piece(colour: str, box) -> Piece:
    x, y, w, h = (int(v) for v in box)
    return Piece(colour, (x, y, w, h), ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _real_scenes() -> list[_Entry]:
    """labels.json; the group is the photo session (one cube, one background)."""
    doc = json.loads((DATA / "real-scenes" / "labels.json").read_text(encoding="utf-8"))
    return [
        _Entry(
            name,
            tuple(_box_piece(o["label"], o["box"]) for o in info["objects"]),
            info["lighting"].split(" (")[0],  # "session A" or "session B"
            info["role"],
            tuple(info["size"]),
        )
        for name, info in doc["images"].items()
    ]


def _mnm_photos() -> list[_Entry]:
    """The labelled candy photos of boxes.csv (the two unlabelled bowls are left out)."""
    with open(DATA / "mnm-photos" / "boxes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [
        _Entry(r["file"], (_box_piece(r["label"], [r[k] for k in "xywh"]),), "one light", "", None)
        for r in rows
    ]


def _pieces_json(set_name: str) -> list[_Entry]:
    """uno-cards and colorseg-iitp: pieces.json, one outline per part (the largest first)."""
    doc = json.loads((DATA / set_name / "pieces.json").read_text(encoding="utf-8"))
    out = []
    for name, info in doc["photos"].items():
        pieces = tuple(
            Piece(
                p["colour"],
                tuple(int(v) for v in p["box"]),
                tuple((float(x), float(y)) for x, y in p["outlines"][0]),
            )
            for p in info["pieces"]
        )
        out.append(_Entry(name, pieces, info["group"], "", tuple(info["size"])))
    return out


_READERS = {
    "real-scenes": _real_scenes,
    "mnm-photos": _mnm_photos,
    "uno-cards": lambda: _pieces_json("uno-cards"),
    "colorseg-iitp": lambda: _pieces_json("colorseg-iitp"),
}


def _truth(set_name: str) -> list[_Entry]:
    if set_name not in _READERS:
        raise ValueError(f"unknown set {set_name!r}; the sets are {', '.join(SETS)}")
    return _READERS[set_name]()


def _split_file(set_name: str) -> dict:
    return json.loads((DATA / set_name / "split.json").read_text(encoding="utf-8"))


@cache
def _photos(set_name: str) -> tuple[Photo, ...]:
    truth = _truth(set_name)
    splits = _split_file(set_name)["photos"]
    root = DATA / set_name
    missing = [e.name for e in truth if e.name not in splits]
    if missing:
        raise ValueError(f"{set_name}: split.json has no split for {missing[:3]}")
    return tuple(
        Photo(set_name, e.name, root / e.name, e.pieces, e.group, splits[e.name]) for e in truth
    )


# ----------------------------------------------------------------------------- the split rule


def suitable(piece: Piece, size: tuple[int, int]) -> bool:
    """Whether a piece may calibrate: see MIN_SIDE, MAX_ASPECT, MIN_FILL."""
    x, y, w, h = piece.box
    if min(w, h) < MIN_SIDE or max(w, h) > MAX_ASPECT * min(w, h):
        return False
    if x <= 0 or y <= 0 or x + w >= size[0] or y + h >= size[1]:
        return False
    return _area(piece.outline) >= MIN_FILL * w * h


def _area(outline: Outline) -> float:
    pts = np.asarray(outline, dtype=np.float64)
    x, y = pts[:, 0], pts[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def fixed_split(set_name: str) -> dict:
    """The split the rule gives, in split.json's form.

    1. Calibration: for each group and each colour seen in it, the first suitable piece in file
       order (photos sorted by name, pieces in the truth file's order); in real-scenes only its
       `calibration`-role photos are searched. The photos holding them are `calib`.
    2. real-scenes: the other `calibration`-role photos are `dev`, the `test`-role photos `test`.
       Other sets: within each group (and each colour, where a photo shows one piece), in name
       order, the 2nd, 5th, 8th... remaining photo is `dev`, the rest `test`.
    """
    truth = sorted(_truth(set_name), key=lambda e: e.name)
    calibration, chosen = [], set()
    for e in truth:
        if set_name == "real-scenes" and e.role != "calibration":
            continue
        size = e.size or _image_size(DATA / set_name / e.name)
        for i, piece in enumerate(e.pieces):
            if (e.group, piece.colour) not in chosen and suitable(piece, size):
                chosen.add((e.group, piece.colour))
                calibration.append(
                    {"photo": e.name, "piece": i, "colour": piece.colour, "group": e.group}
                )
    calib_photos = {c["photo"] for c in calibration}
    split, seen = {}, {}
    for e in truth:
        if e.name in calib_photos:
            split[e.name] = "calib"
        elif set_name == "real-scenes":
            split[e.name] = "dev" if e.role == "calibration" else "test"
        else:
            key = (e.group, e.pieces[0].colour if len(e.pieces) == 1 else "")
            seen[key] = seen.get(key, 0) + 1
            split[e.name] = "dev" if (seen[key] - DEV_FIRST) % DEV_EVERY == 0 else "test"
    calibration.sort(key=lambda c: (c["group"], c["colour"]))
    return {
        "set": set_name,
        "rule": "tests/data/README.md",
        "calibration": calibration,
        "photos": split,
    }


def _image_size(path: Path) -> tuple[int, int]:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"cannot read {path}")
    return img.shape[1], img.shape[0]


def split_text(split: dict) -> str:
    """split.json's text: one calibration piece and one photo a line."""
    c = json.dumps
    cal = ",\n".join(f"  {c(x)}" for x in split["calibration"])
    ph = ",\n".join(f"  {c(k)}: {c(v)}" for k, v in split["photos"].items())
    return (
        f'{{\n "set": {c(split["set"])},\n "rule": {c(split["rule"])},\n'
        f' "calibration": [\n{cal}\n ],\n "photos": {{\n{ph}\n }}\n}}\n'
    )


if __name__ == "__main__":
    for s in SETS:
        (DATA / s / "split.json").write_text(split_text(fixed_split(s)), encoding="utf-8")
        print(f"wrote {DATA / s / 'split.json'}")
