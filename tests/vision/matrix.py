"""Every camera reader through the CLI on every development set, beside a simple baseline on
the same objects: the figures of `benchmarks/vision_matrix.py` and the suite's quick check.

Renders (`tests/data/table-renders`, `tests/data/own-renders`: one layout, see their README)
are calibrated as a person calibrates a table, from `calib/` only (the regions a person would
drag, taken from the calibration frames' truth; one piece of each colour), then every test
set-up is read with its own empty frame and nothing else. Real photos
(`tests.vision.datasets`) are calibrated from one crop of one piece of each colour (two where a
set holds two series), then read whole and as crops.

The baseline, given the true outline of each object: the mean hue-saturation chroma (HSV's
S cos H, S sin H) of the inner half of the object, on renders balanced by a neutral beside it
(the tray's floor, the card's paper, the tile; the white patch where there is none), on real
photos not balanced at all; nearest prototype learnt from the same calibration objects; every
answer accepted.

Set-ups s00-s11 of a render set are its development split, the rest its test split; the
real-photo sets carry their split in `split.json`.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.cli import main as companion_main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
RENDER_SETS = ("table-renders", "own-renders")
PHOTO_SETS = ("real-scenes", "mnm-photos", "uno-cards", "colorseg-iitp")
LIGHTS = ("D65", "A", "FL2", "LED-B3", "D50", "MIXED")
DEV_SETUPS = 12  # set-ups s00-s11: the development split of a render set
VISIBLE = 0.95  # pieces at least this visible are counted
ASK = 0.8  # the app's default ask threshold
CM = ("blue", "green", "orange", "pink", "purple")
LASER = ("red", "yellow", "green", "cyan", "blue", "magenta")


@dataclass
class Score:
    objects: int = 0
    found: int = 0
    right: int = 0  # found, right and not asked
    asked: int = 0
    silent: int = 0  # wrong and not asked
    ghosts: int = 0  # reported sure where there is no piece
    top: int = 0  # top answer right, asked or not
    base_right: int = 0

    def add(self, other: Score) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def piece(
        self, truth: str, got: str | None, confidence: float, base: str | None, top: str = ""
    ) -> None:
        """One piece: its true colour, the reader's answer (None: not found) and its top
        candidate (when the answer is "unknown": the likeliest colour still), the baseline's."""
        self.objects += 1
        self.base_right += base == truth
        if got is None:
            return
        self.found += 1
        self.top += (top or got) == truth
        if confidence < ASK:
            self.asked += 1
        elif got == truth:
            self.right += 1
        else:
            self.silent += 1


def cli(*argv) -> list[dict]:
    """`companion ARGV...` in this process: its JSON output, line by line or whole."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = companion_main([str(a) for a in argv])
    if code != 0:
        raise RuntimeError(f"companion {' '.join(map(str, argv))}: {err.getvalue().strip()}")
    text = out.getvalue().strip()
    try:
        return [json.loads(text)]
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def split_of(setup: str) -> str:
    return "dev" if int(setup[1:]) < DEV_SETUPS else "test"


def rect(points: Sequence[Sequence[float]]) -> str:
    p = np.asarray(points, np.float64)
    x0, y0 = np.floor(p.min(axis=0)).astype(int)
    x1, y1 = np.ceil(p.max(axis=0)).astype(int)
    return f"{x0},{y0},{x1 - x0},{y1 - y0}"


# The baseline ---------------------------------------------------------------------------


def linear(bgr: np.ndarray) -> np.ndarray:
    c = bgr.astype(np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def hs_chroma(pixels: np.ndarray, white: np.ndarray | None = None) -> np.ndarray:
    """Mean (S cos H, S sin H) of uint8 BGR pixels, balanced by a linear `white` if given."""
    px = pixels.reshape(-1, 3)
    if white is not None:
        lin = np.clip(linear(px) * (0.9 / np.asarray(white)), 0, 1)
        enc = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)
        px = (enc * 255).round().astype(np.uint8)
    hsv = cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(float)
    h, s = hsv[:, 0] * math.pi / 90, hsv[:, 1] / 255
    return np.array([(s * np.cos(h)).mean(), (s * np.sin(h)).mean()])


def neutral(pixels: np.ndarray) -> np.ndarray | None:
    px = linear(pixels.reshape(-1, 3))
    return np.median(px, axis=0) + 1e-4 if len(px) >= 10 else None


class Baseline:
    """Nearest prototype in the hue-saturation plane."""

    def __init__(self) -> None:
        self.protos: list[tuple[str, np.ndarray]] = []

    def learn(self, colour: str, feature: np.ndarray) -> None:
        self.protos.append((colour, feature))

    def read(self, feature: np.ndarray, allowed: Iterable[str] | None = None) -> str | None:
        allowed = None if allowed is None else set(allowed)
        near = [(np.linalg.norm(f - feature), c) for c, f in self.protos]
        near = [(d, c) for d, c in near if allowed is None or c in allowed]
        return min(near)[1] if near else None


def mask_of(shape, piece: dict, share: float = 0.5) -> np.ndarray:
    """The inner `share` of a piece's area (a disc or a polygon) as a boolean mask."""
    m = np.zeros(shape[:2], np.uint8)
    if "r" in piece:
        (x, y), r = piece["c"], piece["r"] * math.sqrt(share)
        cv2.circle(m, (round(x), round(y)), max(1, round(r)), 1, -1)
    else:
        p = np.asarray(piece["pts"], np.float64)
        c = p.mean(axis=0)
        cv2.fillPoly(m, [np.round(c + (p - c) * math.sqrt(share)).astype(np.int32)], 1)
    return m > 0


