"""What damaged ball lines do to the game, protocol 1 (XOR) against protocol 2 (CRC-16).

    python benchmarks/serial_corruption.py [--n 2000] [--seed 1]

A simulated chute board on a real pty sends 2*N ball lines to the real reader; every second
line is damaged on the wire in a way an XOR checksum cannot see: two digits swapped, or the
same bit flipped in two digits. A damaged line must cost at most that ball's colour: the
next good line's ball number shows the gap and the ball is still counted. Printed per
protocol: damaged lines caught, wrong colours delivered, phantom balls (counted but never
sent), and balls missing from the count.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import threading
from pathlib import Path

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.events import BallPassed  # noqa: E402
from hardware.events import BallSensed  # noqa: E402
from hardware.protocol import BallReading, BoardFault  # noqa: E402
from hardware.serial_board import BoardStatus, ChuteBoardReader  # noqa: E402
from hardware.sim_board import DEFAULT_REFERENCES, SimulatedChuteBoard  # noqa: E402

COLOURS = sorted(DEFAULT_REFERENCES)


def damage(line: bytes, rng: random.Random) -> bytes:
    """Two digits of the body swapped, or the same bit flipped in two of its digits."""
    star = line.rfind(b"*")
    digits = [i for i in range(1, star) if line[i : i + 1].isdigit()]
    out = bytearray(line)
    while True:
        i, j = sorted(rng.sample(digits, 2))
        if rng.random() < 0.5:
            if out[i] != out[j]:
                out[i], out[j] = out[j], out[i]
                return bytes(out)
        else:
            bit = 1 << rng.randrange(4)  # stays an ASCII digit or a nearby printable
            out[i] ^= bit
            out[j] ^= bit
            return bytes(out)


def trial(protocol: int, n: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    events: list = []
    done = threading.Event()
    with SimulatedChuteBoard(heartbeat=None, protocol=protocol, seed=seed) as board:
        reader = ChuteBoardReader(
            board.port,
            events.append,
            counts_balls=True,
            references=DEFAULT_REFERENCES.items(),
            on_message=lambda m: isinstance(m, BoardFault) and done.set(),
        )
        with reader:
            if not reader.wait_for(BoardStatus.CONNECTED, 10):
                raise SystemExit(f"the reader did not connect: {reader.status_text}")
            sent = []  # the colour of each ball, by ball number
            for k in range(2 * n + 1):  # damaged lines are the odd ones, between good ones
                colour = rng.choice(COLOURS)
                msg = BallReading(k % 0x10000, k, *board.reading_for(colour))
                sent.append(colour)
                line = board.next_line(msg)
                board.write(damage(line, rng) if k % 2 else line)
            board.send(BoardFault("END", "done"))
            if not done.wait(60):
                raise SystemExit("the reader did not finish")
    counted = sum(e.count for e in events if isinstance(e, BallPassed))
    sensed = [e for e in events if isinstance(e, BallSensed)]
    wrong = sum(e.seq >= len(sent) or e.colour != sent[e.seq] for e in sensed)
    return {
        "damaged": n,
        "caught": reader.bad_lines,
        "wrong colours": wrong,
        "phantom balls": max(0, counted - len(sent)),
        "balls missing": max(0, len(sent) - counted),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="damaged lines per protocol")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # the reader logs every damaged line it skips
    rows = {p: trial(p, args.n, args.seed) for p in (1, 2)}
    keys = list(rows[1])
    print(f"{'':16}" + "".join(f"{k:>16}" for k in keys))
    for p, row in rows.items():
        name = "protocol 1 (XOR)" if p == 1 else "protocol 2 (CRC)"
        print(f"{name:16}" + "".join(f"{row[k]:>16}" for k in keys))


if __name__ == "__main__":
    main()
