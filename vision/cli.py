"""`companion vision ...`: calibrate the colour classifier from labelled images, classify images.

    companion vision calibrate --images DIR --labels CSV --out calib.json [--per-class N]
    companion vision classify --calibration calib.json [--colours a,b,...] IMAGE...
    companion vision regions --calibration calib.json [--patch X,Y,W,H] [--tray X,Y,W,H]
        [--first-end left] [--ball-radius MIN,MAX] [--slot-pitch PX] [--zone NAME=X,Y,W,H]...
    companion vision calibrate-table --calibration calib.json --empty EMPTY.png
        [--balls FRAME=blue,pink,...]... [--cards FRAME=seat1:blue,seat2:pink]...
        [--floors FRAME[=ZONE]]
    companion vision render --light tungsten --balls blue,pink --out frame.png
    companion vision read node --calibration node.json BEFORE.jpg AFTER.jpg
    companion vision read cards --calibration calib.json [--empty EMPTY.png] [--floors]
        IMAGE...
    companion vision read laser --calibration ring.json IMAGE

Bad input is a one-line UsageError (exit 2); a damaged calibration file, a CalibrationError.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from companion.errors import UsageError
from vision import read_cards


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="companion vision", description="Camera colour classifier tools.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    c = sub.add_parser("calibrate", help="learn colour prototypes from labelled images")
    c.add_argument("--images", required=True, help="folder holding the images")
    c.add_argument(
        "--labels",
        required=True,
        help="CSV with a header 'file,label' (one colour per photo), or JSON with boxed "
        'objects: {"images": {"name.jpg": {"objects": [{"label", "box": [x, y, w, h]}]}}}',
    )
    c.add_argument("--out", required=True, help="calibration JSON to write")
    c.add_argument(
        "--per-class",
        type=int,
        default=0,
        help="use only the first N images of each label (default: all)",
    )
    c.add_argument("--base", help="an existing calibration whose regions and camera to keep")
    k = sub.add_parser("classify", help="find and classify the objects in images")
    k.add_argument("--calibration", required=True)
    k.add_argument("--colours", help="comma-separated colours to choose among (default: all)")
    k.add_argument("images", nargs="+")
    g = sub.add_parser("regions", help="set the white patch, tray and card zones of a calibration")
    g.add_argument("--calibration", required=True, help="created if it does not exist")
    g.add_argument("--patch", help="white reference patch X,Y,W,H")
    g.add_argument("--tray", help="ball tray X,Y,W,H")
    g.add_argument("--first-end", choices=["left", "right", "top", "bottom"])
    g.add_argument("--ball-radius", help="MIN,MAX ball radius in pixels")
    g.add_argument("--slot-pitch", type=float, help="pixels between resting balls")
    g.add_argument("--zone", action="append", default=[], help="card zone NAME=X,Y,W,H")
    g.add_argument("--frame-size", help="WxH the regions refer to, e.g. 640x480")
    t = sub.add_parser("calibrate-table", help="learn colours from frames of the real table")
    t.add_argument("--calibration", required=True, help="with regions set; rewritten on success")
    t.add_argument("--empty", required=True, help="frame of the empty tray and table")
    t.add_argument(
        "--balls",
        action="append",
        default=[],
        help="FRAME=colour,colour,... balls in the tray, slot 0 first",
    )
    t.add_argument(
        "--cards",
        action="append",
        default=[],
        help="FRAME=zone:colour,zone:colour one card in each listed zone",
    )
    t.add_argument(
        "--floors",
        help="FRAME[=ZONE] one competitive Laser prism card of each floor (wood, carpet, "
        "ceramic) laid left to right in ZONE (default: centre)",
    )
    read = sub.add_parser("read", help="read what lies on the table in photos")
    what = read.add_subparsers(dest="what", parser_class=type(read))
    read_cards.add_parser(what)
    n = what.add_parser("node", help="the card laid between two frames (Node)")
    n.add_argument("--calibration", required=True, help="a Node table calibration JSON")
    n.add_argument("before")
    n.add_argument("after")
    ring = what.add_parser("laser", help="the Laser ring: tiles, cat and spare figures")
    ring.add_argument("--calibration", required=True, help="a ring calibration JSON")
    ring.add_argument("image")
    r = sub.add_parser("render", help="render a simulated table frame to a PNG")
    r.add_argument("--light", default="daylight")
    r.add_argument("--balls", default="", help="comma-separated colours, slot 0 first")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", required=True)
    return p


def _calibrate(args) -> int:
    from vision import calibration as C
    from vision import learn as L

    images = Path(args.images)
    if not images.is_dir():
        raise UsageError(f"--images {images}: not a folder")
    if not Path(args.labels).is_file():
        raise UsageError(f"--labels {args.labels}: no such file")
    if args.per_class < 0:
        raise UsageError("--per-class must be 0 (all) or more")
    base = C.load(args.base) if args.base else None
    if Path(args.labels).suffix.lower() == ".json":  # boxed objects, several per photo
        if args.per_class:
            raise UsageError("--per-class applies to CSV labels, not to boxes in JSON")
        rows = L.read_boxes(args.labels, images)
        cal = L.calibrate_boxes(rows, base)
    else:
        rows = L.read_labels(args.labels, images)
        if args.per_class:
            rows = L.labelled_subset(rows, args.per_class)
        cal = L.calibrate_images(rows, base)
    store = C.CalibrationStore(args.out)
    store.propose(cal)
    store.accept()
    print(
        json.dumps(
            {"out": str(args.out), "images": len(rows), "prototypes": C.to_json(cal)["prototypes"]},
            indent=2,
        )
    )
    return 0


def _classify(args) -> int:
    from vision import calibration as C
    from vision.detect import classify_image, load_image

    cal = C.load(args.calibration)
    if not cal.prototypes:
        raise UsageError(
            f"calibration {args.calibration} has no colours yet "
            "(learn them with `companion vision calibrate` or `calibrate-table`)"
        )
    allowed = None
    if args.colours:
        allowed = [c.strip().lower() for c in args.colours.split(",") if c.strip()]
        if not allowed:
            raise UsageError("--colours names no colour (e.g. --colours blue,pink)")
        unknown = sorted(set(allowed) - set(cal.colours))
        if unknown:
            raise UsageError(
                f"--colours: the calibration knows no {', '.join(unknown)} "
                f"(it has {', '.join(cal.colours)})"
            )
    for path in args.images:
        frame = load_image(path)
        _patch_inside(cal.white_roi, frame, path)
        print(json.dumps({"image": path, "objects": classify_image(frame, cal, allowed)}))
    return 0


def _patch_inside(roi, frame, path) -> None:
    height, width = frame.shape[:2]
    if roi and (roi[0] >= width or roi[1] >= height):
        raise UsageError(
            f"{path}: the calibration's white patch {tuple(roi)} lies outside this "
            f"{width}x{height} image (set it with `companion vision regions --patch`)"
        )


def _ints(text: str, n: int, what: str) -> tuple[int, ...]:
    try:
        vals = tuple(int(v) for v in text.replace("x", ",").split(","))
    except ValueError:
        vals = ()
    if len(vals) != n or any(v < 0 for v in vals):
        raise UsageError(f"{what} must be {n} whole non-negative numbers, got {text!r}")
    return vals


def _regions(args) -> int:
    import dataclasses

    from vision import calibration as C

    path = Path(args.calibration)
    store = C.CalibrationStore(path)
    cal = store.load() if path.exists() else C.Calibration(prototypes=())
    changes: dict = {}
    if args.patch:
        changes["white_roi"] = _ints(args.patch, 4, "--patch")
    if args.tray:
        changes["tray_roi"] = _ints(args.tray, 4, "--tray")
    if args.first_end:
        changes["first_end"] = args.first_end
    if args.ball_radius:
        lo, hi = _ints(args.ball_radius, 2, "--ball-radius")
        if lo > hi or lo == 0:
            raise UsageError("--ball-radius must be MIN,MAX with 0 < MIN <= MAX")
        changes["ball_radius"] = (float(lo), float(hi))
    if args.slot_pitch is not None:
        if not 0 < args.slot_pitch < float("inf"):  # also refuses nan
            raise UsageError("--slot-pitch must be a positive number of pixels")
        changes["slot_pitch"] = args.slot_pitch
    if args.zone:
        zones = dict(cal.card_zones)
        for z in args.zone:
            name, _, rect = z.partition("=")
            if not name or not rect:
                raise UsageError(f"--zone must be NAME=X,Y,W,H, got {z!r}")
            zones[name] = _ints(rect, 4, f"--zone {name}")
        changes["card_zones"] = tuple(zones.items())
    if args.frame_size:
        changes["frame_size"] = _ints(args.frame_size, 2, "--frame-size")
    new = dataclasses.replace(cal, **changes)
    try:  # validate before writing anything: what fails here came from the command line
        C.from_json(json.loads(json.dumps(C.to_json(new))))
    except C.CalibrationError as exc:
        raise UsageError(f"vision regions: {exc}") from None
    store.propose(new)
    store.accept()
    print(json.dumps({k: v for k, v in C.to_json(new).items() if k != "prototypes"}, indent=2))
    return 0


def _calibrate_table(args) -> int:
    from vision import calibration as C
    from vision import learn as L
    from vision.detect import load_frame

    base = C.load(args.calibration)
    if not args.balls and not args.cards and not args.floors:
        raise UsageError("give at least one --balls, --cards or --floors frame")
    empty = load_frame(args.empty, base.frame_size)

    def frame_of(path):  # every frame the size of the empty one: the regions are its pixels
        return load_frame(path, empty.shape[1::-1])

    balls, cards = [], []
    for item in args.balls:
        name, _, colours = item.partition("=")
        want = [c.strip().lower() for c in colours.split(",") if c.strip()]
        if not want:
            raise UsageError(f"--balls must be FRAME=colour,colour,..., got {item!r}")
        balls += L.tray_samples(base, empty, frame_of(name), want)
    for item in args.cards:
        name, _, spec = item.partition("=")
        pairs = [p.split(":", 1) for p in spec.split(",") if p.strip()]
        if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
            raise UsageError(f"--cards must be FRAME=zone:colour,..., got {item!r}")
        cards += L.card_samples(
            base, empty, frame_of(name), {z.strip(): c.strip().lower() for z, c in pairs}
        )
    new = L.calibrate_table(base, balls, cards) if balls or cards else base
    if args.floors:
        name, _, zone = args.floors.partition("=")
        new = replace(new, floors=_floors(new, empty, frame_of(name), zone))
    store = C.CalibrationStore(args.calibration)
    store.propose(new)
    new = store.accept()
    out = {"out": str(args.calibration), "balls": len(balls), "cards": len(cards)}
    if args.floors:
        out["floors"] = {f: list(m) for f, m in new.floors.items()}
    print(json.dumps(out | {"prototypes": C.to_json(new)["prototypes"]}, indent=2))
    return 0


def _floors(cal, empty, frame, zone: str) -> dict:
    """The floor patterns learnt from `--floors FRAME[=ZONE]`."""
    from vision.errors import CalibrationError
    from vision.floor_texture import FLOORS, learn_floors

    zone = zone.strip() or "centre"
    if zone not in dict(cal.card_zones):
        raise UsageError(
            f"--floors: the calibration has no card zone {zone!r} "
            "(set it with `companion vision regions --zone NAME=X,Y,W,H`)"
        )
    try:
        return learn_floors(frame, empty, cal, FLOORS, zone)
    except CalibrationError as exc:
        raise UsageError(f"--floors: {exc}") from None


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


def _read(args) -> int:
    if args.what == "cards":
        return read_cards.run(args)
    if args.what == "node":
        from vision.node_cli import read_node

        return read_node(args)
    if args.what == "laser":
        from vision.ring_reader import read_command

        return read_command(args)
    raise UsageError("companion vision read: say what to read (cards, node or laser)")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    commands = {
        "calibrate": _calibrate,
        "classify": _classify,
        "regions": _regions,
        "calibrate-table": _calibrate_table,
        "render": _render,
        "read": _read,
    }
    return commands[args.command](args)
