"""Vision on real photographs, side by side with a 30-line baseline; and the readers' speed.

For each real set (stickers and candies, whole photos and one object per crop), calibrate from
the development photos and read the test photos through the app's still-photo path
(`vision.detect.classify_image`, as `companion vision classify` does). Prints objects found (a
reading whose centre lies in the object's true box), top colour right, asked (confidence below
the ask threshold, or unknown) and silent misreads (wrong and confident), next to the baseline:
nearest prototype in the HSV hue-saturation plane, measured inside the true boxes. Then the
ball reader's time per 640x480 frame and the time of a whole-photo read at 640x480.

    python benchmarks/vision_real.py [--sets stickers,candies] [--frames N] [--split dev]

`--split dev` measures the development photos instead, each calibrated from the other
development photos (leave one photo out): the figures to tune settings on, never the test ones.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.calibration import Calibration  # noqa: E402
from vision.classify import learn  # noqa: E402
from vision.detect import classify_image, find_objects, measure_box  # noqa: E402
from vision.learn import calibrate_boxes  # noqa: E402

DATA = ROOT / "tests" / "data"
ASK_THRESHOLD = 0.8  # Settings.ask_threshold default
Box = tuple[int, int, int, int]


@dataclass
class Photo:
    name: str
    frame: np.ndarray
    objects: list[tuple[str, Box]]  # (label, box)
    group: str = ""  # the set of objects photographed (one cube, one bag of candies)


@dataclass
class Score:
    objects: int = 0
    found: int = 0
    right: int = 0
    asked: int = 0
    silent: int = 0
    base_right: int = 0
    misreads: list[str] = field(default_factory=list)


def stickers() -> tuple[list[Photo], list[Photo]]:
    """real-scenes: (development photos, test photos) by each photo's role."""
    root = DATA / "real-scenes"
    doc = json.loads((root / "labels.json").read_text(encoding="utf-8"))
    dev, test = [], []
    for name, info in sorted(doc["images"].items()):
        objs = [(o["label"], tuple(o["box"])) for o in info["objects"]]
        photo = Photo(name, cv2.imread(str(root / name)), objs, info["lighting"][:9])
        (dev if info["role"] == "calibration" else test).append(photo)
    return dev, test


