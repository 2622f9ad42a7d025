"""`companion vision read balls`: the balls in the tray, in order from its end, as JSON lines.

    companion vision read balls --calibration C.json [--empty EMPTY.png] [--ask-below 0.8]
        IMAGE...

The photos are a round as the camera sees it: the empty tray (`--empty`, else the first IMAGE,
reported as `{"image": ..., "empty": true}`), then the tray as balls arrive, in order. The tray
is found on the empty one first (the camera may have moved since the calibration, the tray
may lie the other way round). Each further image prints one line with every ball read so far,
slot 0 first: `{"image", "threshold", "balls": [{"slot", "colour", "confidence", "ask",
"candidates"}]}`. The reader is the app's own (`vision.balls.BallReader`): a photo counts as
the tray seen at rest, and a ball is reported once, in order from the tray's end; a ball
that waits for one before it (hidden under a hand) is reported with the last photo, asked.
"""

from __future__ import annotations

import json

from vision.read_args import add_ask_below, checked_calibration, ready


def add_parser(what) -> None:
    """`read balls` among the `companion vision read` subcommands."""
    b = what.add_parser("balls", help="the balls in the tray in order, with colour")
    b.add_argument("--calibration", required=True, help="with the tray and the ball colours")
    b.add_argument("--empty", help="photo of the empty tray (default: first IMAGE)")
    add_ask_below(b)
    b.add_argument("images", nargs="+")


def run(args) -> int:
    from vision.balls import BALL_COLOURS, BALL_SET, BallReader
    from vision.detect import load_frame

    cal = checked_calibration(args)
    images = list(args.images)
    empty = args.empty or images.pop(0)
    background = load_frame(empty, cal.frame_size)

    def make():
        colours = [c for c in cal.classifier_for(BALL_SET).colours if c in BALL_COLOURS]
        return BallReader(
            cal,
            colours=colours or BALL_COLOURS,
            background=background,
            ask_threshold=args.ask_below,
        )

    reader = ready(make, empty, args)
    balls: list[dict] = []

    def add(seen) -> None:
        balls.append(
            {
                "slot": seen.slot,
                "colour": seen.colour,
                "confidence": seen.confidence,
                "ask": seen.confidence < args.ask_below,
                "candidates": list(reader.candidates.get(seen.slot, ())),
            }
        )

    for k, path in enumerate(images):
        frame = load_frame(path, background.shape[1::-1])
        for _ in range(reader.agree):  # a photo is the tray at rest, seen for a moment
            for seen in reader.feed(frame):
                add(seen)
        if k == len(images) - 1:  # no more photos: balls held back are asked now
            for seen in reader.flush():
                add(seen)
        print(json.dumps({"image": path, "threshold": args.ask_below, "balls": balls}))
    return 0
