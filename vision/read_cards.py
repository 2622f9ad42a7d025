"""`companion vision read cards`: the cards on the table in photos, by zone, as JSON lines.

    companion vision read cards --calibration C.json [--empty EMPTY.png] [--set NAME]
        [--colours a,b] [--floors] [--ask-below 0.8] IMAGE...

Cards are found against the empty table: `--empty`, or else the first IMAGE (reported as
`{"image": ..., "empty": true}`); the set-up is found on it first (the camera may have moved
since the calibration). Each further image prints one line: `{"image", "threshold", "zones":
[{"zone", "blocked", "covered", "unreadable", "cards": [{"colour", "confidence", "ask",
"candidates", "box": [x, y, w, h], "corners", "face_down"?, "touching"?, "floor"?}]}]}`. A
face-down card has colour "". `--set` names the calibration's set of card colours (one game's
cards); with one card set learnt it may be left out. With `--floors` each competitive Laser
prism card's floor pattern is read too, when sure.
"""

from __future__ import annotations

import json

from companion.errors import UsageError
from vision.read_args import add_ask_below, checked_calibration, ready


def add_parser(what) -> None:
    """`read cards` among the `companion vision read` subcommands."""
    c = what.add_parser("cards", help="the cards in each card zone, with colour and box")
    c.add_argument("--calibration", required=True, help="with card zones and card colours")
    c.add_argument("--empty", help="photo of the table without cards (default: first IMAGE)")
    c.add_argument("--set", dest="colour_set", help="the set of card colours (one game's cards)")
    c.add_argument("--colours", help="comma-separated card colours (default: all of the set)")
    c.add_argument(
        "--floors",
        action="store_true",
        help="read competitive prism cards' floor patterns too (learnt with calibrate-table)",
    )
    add_ask_below(c)
    c.add_argument("images", nargs="+")


def run(args) -> int:
    from vision.balls import BALL_SET
    from vision.card_zones import BACK, ZoneReader
    from vision.detect import load_frame
    from vision.errors import CalibrationError

    cal = checked_calibration(args)
    if not cal.card_zones:
        raise UsageError(
            f"calibration {args.calibration} has no card zones "
            "(set them with `companion vision regions --zone NAME=X,Y,W,H`)"
        )
    card_sets = [s for s in cal.colour_sets if s != BALL_SET]
    colour_set = args.colour_set
    if colour_set is None:
        if len(card_sets) > 1:
            raise UsageError(f"--set: say which cards to read ({', '.join(card_sets)})")
        colour_set = card_sets[0] if card_sets else ""
    try:
        learnt = [c for c in cal.classifier_for(colour_set).colours if c != BACK]
    except CalibrationError as exc:
        raise UsageError(f"--set: {exc}") from None
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
    reader = ready(
        lambda: ZoneReader(
            cal, colours, background=background, floors=floors, colour_set=colour_set
        ),
        empty,
        args,
    )
    for path in images:
        frame = load_frame(path, background.shape[1::-1])
        zones = []
        for view in reader.read(frame):
            out = view.to_json()
            for card in out["cards"]:
                card["ask"] = card["confidence"] < args.ask_below
            zones.append(out)
        print(json.dumps({"image": path, "threshold": args.ask_below, "zones": zones}))
    return 0