def ring_of(shape, piece: dict, inner: float, outer: float) -> np.ndarray:
    """A ring round a piece, from `inner` to `outer` times its size."""
    return mask_of(shape, piece, outer**2) & ~mask_of(shape, piece, inner**2)


def patch_white(frame: np.ndarray, truth: dict) -> np.ndarray:
    return neutral(frame[mask_of(frame.shape, {"pts": truth["white_patch"]}, 0.5)])


# Render sets ------------------------------------------------------------------------------


class RenderSet:
    def __init__(self, name: str) -> None:
        self.name = name
        self.root = DATA / name
        self.truth = json.loads((self.root / "truth.json").read_text())

    @property
    def present(self) -> bool:
        return self.root.is_dir()

    def image(self, scene: str, name: str) -> np.ndarray:
        return cv2.imread(str(self.root / scene / name))

    def path(self, scene: str, name: str) -> Path:
        return self.root / scene / name

    def setups(self, scene: str, split: str, limit: int | None = None) -> list[str]:
        names = sorted({t["setup"] for k, t in self.truth[scene].items() if k.startswith("test/")})
        chosen = [s for s in names if split in ("all", split_of(s))]
        if limit is not None:  # a few of every light: the suite's quick check
            by_light: dict[str, list[str]] = {}
            for s in chosen:
                by_light.setdefault(self.light(scene, s), []).append(s)
            chosen = sorted(s for group in by_light.values() for s in group[:limit])
        return chosen

    def light(self, scene: str, setup: str) -> str:
        return next(t["light"] for k, t in self.truth[scene].items() if t["setup"] == setup)

    def frames(self, scene: str, setup: str) -> list[str]:
        return sorted(
            k for k, t in self.truth[scene].items() if t["setup"] == setup and "empty" not in k
        )


def calibrate_balls(rs: RenderSet, out: Path) -> Path:
    truth = rs.truth["balls_row"]
    empty = truth["calib/empty.jpg"]
    r = empty["radius"]
    cal = out / f"{rs.name}-balls.json"
    cli(
        "vision", "regions", "--calibration", cal, "--patch", rect(empty["white_patch"]),
        "--tray", rect(empty["tray"]), "--first-end", empty["first_end"],
        "--ball-radius", f"{int(0.6 * r)},{int(math.ceil(1.5 * r))}", "--frame-size", "640x480",
    )  # fmt: skip
    args = ["--empty", rs.path("balls_row", "calib/empty.jpg")]
    for name, t in truth.items():
        if name.startswith("calib/") and t.get("colours"):
            args += ["--balls", f"{rs.path('balls_row', name)}={t['colours'][0]}"]
    cli("vision", "calibrate-table", "--calibration", cal, *args)
    return cal


def _ball_baseline(rs: RenderSet) -> Baseline:
    base = Baseline()
    for name, t in rs.truth["balls_row"].items():
        if name.startswith("calib/") and t.get("objects"):
            frame = rs.image("balls_row", name)
            for piece in t["objects"]:
                base.learn(piece["colour"], _ball_feature(frame, t, piece))
    return base


