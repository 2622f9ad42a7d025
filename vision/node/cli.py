"""The Node table's camera set-up and readings from photos, as JSON:

    companion vision calibrate-node --empty EMPTY.jpg --card FRAME=COLOUR [--card ...]
        --out node.json [--card-shape 3x2]
    companion vision read node --calibration node.json [--first FIRST.jpg]
        [--ask-below 0.8] BEFORE.jpg AFTER.jpg

`calibrate-node` finds the mat's printed lattice on the photo of the empty mat and learns
the node colours from cards laid on it, one per photo: `FRAME=red` for a card of one colour,
`FRAME=red,blue,green,yellow,purple,red` for a card showing several (its nodes row by row as
it lies in the photo; `-` for one not to learn). It is the set-up screen's code path
(`vision.node.table_setup`), and the file it writes is the one the app reads.

`read node` finds the lattice in `--first` (the game's first frame; default BEFORE), then
reads the card laid between BEFORE and AFTER: status, the cells (row, col) of each of its
nodes, colours, confidence, `ask` (by `--ask-below`), the likely colours of each node
(`candidates`) and the other placements it may have (`alternatives`). When the lattice
cannot be found, the status is "moved" ("The camera has moved: check the camera set-up") and
nothing is read.

Bad input (a missing or unreadable file, photos of different sizes or of another shape than
the calibration's, a calibration that is not a Node one) is one line on stderr and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.errors import UsageError


def add_calibrate_parser(sub) -> None:
    c = sub.add_parser("calibrate-node", help="the Node table's set-up from photos")
    c.add_argument("--empty", required=True, help="photo of the empty mat, all of it in view")
    c.add_argument(
        "--card",
        action="append",
        default=[],
        help="FRAME=colour (a card of one colour) or FRAME=c1,c2,... (its nodes row by row "
        "as it lies, - to leave one out): one card laid on the empty mat",
    )
    c.add_argument("--out", required=True, help="the Node calibration JSON to write")
    c.add_argument("--card-shape", default="3x2", help="nodes across x down as printed")


def add_read_parser(what) -> None:
    n = what.add_parser("node", help="the card laid between two frames (Node)")
    n.add_argument("--calibration", required=True, help="a Node table calibration JSON")
    n.add_argument(
        "--first",
        "--empty",
        dest="first",
        help="the game's first frame, where the lattice is found (default: BEFORE)",
    )
    n.add_argument(
        "--ask-below",
        type=float,
        default=0.8,
        help="node confidence below which the app asks (default 0.8)",
    )
    n.add_argument("before")
    n.add_argument("after")


def calibrate(args) -> int:
    from vision.detect import load_image
    from vision.errors import CalibrationError
    from vision.node.calibration import NodeCalibration
    from vision.node.table_setup import calibrate as learn
    from vision.node.table_setup import look_alikes

    shape = _shape(args.card_shape)
    if not args.card:
        raise UsageError("give at least one --card FRAME=colour")
    empty = load_image(args.empty)
    cards = []
    for item in args.card:
        name, _, spec = item.partition("=")
        colours = [c.strip().lower() for c in spec.split(",")]
        if not name or not spec or any(not c for c in colours):
            raise UsageError(f"--card must be FRAME=colour or FRAME=c1,c2,..., got {item!r}")
        frame = load_image(name)
        if frame.shape != empty.shape:
            raise UsageError(f"{name} and {args.empty} differ in size: one camera, one set-up")
        cards.append((frame, ["" if c == "-" else c for c in colours]))
    try:
        cal = learn(empty, cards, shape)
    except CalibrationError as exc:
        raise UsageError(f"calibrate-node: {exc}") from None
    cal.save(args.out)
    NodeCalibration.load(args.out)  # what was written reads back
    out = {
        "out": str(args.out),
        "grid": cal.grid.to_json() | {"pitch": round(cal.grid.pitch, 2)},
        "lines": "dark" if cal.dark_lines else "light",
        "colours": list(cal.colours),
        "look_alike": [list(p) for p in look_alikes(cal.prototypes)],
        "prototypes": cal.to_json()["prototypes"],
    }
    print(json.dumps(out, indent=2))
    return 0


def read_node(args) -> int:
    from vision.detect import load_image
    from vision.errors import CalibrationError
    from vision.layout import CameraMoved
    from vision.node.calibration import NodeCalibration
    from vision.node.reader import NodeReader
    from vision.node.reading import NodeReading

    if not Path(args.calibration).is_file():
        raise UsageError(f"--calibration {args.calibration}: no such file")
    try:
        cal = NodeCalibration.load(args.calibration)
    except (CalibrationError, OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--calibration {args.calibration}: {exc}") from None
    if not 0.0 < args.ask_below <= 1.0:
        raise UsageError("--ask-below must be a confidence above 0 and at most 1")
    before, after = load_image(args.before), load_image(args.after)
    first = load_image(args.first) if args.first else before
    for path, frame in ((args.after, after), (args.first, first)):
        if path and frame.shape != before.shape:
            raise UsageError(
                f"{args.before} is {before.shape[1]}x{before.shape[0]} but {path} is "
                f"{frame.shape[1]}x{frame.shape[0]}: all must come from the same camera"
            )
    h, w = before.shape[:2]
    cw, ch = cal.frame_size
    if abs(w * ch - h * cw) > 0.01 * w * ch:
        raise UsageError(
            f"these {w}x{h} photos are not the shape of the calibration's {cw}x{ch} "
            f"frames: another camera's calibration"
        )
    reader = NodeReader(cal, ask_below=args.ask_below)
    try:
        reader.find(first)
    except CameraMoved as exc:  # said as a reading: nothing is read from stale positions
        reading = NodeReading("moved", str(exc))
    else:
        reading = reader.read(before, after)
    print(
        json.dumps(
            {
                "before": args.before,
                "after": args.after,
                "ask_below": args.ask_below,
                **reading.to_json(),
            }
        )
    )
    return 0


def _shape(text: str) -> tuple[int, int]:
    try:
        across, down = (int(v) for v in text.lower().split("x"))
    except ValueError:
        across = down = 0
    if across < 1 or down < 1:
        raise UsageError(f"--card-shape must be ACROSSxDOWN nodes, e.g. 3x2, got {text!r}")
    return (across, down)
