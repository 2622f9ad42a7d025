"""What the table runtime adds between a sensor and the game: one queue and one thread hop.

    python benchmarks/runtime_latency.py [--n 500]

post -> change   Runtime.post(reading) on a hardware thread until the change subscriber
                 hears of the new state (the engine thread interpreted, logged, applied it)
submit direct    Session.submit of the same reading on the caller's thread, for comparison
ratio            how much the hop costs on top of the submit itself

Readings are Color Milk beam counts (one BallPassed each, always news), logged to an SQLite
log in RAM (/dev/shm where it exists), so the figures are the software path, not the disk.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.events import BallPassed  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.color_milk import GAME  # noqa: E402
from companion.runtime import Runtime  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameLog  # noqa: E402

CONFIG = GameConfig(("Anna", "Ben"))


def _tmp() -> str | None:
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def through_runtime(n: int, log: GameLog) -> list[float]:
    runtime = Runtime()
    runtime.play(Session.start(GAME, log, CONFIG))
    changed = threading.Event()
    runtime.subscribe(on_change=changed.set)
    out = []
    for _ in range(n):
        changed.clear()
        t = time.perf_counter()
        runtime.post(BallPassed())
        if not changed.wait(5):
            raise SystemExit("a reading was lost")
        out.append(time.perf_counter() - t)
    runtime.close()
    return out


def direct(n: int, log: GameLog) -> list[float]:
    session = Session.start(GAME, log, CONFIG)
    out = []
    for _ in range(n):
        t = time.perf_counter()
        session.submit(BallPassed())
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=500)
    n = p.parse_args().n
    with tempfile.TemporaryDirectory(dir=_tmp()) as tmp, GameLog(Path(tmp) / "g.sqlite3") as log:
        hop = through_runtime(n, log)
        plain = direct(n, log)
    med_hop, med_plain = statistics.median(hop), statistics.median(plain)
    p95 = statistics.quantiles(hop, n=20)[-1]
    print(f"readings: {n}, machine load average {os.getloadavg()[0]:.1f}")
    print(f"post -> change   median {med_hop * 1e3:7.3f} ms   p95 {p95 * 1e3:7.3f} ms")
    print(f"submit direct    median {med_plain * 1e3:7.3f} ms")
    print(f"ratio            {med_hop / med_plain:7.2f}x  (+{(med_hop - med_plain) * 1e3:.3f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
