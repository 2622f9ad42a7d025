"""Laser solver timings over random positions: median and worst solve time per mode and
card count (2-4), for `solve` as the CLI calls it (max_cost 20, its default time limit;
team mode includes the exact totals 2-10, and every search without a solution includes the
impossibility check), and for the competitive proposal of removed figures at a bid above the
optimum, which the rules bound by searched states. "unsolved" counts answers cut short by a
limit: they must stay 0 for 2-4 cards.

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
from companion.games.laser.commands import DEFAULT_TIMEOUT  # noqa: E402
from companion.games.laser.proposal import PROPOSAL_SLACK, PROPOSAL_WORK, propose  # noqa: E402
from companion.games.laser.solver import solve  # noqa: E402
from companion.games.laser.solver.limit import Limit  # noqa: E402
from companion.games.laser.solver.positions import random_position  # noqa: E402


def timed(calls):
    """Wall-clock and CPU milliseconds per call (CPU time is steadier on a busy machine),
    sorted, and the results."""
    wall, cpu, results = [], [], []
    for call in calls:
        t0, c0 = time.perf_counter(), time.process_time()
        results.append(call())
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return sorted(wall), sorted(cpu), results


def line(label, cards, wall, cpu, nosol="", unsolved=""):
    def q(xs, f):
        return xs[min(len(xs) - 1, int(f * len(xs)))]

    return (
        f"{label:<13}{cards:>5}{len(wall):>5}{statistics.median(wall):>9.2f}"
        f"{q(wall, 0.95):>8.1f}{wall[-1]:>8.1f}{statistics.median(cpu):>9.2f}"
        f"{q(cpu, 0.95):>8.1f}{cpu[-1]:>8.1f}{nosol:>8}{unsolved:>9}"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; max_cost 20, "
        f"straight-away rule; limits {DEFAULT_TIMEOUT:g} s (solve), "
        f"{PROPOSAL_WORK} states (proposal)"
    )
    print(f"{'':<23}{'wall ms':^25}{'cpu ms':^25}")
    print(
        f"{'mode':<13}{'cards':>5}{'n':>5}{'median':>9}{'p95':>8}{'worst':>8}{'median':>9}"
        f"{'p95':>8}{'worst':>8}{'no sol.':>8}{'unsolved':>9}"
    )
    solved = {}
    for mode in (TEAM, COMPETITIVE):
        for cards in (2, 3, 4):
            rng = random.Random(f"{args.seed}-{mode}-{cards}")
            positions = [random_position(rng, mode, cards) for _ in range(args.positions)]
            wall, cpu, sols = timed(
                lambda p=p: solve(p, limit=Limit(seconds=DEFAULT_TIMEOUT)) for p in positions
            )
            nosol = sum(s.min_cost is None for s in sols)
            print(line(mode, cards, wall, cpu, nosol, sum(not s.solved for s in sols)))
            if mode == COMPETITIVE:
                solved[cards] = [
                    (p, s.min_cost) for p, s in zip(positions, sols, strict=True) if s.min_cost
                ]
    for cards, found in solved.items():
        wall, cpu, got = timed(lambda p=p, c=c: propose(p, c + PROPOSAL_SLACK) for p, c in found)
        print(line(f"proposal +{PROPOSAL_SLACK}", cards, wall, cpu, "", sum(not k for _, k in got)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