def _ball_feature(frame, truth, piece) -> np.ndarray:
    # the tray's floor beside the ball, not under another ball
    floor = ring_of(frame.shape, piece, 1.3, 3.5) & mask_of(frame.shape, {"pts": truth["tray"]}, 1)
    for other in truth["objects"]:
        floor &= ~mask_of(frame.shape, other, 1.7)
    white = neutral(frame[floor]) if floor.sum() >= 20 else None
    white = white if white is not None else patch_white(frame, truth)
    return hs_chroma(frame[mask_of(frame.shape, piece)], white)


def score_balls(rs: RenderSet, cal: Path, setups: Iterable[str]) -> dict[str, Score]:
    """Per light: the balls of each set-up's last frame, read over the round's frames."""
    truth = rs.truth["balls_row"]
    base = _ball_baseline(rs)
    out: dict[str, Score] = {}
    for setup in setups:
        frames = rs.frames("balls_row", setup)
        last = truth[frames[-1]]
        lines = cli(
            "vision", "read", "balls", "--calibration", cal,
            "--empty", rs.path("balls_row", f"test/{setup}_empty.jpg"),
            *[rs.path("balls_row", f) for f in frames],
        )  # fmt: skip
        read = {b["slot"]: b for b in lines[-1]["balls"]}
        score = out.setdefault(last["light"], Score())
        image = rs.image("balls_row", frames[-1])
        for slot, colour in enumerate(last["colours"]):
            piece = last["objects"][slot] if slot < len(last["objects"]) else None
            if piece is None or piece["visible"] < VISIBLE:
                continue
            got = read.get(slot)
            baseline = base.read(_ball_feature(image, last, piece))
            top = got and (got["candidates"] or [got["colour"]])[0]
            score.piece(
                colour, got and got["colour"], got["confidence"] if got else 0, baseline, top
            )
        score.ghosts += sum(
            1 for s, b in read.items() if s >= len(last["colours"]) and not b["ask"]
        )
    return out


def score_single_balls(rs: RenderSet, cal: Path, setups: Iterable[str]) -> dict[str, Score]:
    """The first ball of each round under a light other than the calibration's daylight
    (A, FL2, LED, D50): one ball, the case that shows white balance alone."""
    truth = rs.truth["balls_row"]
    base = _ball_baseline(rs)
    out: dict[str, Score] = {}
    for setup in setups:
        first = f"test/{setup}_f1.jpg"
        t = truth.get(first)
        if t is None or t["light"] in ("D65", "MIXED") or t["objects"][0]["visible"] < VISIBLE:
            continue
        (line,) = cli(
            "vision", "read", "balls", "--calibration", cal,
            "--empty", rs.path("balls_row", f"test/{setup}_empty.jpg"), rs.path("balls_row", first),
        )  # fmt: skip
        got = line["balls"][0] if line["balls"] else None
        baseline = base.read(_ball_feature(rs.image("balls_row", first), t, t["objects"][0]))
        score = out.setdefault(t["light"], Score())
        score.piece(
            t["colours"][0], got and got["colour"], got["confidence"] if got else 0, baseline
        )
    return out


def calibrate_cards(rs: RenderSet, out: Path) -> Path:
    truth = rs.truth["cards_zones"]
    empty = truth["calib/empty.jpg"]
    areas = [
        cv2.contourArea(np.float32(c["corners"]))
        for t in truth.values()
        if "calib_colour" in t
        for cards in t["cards"].values()
        for c in cards
    ]
    a = float(np.median(areas))
    cal = out / f"{rs.name}-cards.json"
    argv = ["vision", "regions", "--calibration", cal, "--patch", rect(empty["white_patch"])]
    for zone, corners in empty["zones"].items():
        argv += ["--zone", f"{zone}={rect(corners)}"]
    cli(*argv, "--card-area", f"{int(0.65 * a)},{int(1.5 * a)}", "--frame-size", "640x480")
    empty_path = rs.path("cards_zones", "calib/empty.jpg")
    sets = {"color-milk": [], "laser": []}
    for name, t in truth.items():
        if not name.startswith("calib/") or name.endswith(("empty.jpg", "floors.jpg")):
            continue
        colour = t["calib_colour"]
        (zone, cards), *_ = [(z, c) for z, c in t["cards"].items() if c]
        game = "laser" if cards[0]["game"] == "laser" else "color-milk"
        sets[game].append(f"{rs.path('cards_zones', name)}={zone}:{colour.removeprefix('laser_')}")
    for card_set, frames in sets.items():
        args = [a for f in frames for a in ("--cards", f)]
        cli("vision", "calibrate-table", "--calibration", cal, "--empty", empty_path,
            "--set", card_set, *args)  # fmt: skip
    floors = rs.path("cards_zones", "calib/laser_floors.jpg")
    if floors.exists():
        cli("vision", "calibrate-table", "--calibration", cal, "--empty", empty_path,
            "--floors", f"{floors}=centre")  # fmt: skip
    return cal


