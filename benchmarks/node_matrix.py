"""The Node reader on every development set at once: found / right / asked / silent per set,
split and light, per card and per node, and the time of a reading.

Sets:
- `table-renders/node_table` (an independent renderer, `--data`): calibrated from `calib/`
  only (the empty mat and one card of each colour), then every test pair `before` -> frame
  read with the lattice found in the set-up's first frame f0 (cards and hands already on
  it). Development split: set-ups s00-s11 (every constant was chosen there); test split:
  s12-s29, never tuned on.
- `own`: the project's rendered Node table (`vision.render.node`): seeded games of Node
  under every light, the camera nudged each game, calibrated once from an empty mat and one
  card of each colour in daylight.

Per card: found (a placement reported, sure or asked, for a card at least 95 % visible),
right (placed sure, every cell and colour right), asked, silent (placed sure but wrong), and
sure where none is (a placement reported sure for a pair where no card was laid: each pair
read backwards, a card taken away, and a frame against itself). Per node of the cards found
where they lie: right and sure, asked (below the ask threshold), silent (sure and wrong).
Time: CPU time (time.process_time) of one reading of a pair, median, and of finding the
lattice once a game.

    PYTHONPATH=. .venv/bin/python benchmarks/node_matrix.py [--data DIR] [--own N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.layout import CameraMoved  # noqa: E402
from vision.node.reader import ASK_BELOW, NodeReader  # noqa: E402
from vision.node.table_setup import calibrate  # noqa: E402

HERE = Path(__file__).resolve().parents[1]
DEFAULT_DATA = HERE / "tests" / "data" / "table-renders"
VISIBLE = 0.95
TARGET_MS = 30.0
DEV = {f"s{i:02d}" for i in range(12)}


class Tally:
    def __init__(self) -> None:
        self.cards = Counter()
        self.nodes = Counter()
        self.ms: list[float] = []

    def card(self, reading, truth: dict[tuple[int, int], str] | None, visible: float) -> str:
        c = self.cards
        if truth is None:  # no card was laid
            c["none"] += 1
            if reading.status == "placed":
                c["sure where none"] += 1
                return "SURE WHERE NONE"
            return "none"
        c["cards"] += 1
        seen = dict(zip(reading.cells, (x for line in reading.colours for x in line), strict=True))
        placed = bool(reading.colours)
        if visible >= VISIBLE:
            c["visible"] += 1
            c["found"] += placed
        if reading.status == "placed":
            if seen == truth:
                c["right"] += 1
                out = "right"
            else:
                c["silent"] += 1
                out = "SILENT"
        elif reading.status == "ask":
            c["asked"] += 1
            offered = set(seen) == set(truth) or any(
                {(r + i, cc + j) for i in range(h) for j in range(w)} == set(truth)
                for r, cc, h, w in reading.alternatives
            )
            c["asked, truth offered"] += offered
            out = "asked"
        else:
            c["not read"] += 1
            out = reading.status
        if placed and set(seen) == set(truth):
            flat = [x for line in reading.confidence for x in line]
            for (cell, colour), conf in zip(seen.items(), flat, strict=True):
                self.nodes["nodes"] += 1
                if conf < ASK_BELOW:
                    self.nodes["asked"] += 1
                elif colour == truth[cell]:
                    self.nodes["right"] += 1
                else:
                    self.nodes["silent"] += 1
        return out

    def hidden(self, reading, truth: dict[tuple[int, int], str]) -> None:
        """A hand still over the new card: any sure reading must be right."""
        if reading.status == "placed":
            seen = dict(
                zip(reading.cells, (x for line in reading.colours for x in line), strict=True)
            )
            self.cards["silent"] += seen != truth

    def row(self, name: str) -> str:
        c, n = self.cards, self.nodes
        vis = max(1, c["visible"])
        cards = max(1, c["cards"])
        ms = statistics.median(self.ms) if self.ms else 0.0
        return (
            f"{name:28s} {c['cards']:5d} {c['found'] / vis:7.1%} {c['right'] / cards:7.1%} "
            f"{c['asked'] / cards:6.1%} {c['silent']:6d} {c['sure where none']:3d}/{c['none']:<4d}"
            f" {n['right'] / max(1, n['nodes']):7.1%} {n['asked'] / max(1, n['nodes']):6.1%} "
            f"{n['silent']:4d} {ms:6.1f}"
        )


HEADER = (
    f"{'set / split / light':28s} {'cards':>5s} {'found':>7s} {'right':>7s} {'asked':>6s} "
    f"{'silent':>6s} {'sure/none':>8s} {'node ok':>7s} {'n.ask':>6s} {'n.sil':>4s} {'ms':>6s}"
)


def _cells(record: dict) -> dict[tuple[int, int], str]:
    new = record["new_card"]
    return {tuple(c): col for c, col in zip(new["cells"], new["colours"], strict=True)}


def _visible(record: dict) -> float:
    vis = [o["visible"] for o in record["objects"] if o.get("new")]
    return min(vis) if vis else 1.0


def _timed(fn, *args):
    t = time.process_time()
    out = fn(*args)
    return out, (time.process_time() - t) * 1000


def independent(data: Path, verbose: bool = False):
    """Tallies per (split, light) for table-renders/node_table, and the lattice times."""
    root = data / "node_table"
    truth = json.loads((data / "truth.json").read_text())["node_table"]
    empty = cv2.imread(str(root / "calib" / "empty.jpg"))
    cards = []
    for name, rec in truth.items():
        colour = rec.get("calib_colour")
        if name.startswith("calib/") and colour and colour != "empty":
            cards.append((cv2.imread(str(root / name)), [colour]))
    cal = calibrate(empty, cards)
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    grid_ms = []
    setups = sorted({rec["setup"] for name, rec in truth.items() if name.startswith("test/")})
    frames = {}

    def frame(name):
        if name not in frames:
            frames[name] = cv2.imread(str(root / name))
        return frames[name]

    for setup in setups:
        split = "dev" if setup in DEV else "test"
        reader = NodeReader(cal)
        pairs = sorted(
            (n, r) for n, r in truth.items() if r.get("setup") == setup and r.get("before")
        )
        first = f"test/{setup}_f0.jpg"
        try:
            _, ms = _timed(reader.find, frame(first))
            grid_ms.append(ms)
            moved = False
        except CameraMoved:
            moved = True
        for name, rec in pairs:
            light = rec["light"]
            before, after = frame(rec["before"]), frame(name)
            if moved:
                from vision.node.reading import NodeReading

                reading, ms = NodeReading("moved", "lattice not found"), 0.0
            else:
                reading, ms = _timed(reader.read, before, after)
            for key in ((split, light), (split, "all")):
                tallies[key].ms.append(ms)
                out = tallies[key].card(reading, _cells(rec), _visible(rec))
            if verbose and out not in ("right",):
                print(
                    f"  {name}: {out} {reading.status} {reading.reason} "
                    f"{reading.row},{reading.col} {reading.shape} alt={reading.alternatives}"
                )
            # no card laid: the pair backwards (a card taken away) and a frame against itself
            if not moved:
                for b, a in ((after, before), (after, after)):
                    r = reader.read(b, a)
                    for key in ((split, light), (split, "all")):
                        o = tallies[key].card(r, None, 1.0)
                    if verbose and o != "none":
                        print(f"  {name} (no card): {o} {r.status} {r.reason}")
    return tallies, grid_ms


def own(count: int, seed: int = 0, verbose: bool = False):
    """Tallies per light for the project's rendered Node table: `count` placements of
    seeded games (the camera nudged anew each game), a hand over each new card too."""
    from companion.games.node.simtable import random_placements
    from vision.render.node import Hand, rendered_node_calibration

    cal = rendered_node_calibration()
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    grid_ms = []
    reader, table_seen = None, None
    for table, _state, _want, laid in random_placements(count, seed):
        before = table.frame(cards=table.cards[:-1])
        if table is not table_seen:  # a new game: the lattice found in its first frame
            table_seen, reader = table, NodeReader(cal)
            try:
                _, ms = _timed(reader.find, before)
                grid_ms.append(ms)
            except CameraMoved:
                pass
        after = table.frame()
        truth = {
            (laid.row + i, laid.col + j): c
            for i, line in enumerate(laid.colours)
            for j, c in enumerate(line)
        }
        reading, ms = _timed(reader.read, before, after)
        h, w = laid.shape
        ((x, y),) = table.layout.project(laid.to_table([[w / 2, h / 2]]))
        hidden = reader.read(before, table.frame(Hand((x, y), "bottom")))
        for key in (("own", table.light), ("own", "all")):
            tallies[key].ms.append(ms)
            out = tallies[key].card(reading, truth, 1.0)
            tallies[key].hidden(hidden, truth)
            for b, a in ((after, before), (after, after)):
                o = tallies[key].card(r := reader.read(b, a), None, 1.0)
                if verbose and o != "none" and key[1] == "all":
                    print(f"  own {table.light} {laid} (no card): {o} {r}")
        if verbose and out != "right":
            print(
                f"  own {table.light} {laid}: {out} {reading.status} {reading.reason} "
                f"{reading.row},{reading.col} {reading.shape} alt={reading.alternatives}"
            )
    return tallies, grid_ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the table-renders folder")
    ap.add_argument("--verbose", action="store_true", help="say every reading not right")
    ap.add_argument("--own", type=int, default=240, help="placements on the project's renders")
    args = ap.parse_args()
    if not (args.data / "truth.json").is_file():
        print(f"--data {args.data}: no truth.json", file=sys.stderr)
        return 2
    tallies, grid_ms = independent(args.data, args.verbose)
    print(HEADER)
    for split in ("dev", "test"):
        for light in sorted({k[1] for k in tallies if k[0] == split} - {"all"}) + ["all"]:
            print(tallies[(split, light)].row(f"independent {split} {light}"))
    if args.own:
        mine, own_ms = own(args.own, verbose=args.verbose)
        for light in sorted({k[1] for k in mine} - {"all"}) + ["all"]:
            print(mine[("own", light)].row(f"own {light}"))
        grid_ms += own_ms
    if grid_ms:
        print(f"lattice found once a game: median {statistics.median(grid_ms):.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
