"""Does slow work stall the screen? The longest gap between Kivy frames while a Laser
referee solve runs off Kivy's thread, in a worker thread and in a worker process (what the
referee uses), against the time the solve takes (what the screen froze for when the referee
solved on Kivy's thread). Headless (offscreen SDL).

    PYTHONPATH=. python benchmarks/ui_frames.py [--positions 4] [--cards 6] [--seed 3]

solve ms        how long the solve takes in the worker (wall clock)
thread ms       the longest gap between two frames while it ran in a thread (the GIL is
                shared: long stretches of C code in the search hold the screen up)
process ms      the same with the solve in a worker process
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from functools import partial

import headless  # noqa: E402, F401  (first: the project on the path, Kivy offscreen)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--cards", type=int, default=6)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)

    from kivy.base import EventLoop
    from kivy.clock import Clock

    from companion.games.laser.board import TEAM
    from companion.games.laser.solver import solve
    from companion.games.laser.solver.positions import random_position
    from companion.games.laser.solver.referee import SOLVE_OPTIONS
    from companion.ui.render import ensure_window
    from companion.worker import Worker

    ensure_window()
    rng = random.Random(args.seed)
    positions = [random_position(rng, TEAM, cards=args.cards) for _ in range(args.positions)]
    workers = {"thread": Worker("bench-thread"), "process": Worker("bench", process=True)}
    workers["process"].ask("warm-up", int, lambda _r: None)  # start its interpreter first
    print(f"{'position':>8} {'solve ms':>9} {'thread ms':>10} {'process ms':>11}")
    worst = dict.fromkeys(workers, 0.0)
    for i, pos in enumerate(positions):
        row = {}
        for kind, worker in workers.items():
            answer: list = []
            started = time.perf_counter()
            worker.ask(i, partial(solve, pos, **SOLVE_OPTIONS), answer.append)
            last, longest = time.perf_counter(), 0.0
            while not answer:
                Clock.tick()
                EventLoop.idle()
                now = time.perf_counter()
                longest, last = max(longest, now - last), now
            row[kind] = (time.perf_counter() - started, longest)
            worst[kind] = max(worst[kind], longest)
        took = row["thread"][0]
        print(
            f"{i:>8} {took * 1000:>9.0f} {row['thread'][1] * 1000:>10.1f}"
            f" {row['process'][1] * 1000:>11.1f}"
        )
    workers["process"].close()
    print(
        f"longest frame: thread {worst['thread'] * 1000:.0f} ms, "
        f"process {worst['process'] * 1000:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