def _card_baseline(rs: RenderSet) -> dict[str, Baseline]:
    bases = {"color-milk": Baseline(), "laser": Baseline()}
    for name, t in rs.truth["cards_zones"].items():
        if "calib_colour" not in t or name.endswith("floors.jpg"):
            continue
        frame = rs.image("cards_zones", name)
        for cards in t["cards"].values():
            for c in cards:
                game = "laser" if c["game"] == "laser" else "color-milk"
                colour = c["colour"] or "back"
                bases[game].learn(colour, _card_feature(frame, t, c))
    return bases


def _card_feature(frame, truth, card) -> np.ndarray:
    ink = {"pts": card["ink"]}
    paper = mask_of(frame.shape, {"pts": card["corners"]}, 1) & ~mask_of(frame.shape, ink, 1.1)
    white = neutral(frame[paper]) if card["game"] != "laser" else None
    white = white if white is not None else patch_white(frame, truth)
    return hs_chroma(frame[mask_of(frame.shape, ink)], white)


def score_cards(rs: RenderSet, cal: Path, setups: Iterable[str]) -> dict[str, Score]:
    """Per light: every card at least 95 % visible, in every frame of each set-up."""
    truth = rs.truth["cards_zones"]
    bases = _card_baseline(rs)
    out: dict[str, Score] = {}
    for setup in setups:
        frames = rs.frames("cards_zones", setup)
        empty = rs.path("cards_zones", f"test/{setup}_empty.jpg")
        paths = [rs.path("cards_zones", f) for f in frames]
        read = {}
        for card_set in ("color-milk", "laser"):
            for line in cli("vision", "read", "cards", "--calibration", cal, "--set", card_set,
                            "--empty", empty, *paths):  # fmt: skip
                zones = line["zones"]
                keep = [z for z in zones if (z["zone"] == "centre") == (card_set == "laser")]
                read.setdefault(line["image"], []).extend(c for z in keep for c in z["cards"])
        for name, path in zip(frames, paths, strict=True):
            t = truth[name]
            score = out.setdefault(t["light"], Score())
            image = rs.image("cards_zones", name)
            cards = read.get(str(path), [])
            used = set()
            for laid in t["cards"].values():
                for card in laid:
                    poly = np.float32(card["corners"])
                    hit = next(
                        (
                            i
                            for i, c in enumerate(cards)
                            if c["corners"]
                            and cv2.pointPolygonTest(poly, tuple(np.mean(c["corners"], 0)), False)
                            >= 0
                        ),
                        None,
                    )
                    if card["visible"] < VISIBLE:  # not counted, but a real card all the same
                        used.add(hit)
                        continue
                    colour = card["colour"] if card["face"] == "up" else "back"
                    game = "laser" if card["game"] == "laser" else "color-milk"
                    baseline = bases[game].read(_card_feature(image, t, card))
                    if hit is None:
                        score.piece(colour, None, 0, baseline)
                        continue
                    used.add(hit)
                    c = cards[hit]
                    got = "back" if c.get("face_down") else (c["colour"] or "?")
                    top = got if got in ("back", "?") else (c.get("candidates") or [got])[0]
                    score.piece(colour, got, c["confidence"], baseline, top)
            score.ghosts += sum(
                1 for i, c in enumerate(cards) if i not in used and c["confidence"] >= ASK
            )
    return out


# Real photos ------------------------------------------------------------------------------


def calibrate_photos(set_name: str, out: Path) -> Path:
    """A calibration from one crop of each calibration piece (the piece and twice its size
    on every side), learnt through `companion vision calibrate`."""
    from tests.vision.datasets import calibration_pieces, crop_for

    folder = out / f"{set_name}-calib"
    folder.mkdir(parents=True, exist_ok=True)
    images = {}
    for k, (photo, index) in enumerate(calibration_pieces(set_name)):
        crop, piece = crop_for(photo, photo.pieces[index])
        name = f"piece{k:02d}.png"
        cv2.imwrite(str(folder / name), crop)
        images[name] = {"objects": [{"label": piece.colour, "box": list(piece.box)}]}
    (folder / "labels.json").write_text(json.dumps({"images": images}))
    cal = out / f"{set_name}.json"
    cli("vision", "calibrate", "--images", folder, "--labels", folder / "labels.json",
        "--out", cal)  # fmt: skip
    return cal