def candies() -> tuple[list[Photo], list[Photo]]:
    """mnm-photos: the first two photos of each colour calibrate, the rest are measured."""
    root = DATA / "mnm-photos"
    with open(root / "boxes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    dev, test, seen = [], [], {}
    for r in rows:
        box = tuple(int(r[k]) for k in "xywh")
        photo = Photo(r["file"], cv2.imread(str(root / r["file"])), [(r["label"], box)])
        seen[r["label"]] = seen.get(r["label"], 0) + 1
        (dev if seen[r["label"]] <= 2 else test).append(photo)
    return dev, test


def per_group(dev: list[Photo], test: list[Photo]) -> list[tuple[str, list[Photo], list[Photo]]]:
    """(group, development photos, test photos) per set of objects: a table calibrates its
    own pieces, so each cube is calibrated on its own photos (the two cubes name different
    inks "red" and "orange": session B's orange is session A's red in shade). None when the
    photos are of one set."""
    groups = sorted({p.group for p in dev})
    if len(groups) < 2:
        return []
    return [
        (g, [p for p in dev if p.group == g], [p for p in test if p.group == g]) for g in groups
    ]


def crops(photos: list[Photo], factor: float = 5.0) -> list[Photo]:
    """One photo per object: a window `factor` times the box's area, centred on it."""
    out = []
    side = factor**0.5
    for p in photos:
        h, w = p.frame.shape[:2]
        for i, (label, (x, y, bw, bh)) in enumerate(p.objects):
            cx, cy = x + bw / 2, y + bh / 2
            x0, y0 = max(0, int(cx - side * bw / 2)), max(0, int(cy - side * bh / 2))
            x1, y1 = min(w, int(cx + side * bw / 2)), min(h, int(cy + side * bh / 2))
            box = (x - x0, y - y0, bw, bh)
            out.append(Photo(f"{p.name}#{i}", p.frame[y0:y1, x0:x1], [(label, box)], p.group))
    return out


# The baseline: nearest prototype in the hue-saturation plane of HSV, inside the true box.
def hs_point(frame: np.ndarray, box: Box) -> np.ndarray:
    x, y, w, h = box
    inner = frame[y + h // 4 : y + h - h // 4, x + w // 4 : x + w - w // 4]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    hue = np.median(hsv[:, 0]) * np.pi / 90.0
    sat = np.median(hsv[:, 1]) / 255.0
    return np.array([sat * np.cos(hue), sat * np.sin(hue)])


def baseline(dev: list[Photo]):
    points: dict[str, list[np.ndarray]] = {}
    for p in dev:
        for label, box in p.objects:
            points.setdefault(label, []).append(hs_point(p.frame, box))
    protos = {k: np.mean(v, axis=0) for k, v in points.items()}

    def classify(frame: np.ndarray, box: Box) -> str:
        q = hs_point(frame, box)
        return min(protos, key=lambda k: float(np.linalg.norm(protos[k] - q)))

    return classify


def match(objects: list[tuple[str, Box]], found: list[dict]) -> list[dict | None]:
    """For each true object, the reading whose centre lies in its box, nearest its centre."""
    pairs = []
    for i, (_, (x, y, w, h)) in enumerate(objects):
        for j, f in enumerate(found):
            if x <= f["x"] <= x + w and y <= f["y"] <= y + h:
                pairs.append((np.hypot(f["x"] - x - w / 2, f["y"] - y - h / 2), i, j))
    out: list[dict | None] = [None] * len(objects)
    used = set()
    for _, i, j in sorted(pairs):
        if out[i] is None and j not in used:
            out[i] = found[j]
            used.add(j)
    return out


def score(photos: list[Photo], cal, base, s: Score | None = None) -> Score:
    s = s or Score()
    for p in photos:
        readings = classify_image(p.frame, cal)
        for (label, box), r in zip(p.objects, match(p.objects, readings), strict=True):
            s.objects += 1
            s.base_right += base(p.frame, box) == label
            if r is None:
                continue
            s.found += 1
            s.right += r["colour"] == label
            if r["colour"] == "unknown" or r["confidence"] < ASK_THRESHOLD:
                s.asked += 1
            elif r["colour"] != label:
                s.silent += 1
                s.misreads.append(f"{p.name}: {label} read {r['colour']} ({r['confidence']})")
    return s


def leave_one_out(dev: list[Photo]) -> dict[str, Score]:
    """Whole-photo and crop scores of each development photo, calibrated from the others
    exactly as `calibrate_boxes` would (the samples of each photo are measured once)."""
    samples = []
    for p in dev:
        found = find_objects(p.frame)
        samples.append([(label, measure_box(p.frame, box, found)) for label, box in p.objects])
    whole, crop = Score(), Score()
    for i, p in enumerate(dev):
        rest = [s for j, photo in enumerate(samples) if j != i for s in photo]
        cal = Calibration(prototypes=learn(rest))
        base = baseline(dev[:i] + dev[i + 1 :])
        score([p], cal, base, whole)
        score(crops([p]), cal, base, crop)
    return {"whole photos": whole, "crops": crop}


def calibrated_scores(dev: list[Photo], test: list[Photo]) -> tuple[Calibration, dict[str, Score]]:
    """Calibrate from the development photos; score the test photos whole and as crops."""
    cal = calibrate_boxes([(p.frame, p.objects) for p in dev])
    base = baseline(dev)
    return cal, {"whole photos": score(test, cal, base), "crops": score(crops(test), cal, base)}


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}%" if d else "  -  "


def reader_speed(frames: int) -> tuple[float, float, float]:
    from vision.balls import BallReader
    from vision.learn import rendered_calibration
    from vision.render.tray import LIGHTS, arrival_frames

    cal = rendered_calibration(0)
    times = []
    seed = 0
    while len(times) < frames:
        reader = BallReader(cal)
        light = LIGHTS[seed % len(LIGHTS)]
        for f in arrival_frames(
            ["blue", "green", "orange", "pink", "purple"], light, 40_000 + seed
        ):
            t, c = time.perf_counter(), time.process_time()
            reader.feed(f)
            times.append(((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000))
        seed += 1
    return _figures(times)


def _figures(times: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Median and p95 wall time, and median CPU time (less disturbed by other processes)."""
    wall = sorted(t for t, _ in times)
    cpu = statistics.median(c for _, c in times)
    return statistics.median(wall), wall[int(0.95 * (len(wall) - 1))], cpu


def photo_speed(photos: list[Photo], cal, repeats: int = 3) -> tuple[float, float, float]:
    times = []
    for p in photos:
        frame = cv2.resize(p.frame, (640, 480), interpolation=cv2.INTER_AREA)
        for _ in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            classify_image(frame, cal)
            times.append(((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000))
    return _figures(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="stickers,candies")
    ap.add_argument("--frames", type=int, default=300, help="ball reader frames to time")
    ap.add_argument("--misreads", action="store_true", help="list every silent misread")
    ap.add_argument("--split", choices=("test", "dev"), default="test")
    args = ap.parse_args()
    loaders = {"stickers": stickers, "candies": candies}
    print(
        f"{'set':<40}{'objects':>8}{'found':>14}{'right':>14}{'asked':>8}{'silent':>8}"
        f"{'baseline':>16}"
    )
    timing_photos, timing_cal = [], None
    for name in args.sets.split(","):
        dev, test = loaders[name]()
        groups = per_group(dev, test)
        if args.split == "dev":
            rows = [(name, leave_one_out(dev))]
            rows += [(f"{name}, {group} alone", leave_one_out(d)) for group, d, _ in groups]
        else:
            cal, scores = calibrated_scores(dev, test)
            rows = [(name, scores)]
            rows += [(f"{name}, {g} alone", calibrated_scores(d, t)[1]) for g, d, t in groups]
            timing_photos += test[:10]
            timing_cal = timing_cal or cal
        for label, scores in rows:
            for kind, s in scores.items():
                print(
                    f"{label + ' ' + kind:<40}{s.objects:>8}{s.found:>7} "
                    f"{pct(s.found, s.objects)}{s.right:>7} {pct(s.right, s.objects)}"
                    f"{s.asked:>8}{s.silent:>8}{s.base_right:>9} {pct(s.base_right, s.objects)}"
                )
                if args.misreads:
                    for m in s.misreads:
                        print("   ", m)
    print("(found: a reading centred in the true box; right/asked/silent out of all objects)")
    if args.split == "dev":
        return 0
    load = os.getloadavg()[0]
    med, p95, cpu = photo_speed(timing_photos, timing_cal)
    print(
        f"whole-photo read at 640x480: median {med:.1f} ms, p95 {p95:.1f} ms, "
        f"CPU median {cpu:.1f} ms (target <= 50 ms; load average {load:.1f})"
    )
    med, p95, cpu = reader_speed(args.frames)
    print(
        f"ball reader per 640x480 frame: median {med:.2f} ms, p95 {p95:.2f} ms, "
        f"CPU median {cpu:.2f} ms (target <= 5 ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
