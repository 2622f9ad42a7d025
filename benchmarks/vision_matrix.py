"""Every camera reader through the CLI on every development set at once, each beside a simple
baseline on the same objects, in one table; then each reader's time per 640x480 frame.

    python benchmarks/vision_matrix.py [--split test|dev|all] [--sets balls,cards,photos]
        [--setups N]

How each set is calibrated and read, and the baseline: `tests/vision/matrix.py`. Columns:
objects (pieces at least 95 % visible), found, right (found, right and not asked), asked,
silent (wrong and not asked), ghosts (sure where there is no piece), top (top answer right,
asked or not), base (the baseline right). Constants are chosen on `--split dev` only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from tests.vision import matrix as M  # noqa: E402


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}" if d else "    -"


def row(name: str, light: str, s: M.Score) -> str:
    return (
        f"{name:<28} {light:<7} {s.objects:>6} {pct(s.found, s.objects)} "
        f"{pct(s.right, s.objects)} {s.asked:>5} {s.silent:>6} {s.ghosts:>6} "
        f"{pct(s.top, s.objects)} {pct(s.base_right, s.objects)}"
    )


HEADER = (
    f"{'set':<28} {'light':<7} {'objects':>6} {'found':>5} {'right':>5} {'asked':>5} "
    f"{'silent':>6} {'ghosts':>6} {'top':>5} {'base':>5}"
)


def print_scores(name: str, scores: dict[str, M.Score]) -> M.Score:
    total = M.Score()
    for light in [*M.LIGHTS, *sorted(set(scores) - set(M.LIGHTS))]:
        if light in scores:
            print(row(name, light, scores[light]))
            total.add(scores[light])
    if len(scores) > 1:
        print(row(name, "all", total))
    return total


def speed(rs: M.RenderSet, cal_balls: Path, cal_cards: Path) -> None:
    """CPU milliseconds per frame of each reader (median, p95) on the set's frames."""
    from vision import calibration as C
    from vision.balls import BallReader
    from vision.card_zones import ZoneReader

    def timed(fn, frames) -> list[float]:
        out = []
        for f in frames:
            t = time.process_time()
            fn(f)
            out.append((time.process_time() - t) * 1000)
        return out

    cb, cc = C.load(cal_balls), C.load(cal_cards)
    ball_ms, card_ms = [], []
    for setup in rs.setups("balls_row", "all")[:10]:
        reader = BallReader(cb, background=rs.image("balls_row", f"test/{setup}_empty.jpg"))
        frames = [rs.image("balls_row", f) for f in rs.frames("balls_row", setup)]
        ball_ms += timed(reader.feed, [f for f in frames for _ in range(3)])
    for setup in rs.setups("cards_zones", "all")[:10]:
        empty = rs.image("cards_zones", f"test/{setup}_empty.jpg")
        reader = ZoneReader(cc, M.CM, background=empty, colour_set="color-milk")
        card_ms += timed(
            reader.read, [rs.image("cards_zones", f) for f in rs.frames("cards_zones", setup)]
        )
    for name, ms, target in (("balls", ball_ms, 5), ("cards, 5 zones", card_ms, 15)):
        q = statistics.quantiles(ms, n=20)
        print(
            f"{name:<16} median {statistics.median(ms):5.1f} ms  p95 {q[-1]:5.1f} ms CPU "
            f"(target {target} ms, {len(ms)} frames of {rs.name})"
        )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="test", choices=["test", "dev", "all"])
    ap.add_argument("--sets", default="balls,cards,photos")
    ap.add_argument("--setups", type=int, help="at most this many set-ups per light")
    a = ap.parse_args()
    wanted = set(a.sets.split(","))
    cv2.setNumThreads(1)
    print(f"split: {a.split}\n{HEADER}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in M.RENDER_SETS if wanted & {"balls", "cards", "speed"} else ():
            if not (M.DATA / name / "truth.json").exists():
                print(f"{name}: not in tests/data")
                continue
            rs = M.RenderSet(name)
            cal_b = M.calibrate_balls(rs, tmp)
            cal_c = M.calibrate_cards(rs, tmp)
            if "balls" in wanted:
                setups = rs.setups("balls_row", a.split, a.setups)
                print_scores(f"{name} balls", M.score_balls(rs, cal_b, setups))
                singles = M.score_single_balls(rs, cal_b, rs.setups("balls_row", a.split, a.setups))
                print_scores(f"{name} one ball, not D65", singles)
            if "cards" in wanted:
                setups = rs.setups("cards_zones", a.split, a.setups)
                print_scores(f"{name} cards", M.score_cards(rs, cal_c, setups))
            if "speed" in wanted:
                speed(rs, cal_b, cal_c)
        if "photos" in wanted:
            for name in M.PHOTO_SETS:
                cal = M.calibrate_photos(name, tmp)
                split = "test" if a.split == "all" else a.split
                print_scores(f"{name}", M.score_photos(name, cal, split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