def _photo_baseline(set_name: str) -> Baseline:
    from tests.vision.datasets import calibration_pieces

    base = Baseline()
    for photo, index in calibration_pieces(set_name):
        piece = photo.pieces[index]
        base.learn(piece.colour, hs_chroma(_inner_half(photo.image(), piece.box)))
    return base


def _inner_half(image: np.ndarray, box) -> np.ndarray:
    x, y, w, h = box
    return image[y + h // 4 : y + h - h // 4, x + w // 4 : x + w - w // 4].reshape(-1, 3)


def score_photos(
    set_name: str, cal: Path, split: str, limit: int | None = None, crops: bool = True
) -> dict[str, Score]:
    """'whole' and 'crops': every piece of the split's photos (the first `limit`) read in
    the whole photo, and in a crop of it (the piece and twice its size on every side)."""
    from tests.vision.datasets import crop_for, photos

    base = _photo_baseline(set_name)
    colours = sorted({c for c, _ in base.protos})
    whole, cropped = Score(), Score()
    chosen = [p for p in photos(set_name) if p.split == split][:limit]
    with tempfile.TemporaryDirectory() as tmp:
        for photo in chosen:
            image = photo.image()
            (line,) = cli("vision", "classify", "--calibration", cal, photo.path)
            _match(whole, line["objects"], photo.pieces, image, base, colours)
            for k, piece in enumerate(photo.pieces if crops else ()):
                crop, shifted = crop_for(photo, piece)
                path = Path(tmp) / f"crop{k}.png"
                cv2.imwrite(str(path), crop)
                (line,) = cli("vision", "classify", "--calibration", cal, path)
                # the neighbours in the crop are pieces too: a reading of one is not this one
                dx, dy = piece.box[0] - shifted.box[0], piece.box[1] - shifted.box[1]
                others = [(x - dx, y - dy, w, h) for j, (x, y, w, h) in
                          enumerate(p.box for p in photo.pieces) if j != k]  # fmt: skip
                _match(cropped, line["objects"], [shifted], crop, base, colours, others)
    return {"whole": whole, "crops": cropped} if crops else {"whole": whole}


def _held(reading: dict, box) -> float:
    """The share of a reading's area (a disc of its radius round its centre) inside `box`."""
    x, y, w, h = box
    t = np.linspace(-1.0, 1.0, 21)
    gx, gy = np.meshgrid(t, t)
    disc = gx**2 + gy**2 <= 1.0
    px = reading["x"] + reading["radius"] * gx[disc]
    py = reading["y"] + reading["radius"] * gy[disc]
    return float(np.mean((px >= x) & (px <= x + w) & (py >= y) & (py <= y + h)))


def _match(score: Score, objects, pieces, image, base: Baseline, colours, others=()) -> None:
    """Each piece: the largest reading of it (found; smaller ones are its print: a card's
    symbol, a glint), or none. A reading is of one piece: of those whose box holds its centre,
    the one whose box holds most of its area, so a neighbour reaching into the corner of an
    overlapping box is read once, as itself. `others`: boxes of pieces not scored here (the
    neighbours in a crop) that still own their readings."""
    boxes = [piece.box for piece in pieces] + list(others)
    owner = {}
    for i, o in enumerate(objects):
        holding = [
            k
            for k, (x, y, w, h) in enumerate(boxes)
            if x <= o["x"] <= x + w and y <= o["y"] <= y + h
        ]
        if holding:
            owner[i] = max(holding, key=lambda k: _held(o, boxes[k]))
    for k, piece in enumerate(pieces):
        if piece.colour not in colours:
            continue
        inside = [o for i, o in enumerate(objects) if owner.get(i) == k]
        got = max(inside, key=lambda o: o["radius"], default=None)
        baseline = base.read(hs_chroma(_inner_half(image, piece.box)))
        if got is None:
            score.piece(piece.colour, None, 0.0, baseline)
        else:
            top = (got.get("candidates") or [got["colour"]])[0]
            score.piece(piece.colour, got["colour"], got["confidence"], baseline, top)
