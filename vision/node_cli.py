"""`companion vision read node --calibration C.json BEFORE AFTER`: the card laid between two
photos of the Node table, as JSON with a confidence per node.

The calibration is a Node table calibration (vision.node_reader.NodeCalibration: the table
area's corners, the node pitch, the card shape and colour prototypes). Bad input (a missing
or unreadable file, frames of different sizes, a calibration that is not a Node one) is one
line on stderr and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.errors import UsageError


def read_node(args) -> int:
    from vision.detect import load_image
    from vision.errors import CalibrationError
    from vision.node_reader import NodeCalibration, NodeReader

    if not Path(args.calibration).is_file():
        raise UsageError(f"--calibration {args.calibration}: no such file")
    try:
        cal = NodeCalibration.load(args.calibration)
    except (CalibrationError, OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--calibration {args.calibration}: {exc}") from None
    before, after = load_image(args.before), load_image(args.after)
    if before.shape != after.shape:
        raise UsageError(
            f"{args.before} is {before.shape[1]}x{before.shape[0]} but {args.after} is "
            f"{after.shape[1]}x{after.shape[0]}: both must come from the same camera"
        )
    h, w = before.shape[:2]
    if not all(-1 <= x <= w and -1 <= y <= h for x, y in cal.corners):
        raise UsageError(
            f"the table's corners in {args.calibration} lie outside these {w}x{h} photos: "
            "photos of another size, or another camera's calibration"
        )
    reading = NodeReader(cal).read(before, after)
    print(json.dumps({"before": args.before, "after": args.after, **reading.to_json()}))
    return 0
