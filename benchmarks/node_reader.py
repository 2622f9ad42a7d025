"""Node placement reader: every placement right or asked, and the time of one read.

Plays seeded random games of Node on the rendered table (a new game under the next light
every 24 cards; cards up to a third of a node and 10 degrees off the grid, casting shadows;
the `shadow` light adds a cast shadow band) and reads each placement from the frames before
and after it, at 640x480. Each reading is right (placed, every node and the position as
laid), asked (a person confirms; counted apart when the proposal itself is right), not read
(no reading), or a silent misread (placed but wrong). A frame with the hand still over the
new card is read too: it must never give a placement. Prints the tallies, per light, and the
read time (median, p95, max) against the 30 ms target.

    python benchmarks/node_reader.py [--placements N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.node.simtable import random_placements  # noqa: E402
from vision.node_reader import NodeReader  # noqa: E402
from vision.render_node import Hand, rendered_node_calibration  # noqa: E402

TARGET_MS = 30.0


def outcome(reading, laid) -> str:
    right = reading.colours == laid.colours and (reading.row, reading.col) == (laid.row, laid.col)
    if reading.status == "placed":
        return "right" if right else "MISREAD"
    if reading.status == "ask":
        return "asked (proposal right)" if right else "asked (proposal wrong)"
    return "not read"


def sweep(count: int, seed: int = 0):
    """(light, outcome, hand outcome, (wall ms, CPU ms), reading) for `count` placements."""
    reader = NodeReader(rendered_node_calibration())
    out = []
    for table, _state, _want, laid in random_placements(count, seed):
        before = table.frame(cards=table.cards[:-1])
        after = table.frame()
        h, w = laid.shape
        ((x, y),) = table.layout.project(laid.to_table([[w / 2, h / 2]]))
        with_hand = table.frame(Hand((x, y), "bottom"))
        t, cpu = time.perf_counter(), time.process_time()
        reading = reader.read(before, after)
        ms = ((time.perf_counter() - t) * 1000, (time.process_time() - cpu) * 1000)
        hand = reader.read(before, with_hand)
        hand_outcome = "MISREAD" if hand.status == "placed" else hand.status
        out.append((table.light, outcome(reading, laid), hand_outcome, ms, reading))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--placements", type=int, default=520)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    started = time.perf_counter()
    rows = sweep(args.placements, args.seed)
    tally = Counter(o for _, o, _, _, _ in rows)
    hands = Counter(h for _, _, h, _, _ in rows)
    print(f"placements: {len(rows)}  ({time.perf_counter() - started:.0f} s with rendering)")
    for k in ("right", "asked (proposal right)", "asked (proposal wrong)", "not read", "MISREAD"):
        print(f"  {k:24s} {tally[k]:5d}  {tally[k] / len(rows):7.2%}")
    print("hand over the new card:  " + ", ".join(f"{k} {v}" for k, v in sorted(hands.items())))
    print("per light (right / asked / not read / misread):")
    for light in sorted({r[0] for r in rows}):
        t = Counter(o for li, o, _, _, _ in rows if li == light)
        asked = t["asked (proposal right)"] + t["asked (proposal wrong)"]
        print(f"  {light:12s} {t['right']:4d} {asked:4d} {t['not read']:4d} {t['MISREAD']:4d}")
    reasons = Counter(
        r.reason for _, o, _, _, r in rows if o.startswith("asked") or o == "not read"
    )
    if reasons:
        print("why asked or not read: " + "; ".join(f"{k} ({v})" for k, v in reasons.most_common()))
    for i, what in enumerate(("wall", "CPU")):
        ms = sorted(m[i] for _, _, _, m, _ in rows)
        med, p95 = statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]
        print(
            f"read time at 640x480 ({what}): median {med:.1f} ms, p95 {p95:.1f} ms, "
            f"max {ms[-1]:.1f} ms; median / {TARGET_MS:.0f} ms target = {med / TARGET_MS:.2f}"
        )
    print(
        f"load average while measuring: {os.getloadavg()[0]:.1f} "
        "(CPU time is what the reader itself costs)"
    )
    silent = tally["MISREAD"] + hands["MISREAD"]
    print(f"silent misreads: {silent}")
    return 1 if silent else 0


if __name__ == "__main__":
    sys.exit(main())
