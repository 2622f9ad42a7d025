"""`companion vision ...`: calibrate the colour classifier from labelled images, classify images.

    companion vision calibrate --images DIR --labels CSV --out calib.json [--per-class N]
    companion vision classify --calibration calib.json [--colours a,b,...] IMAGE...
    companion vision render --light tungsten --balls blue,pink --out frame.png

Bad input is a one-line UsageError (exit 2); a damaged calibration file, a CalibrationError.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="companion vision", description="Camera colour classifier tools.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    c = sub.add_parser("calibrate", help="learn colour prototypes from labelled images")
    c.add_argument("--images", required=True, help="folder holding the images")
    c.add_argument("--labels", required=True, help="CSV with a header 'file,label'")
    c.add_argument("--out", required=True, help="calibration JSON to write")
    c.add_argument("--per-class", type=int, default=0,
                   help="use only the first N images of each label (default: all)")
    c.add_argument("--base", help="an existing calibration whose regions and camera to keep")
    k = sub.add_parser("classify", help="find and classify the objects in images")
    k.add_argument("--calibration", required=True)
    k.add_argument("--colours", help="comma-separated colours to choose among (default: all)")
    k.add_argument("images", nargs="+")
    r = sub.add_parser("render", help="render a simulated table frame to a PNG")
    r.add_argument("--light", default="daylight")
    r.add_argument("--balls", default="", help="comma-separated colours, slot 0 first")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", required=True)
    return p


def _calibrate(args) -> int:
    from vision import calibration as C

    images = Path(args.images)
    if not images.is_dir():
        raise UsageError(f"--images {images}: not a folder")
    if not Path(args.labels).is_file():
        raise UsageError(f"--labels {args.labels}: no such file")
    if args.per_class < 0:
        raise UsageError("--per-class must be 0 (all) or more")
    rows = C.read_labels(args.labels, images)
    if args.per_class:
        rows = C.labelled_subset(rows, args.per_class)
    base = C.load(args.base) if args.base else None
    cal = C.calibrate_images(rows, base)
    store = C.CalibrationStore(args.out)
    store.propose(cal)
    store.accept()
    print(json.dumps({"out": str(args.out), "images": len(rows),
                      "prototypes": C.to_json(cal)["prototypes"]}, indent=2))
    return 0


def _classify(args) -> int:
    from vision import calibration as C
    from vision.detect import classify_image, load_image

    cal = C.load(args.calibration)
    allowed = None
    if args.colours:
        allowed = [c.strip().lower() for c in args.colours.split(",") if c.strip()]
        unknown = sorted(set(allowed) - set(cal.colours))
        if unknown:
            raise UsageError(f"--colours: the calibration knows no {', '.join(unknown)} "
                             f"(it has {', '.join(cal.colours)})")
    for path in args.images:
        frame = load_image(path)
        print(json.dumps({"image": path, "objects": classify_image(frame, cal, allowed)}))
    return 0


def _render(args) -> int:
    import cv2

    from vision.render import LIGHTS, render_tray

    if args.light not in LIGHTS:
        raise UsageError(f"--light must be one of {', '.join(LIGHTS)}")
    balls = [b.strip() for b in args.balls.split(",") if b.strip()]
    try:
        frame = render_tray(balls, args.light, args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not cv2.imwrite(args.out, frame):
        raise UsageError(f"cannot write {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    return {"calibrate": _calibrate, "classify": _classify, "render": _render}[args.command](args)
