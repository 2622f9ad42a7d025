"""How fast the Kritters scorer finds the best layout, against a brute-force search.

    PYTHONPATH=. python benchmarks/kritters_scoring.py

Prints microseconds per best_score call for realistic and extreme collections, and the
speed-up over trying every wild split with every item placement.
"""

from __future__ import annotations

import itertools
import time

from companion.games.kritters.scoring import (
    PRIMARIES,
    SECONDARIES,
    Assignment,
    Collection,
    PointKritter,
    Rules,
    best_score,
    score_assignment,
)

POINTS = tuple(
    PointKritter(c, p) for c, p in zip(("red", "green", "blue") * 4, (3, 4, 5, 6) * 3, strict=True)
)
CASES = {
    "rulebook example": Collection(cyan=4, magenta=6, yellow=5, paintbrushes=1, palettes=2),
    "big hand (38 cards, 12 items)": Collection(
        cyan=9,
        magenta=8,
        yellow=7,
        wild=6,
        point_kritters=POINTS[:8],
        paintbrushes=6,
        palettes=3,
        paint_buckets=3,
    ),
    "two-deck maximum (160 cards, 48 items)": Collection(
        cyan=42,
        magenta=42,
        yellow=42,
        wild=36,
        point_kritters=POINTS,
        paintbrushes=24,
        palettes=12,
        paint_buckets=12,
    ),
}


def per_call(fn, budget=0.3) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        fn()
        n += 1
    return (time.perf_counter() - start) / n


def brute_force(col: Collection, rules: Rules) -> int:
    subsets = [s for k in range(4) for s in itertools.combinations(PRIMARIES, k)]
    buckets = [s for k in range(4) for s in itertools.combinations(SECONDARIES, k)]
    buckets = [s for s in buckets if len(s) <= col.paint_buckets]
    best = 0
    for b in subsets:
        if len(b) > col.paintbrushes:
            continue
        for p in subsets:
            if len(p) > col.palettes:
                continue
            for w in range(col.wild + 1):
                for m in range(col.wild - w + 1):
                    for k in buckets:
                        a = Assignment(b, p, (w, m, col.wild - w - m), k)
                        best = max(best, score_assignment(col, rules, a))
    return best


def main() -> None:
    for triad in (False, True):
        rules = Rules(triad_bonus=triad)
        print(f"-- {'colour triad bonus' if triad else 'standard rules'}")
        for name, col in CASES.items():
            fast = per_call(lambda col=col, rules=rules: best_score(col, rules))
            line = f"{name:40s} best_score {fast * 1e6:8.0f} us"
            if col.wild <= 6:
                brute_col = col
                slow = per_call(lambda c=brute_col, r=rules: brute_force(c, r), budget=1.0)
                assert brute_force(col, rules) == best_score(col, rules).total
                line += f"   brute force {slow * 1e3:8.1f} ms   ratio {slow / fast:6.0f}x"
            print(line)


if __name__ == "__main__":
    main()
