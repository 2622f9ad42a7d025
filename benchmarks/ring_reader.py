"""Laser ring reader: accuracy over rendered boards and time per 640x480 frame.

Boards are random but plausible tables (the cat on one tile, most others with a figure, the
colour cards partly refilled), rendered under every light of `vision.render_ring.LIGHTS` with
figures off-centre and turned; every fifth frame has a hand reaching in. Colours are learnt
from 48 other rendered boards first (seeds kept apart). Counts per tile and per colour card:
right, asked (confidence below the threshold), and silently wrong (confident and wrong) - the
target is 0; frames with a hand must give no reading. Then the read time: median, p95, max,
and the median's ratio to the 30 s bidding clock.

    python benchmarks/ring_reader.py [--boards N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.render_ring import (  # noqa: E402
    LIGHTS,
    random_board,
    render_ring,
    ring_calibration,
    training_frames,
)
from vision.ring_reader import ASK_BELOW, RingReader, learn_ring  # noqa: E402

BIDDING_CLOCK_MS = 30_000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=520)
    args = ap.parse_args()
    reader = RingReader(learn_ring(ring_calibration(), training_frames(48)))
    n = Counter()
    wrong = []
    times = []
    for i in range(args.boards):
        board = random_board(random.Random(i))
        light = LIGHTS[i % len(LIGHTS)]
        hand = i % 5 == 4
        frame = render_ring(board, light, i, hand=hand)
        t0 = time.perf_counter()
        r = reader.read(frame)
        times.append((time.perf_counter() - t0) * 1000)
        n["frames"] += 1
        if r.hand:
            n["hand seen" if hand else "hand seen, none there"] += 1
            continue
        if hand:
            n["hand not seen (frame read)"] += 1
        for k, (truth, got, conf) in enumerate(
            zip(board.tiles, r.tiles, r.confidence, strict=True)
        ):
            n["tiles"] += 1
            if conf < ASK_BELOW:
                n["tiles asked"] += 1
            elif got == truth:
                n["tiles right"] += 1
            else:
                n["tiles SILENTLY WRONG"] += 1
                wrong.append((i, light, hand, f"tile {k}", truth, got, round(conf, 3)))
        for colour, count in board.spares.items():
            n["cards"] += 1
            if r.spare_confidence[colour] < ASK_BELOW:
                n["cards asked"] += 1
            elif r.spares[colour] == count:
                n["cards right"] += 1
            else:
                n["cards SILENTLY WRONG"] += 1
                wrong.append((i, light, hand, colour, count, r.spares[colour]))
    print(f"boards: {args.boards} at 640x480, {len(LIGHTS)} lights ({', '.join(LIGHTS)})")
    for key in (
        "frames",
        "hand seen",
        "hand not seen (frame read)",
        "hand seen, none there",
        "tiles",
        "tiles right",
        "tiles asked",
        "tiles SILENTLY WRONG",
        "cards",
        "cards right",
        "cards asked",
        "cards SILENTLY WRONG",
    ):
        print(f"  {key:28s} {n[key]}")
    read = n["tiles right"] + n["tiles asked"]
    print(f"tiles right or asked: {100 * read / max(1, n['tiles']):.2f}%")
    blind = _hands_unseen(reader.cal, args.boards)
    print(
        "hand frames read with the edge check off (tile checks only): "
        f"{blind['tiles']} tiles, {blind['asked']} asked, {blind['wrong']} silently wrong"
    )
    for w in wrong[:20]:
        print("  wrong:", w)
    times.sort()
    med = statistics.median(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"read time per frame: median {med:.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")
    print(f"median / 30 s bidding clock: {med / BIDDING_CLOCK_MS:.5f} ({med / 30:.2f} of 30 ms)")
    return 1 if wrong else 0


def _hands_unseen(cal, boards: int) -> Counter:
    """The same hand frames read as if the arm had not been seen at the frame's edge."""
    reader = RingReader(cal, watch_hands=False)
    n = Counter()
    for i in range(4, boards, 5):
        board = random_board(random.Random(i))
        r = reader.read(render_ring(board, LIGHTS[i % len(LIGHTS)], i, hand=True))
        for truth, got, conf in zip(board.tiles, r.tiles, r.confidence, strict=True):
            n["tiles"] += 1
            n["asked" if conf < ASK_BELOW else "right" if got == truth else "wrong"] += 1
    return n


if __name__ == "__main__":
    raise SystemExit(main())
