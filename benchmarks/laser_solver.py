"""Laser solver timings over random positions: median and worst solve time per mode and
card count, for the optimum alone and for the team mode's exact totals 2-10.

    python benchmarks/laser_solver.py [--positions 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.laser.board import COMPETITIVE, TEAM  # noqa: E402
from companion.games.laser.positions import random_position  # noqa: E402
from companion.games.laser.solver import solve  # noqa: E402


def measure(positions, **kw):
    times, unsolved = [], 0
    for pos in positions:
        t0 = time.perf_counter()
        sol = solve(pos, **kw)
        times.append((time.perf_counter() - t0) * 1000)
        unsolved += sol.min_cost is None
    return times, unsolved


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--totals-positions", type=int, default=100)
    args = ap.parse_args(argv)
    print(
        f"{'mode':<12}{'cards':>6}{'n':>6}{'median ms':>11}{'p95 ms':>9}{'worst ms':>10}"
        f"{'no sol.':>9}"
    )
    for mode in (TEAM, COMPETITIVE):
        for cards in (2, 3):
            rng = random.Random(f"{args.seed}-{mode}-{cards}")
            positions = [random_position(rng, mode, cards) for _ in range(args.positions)]
            times, unsolved = measure(positions, totals=False)
            times.sort()
            print(
                f"{mode:<12}{cards:>6}{len(times):>6}{statistics.median(times):>11.2f}"
                f"{times[int(0.95 * len(times))]:>9.2f}{times[-1]:>10.1f}{unsolved:>9}"
            )
    rng = random.Random(f"{args.seed}-totals")
    positions = [random_position(rng, TEAM, 2) for _ in range(args.totals_positions)]
    times, _ = measure(positions, totals=True)
    times.sort()
    print(
        f"{'team+totals':<12}{2:>6}{len(times):>6}{statistics.median(times):>11.2f}"
        f"{times[int(0.95 * len(times))]:>9.2f}{times[-1]:>10.1f}{'':>9}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
