"""Laser solver timings over random positions: median and worst solve time per mode and
card count, for the optimum alone (with the most figures removable at that cost, and the
impossibility check when nothing is found within max_cost) and for the team mode's exact
totals 2-10.

    python benchmarks/laser_solver.py [--positions 500] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
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
    """Wall-clock and CPU milliseconds per solve (CPU time is steadier on a busy machine)."""
    wall, cpu, unsolved = [], [], 0
    for pos in positions:
        t0, c0 = time.perf_counter(), time.process_time()
        sol = solve(pos, **kw)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
        unsolved += sol.min_cost is None
    return sorted(wall), sorted(cpu), unsolved


def line(label, cards, wall, cpu, unsolved=""):
    def q(xs, f):
        return xs[min(len(xs) - 1, int(f * len(xs)))]

    return (
        f"{label:<13}{cards:>5}{len(wall):>5}{statistics.median(wall):>9.2f}"
        f"{q(wall, 0.95):>8.1f}{wall[-1]:>8.1f}{statistics.median(cpu):>9.2f}"
        f"{q(cpu, 0.95):>8.1f}{cpu[-1]:>8.1f}{unsolved:>8}"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--totals-positions", type=int, default=200)
    args = ap.parse_args(argv)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; max_cost 20, "
        "straight-away rule"
    )
    print(f"{'':<23}{'wall ms':^25}{'cpu ms':^25}")
    print(
        f"{'mode':<13}{'cards':>5}{'n':>5}{'median':>9}{'p95':>8}{'worst':>8}{'median':>9}"
        f"{'p95':>8}{'worst':>8}{'no sol.':>8}"
    )
    for mode in (TEAM, COMPETITIVE):
        for cards in (2, 3):
            rng = random.Random(f"{args.seed}-{mode}-{cards}")
            positions = [random_position(rng, mode, cards) for _ in range(args.positions)]
            wall, cpu, unsolved = measure(positions, totals=False)
            print(line(mode, cards, wall, cpu, unsolved))
    rng = random.Random(f"{args.seed}-totals")
    positions = [random_position(rng, TEAM, 2) for _ in range(args.totals_positions)]
    wall, cpu, _ = measure(positions, totals=True)
    print(line("team+totals", 2, wall, cpu))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
