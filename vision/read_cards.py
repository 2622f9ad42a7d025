"""`companion vision read cards`: the cards in each card zone of photos, as JSON lines.

    companion vision read cards --calibration C.json [--empty EMPTY.png] [--colours a,b]
        [--floors] IMAGE...

Cards are found against the empty table: `--empty`, or else the first IMAGE (reported as
`{"image": ..., "empty": true}`). Each further image prints one line:
`{"image", "zones": [{"zone", "blocked", "unreadable", "cards": [{"colour", "confidence",
"box": [x, y, w, h], "face_down"?, "touching"?, "floor"?}]}]}`. A face-down card has colour
"". With `--floors` each competitive Laser prism card's floor pattern is read too, when sure.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.errors import UsageError


def add_parser(what) -> None:
    """`read cards` among the `companion vision read` subcommands."""
    c = what.add_parser("cards", help="the cards in each card zone, with colour and box")
    c.add_argument("--calibration", required=True, help="with card zones and card colours")
    c.add_argument("--empty", help="photo of the table without cards (default: first IMAGE)")
    c.add_argument("--colours", help="comma-separated card colours (default: all learnt)")
    c.add_argument(
        "--floors",
        action="store_true",
        help="read competitive prism cards' floor patterns too (learnt with calibrate-table)",
    )
    c.add_argument("images", nargs="+")


def run(args) -> int:
    from vision import calibration as C
    from vision.card_zones import BACK, ZoneReader
    from vision.detect import load_frame
    from vision.errors import CalibrationError

    if not Path(args.calibration).is_file():
        raise UsageError(f"--calibration {args.calibration}: no such file")
    cal = C.load(args.calibration)
    if not cal.card_zones:
        raise UsageError(
            f"calibration {args.calibration} has no card zones "
            "(set them with `companion vision regions --zone NAME=X,Y,W,H`)"
        )
    learnt = [c for c in cal.colours if c != BACK]
    colours = learnt
    if args.colours:
        colours = [c.strip().lower() for c in args.colours.split(",") if c.strip()]
        unknown = sorted(set(colours) - set(learnt))
        if not colours or unknown:
            raise UsageError(
                f"--colours: the calibration knows no {', '.join(unknown) or 'colour'} "
                f"(it has {', '.join(learnt) or 'none yet'})"
            )
    if not colours:
        raise UsageError(f"calibration {args.calibration} has no card colours yet")
    floors = ()
    if args.floors:
        from vision.floor_texture import FLOORS

        missing = [f for f in FLOORS if f not in cal.floors]
        if missing:
            raise UsageError(
                f"--floors: calibration {args.calibration} has not learnt {', '.join(missing)} "
                "(learn them with `companion vision calibrate-table --floors FRAME`)"
            )
        floors = FLOORS
    images = list(args.images)
    empty = args.empty or images.pop(0)
    background = load_frame(empty, cal.frame_size)
    try:
        reader = ZoneReader(cal, colours, background=background, floors=floors)
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None
    if not args.empty:
        print(json.dumps({"image": empty, "empty": True}))
    for path in images:
        frame = load_frame(path, background.shape[1::-1])
        views = reader.read(frame)
        print(json.dumps({"image": path, "zones": [v.to_json() for v in views]}))
    return 0
