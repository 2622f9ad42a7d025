"""`companion vision ...`: calibrate the colour classifier from labelled images, classify images.

    companion vision calibrate --images DIR --labels CSV --out calib.json [--per-class N]
    companion vision classify --calibration calib.json [--colours a,b,...] IMAGE...
    companion vision regions --calibration calib.json [--patch X,Y,W,H] [--tray X,Y,W,H]
        [--first-end left] [--ball-radius MIN,MAX] [--slot-pitch PX] [--zone NAME=X,Y,W,H]...
    companion vision calibrate-table --calibration calib.json --empty EMPTY.png
        [--balls FRAME=blue,pink,...]... [--cards FRAME=seat1:blue,seat2:pink]...
        [--floors FRAME[=ZONE]]
    companion vision calibrate-node --empty EMPTY.jpg --card FRAME=red [--card ...] --out node.json
    companion vision render --light tungsten --balls blue,pink --out frame.png
    companion vision render-set --out DIR [--setups N] [--seed S]
    companion vision read balls --calibration calib.json [--empty EMPTY.png] IMAGE...
    companion vision read cards --calibration calib.json [--empty EMPTY.png] [--set NAME]
        [--floors] IMAGE...
    companion vision calibrate-ring --out ring.json --empty EMPTY.jpg [--from ring.json]
        [--tiles X,Y;... | --ellipse CX,CY,RX,RY] [--tile-size PX] [--patch X,Y,W,H]
        [--card COLOUR=X,Y,W,H]... --figure FRAME=COLOUR... (each colour and the cat)
    companion vision read laser --calibration ring.json --empty EMPTY.jpg IMAGE...
    companion vision calibrate-node --empty EMPTY.jpg --card FRAME=colour... --out node.json
    companion vision read node --calibration node.json [--first FIRST.jpg] BEFORE.jpg AFTER.jpg

Bad input is a one-line UsageError (exit 2); a damaged calibration file, a CalibrationError.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from companion.errors import UsageError
from vision import read_balls, read_cards
from vision.node import cli as node_cli
from vision.ring import cli as ring_cli


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
    g.add_argument("--card-area", help="MIN,MAX area of a card in pixels")
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
        "--set",
        dest="colour_set",
        help="the set the --cards colours belong to (one game's cards, e.g. color-milk)",
    )
    t.add_argument(
        "--floors",
        help="FRAME[=ZONE] one competitive Laser prism card of each floor (wood, carpet, "
        "ceramic) laid left to right in ZONE (default: centre)",
    )
    ring_cli.add_calibrate_parser(sub)
    node_cli.add_calibrate_parser(sub)
    read = sub.add_parser("read", help="read what lies on the table in photos")
    what = read.add_subparsers(dest="what", parser_class=type(read))
    read_cards.add_parser(what)
    read_balls.add_parser(what)
    node_cli.add_read_parser(what)
    ring_cli.add_read_parser(what)
    r = sub.add_parser("render", help="render a simulated table frame to a PNG")
    r.add_argument("--light", default="daylight")
    r.add_argument("--balls", default="", help="comma-separated colours, slot 0 first")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", required=True)
    rs = sub.add_parser(
        "render-set", help="write a development set of the four scenes under spectral light"
    )
    rs.add_argument("--out", required=True, help="folder to write (frames, truth.json, README)")
    rs.add_argument("--setups", type=int, default=12, help="set-ups per scene (default 12)")
    rs.add_argument("--seed", type=int, default=0)
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
    if args.card_area:
        lo, hi = _ints(args.card_area, 2, "--card-area")
        if lo > hi or lo == 0:
            raise UsageError("--card-area must be MIN,MAX with 0 < MIN <= MAX")
        changes["card_area"] = (float(lo), float(hi))
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
    from vision.registration import encode_reference

    base = C.load(args.calibration)
    if not args.balls and not args.cards and not args.floors:
        raise UsageError("give at least one --balls, --cards or --floors frame")
    if args.cards and not args.colour_set:
        raise UsageError("--set: say which cards these are (e.g. --set color-milk)")
    empty = load_frame(args.empty, base.frame_size)
    # the empty table the regions were drawn on: each game finds them again from it
    base = replace(base, reference=encode_reference(empty))

    def frame_of(path):  # every frame the size of the empty one: the regions are its pixels
        return load_frame(path, empty.shape[1::-1])

    balls, cards, rests = [], [], []
    for item in args.balls:
        name, _, colours = item.partition("=")
        want = [c.strip().lower() for c in colours.split(",") if c.strip()]
        if not want:
            raise UsageError(f"--balls must be FRAME=colour,colour,..., got {item!r}")
        balls += L.tray_samples(base, empty, frame_of(name), want)
        rests.append(L.tray_rests(base, empty, frame_of(name)))
    if rests and base.slot_pitch is None:  # where the balls came to rest: the tray's pitch
        base = replace(base, slot_pitch=L.pitch_of(rests))
    for item in args.cards:
        name, _, spec = item.partition("=")
        pairs = [p.split(":", 1) for p in spec.split(",") if p.strip()]
        if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
            raise UsageError(f"--cards must be FRAME=zone:colour,..., got {item!r}")
        cards += L.card_samples(
            base, empty, frame_of(name), {z.strip(): c.strip().lower() for z, c in pairs}
        )
    new = L.calibrate_table(base, balls, cards, args.colour_set or "") if balls or cards else base
    if args.floors:
        name, _, zone = args.floors.partition("=")
        new = replace(new, floors=_floors(new, empty, frame_of(name), zone))
    store = C.CalibrationStore(args.calibration)
    store.propose(new)
    new = store.accept()
    out = {"out": str(args.calibration), "balls": len(balls), "cards": len(cards)}
    for colour_set in new.colour_sets:
        alike = new.classifier_for(colour_set).look_alike()
        if alike:  # said at set-up: the app will ask between them
            out.setdefault("look_alike", {})[colour_set] = [list(p) for p in alike]
    if args.floors:
        out["floors"] = {f: list(m) for f, m in new.floors.items()}
    print(json.dumps(out | {"prototypes": C.to_json(new)["prototypes"]}, indent=2))
    return 0


def _floors(cal, empty, frame, zone: str) -> dict:
    """The floor patterns learnt from `--floors FRAME[=ZONE]`."""
    from vision.errors import CalibrationError
    from vision.floor_texture import FLOORS
    from vision.learn import learn_floors

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

    from vision.render.tray import LIGHTS, SPECTRAL_LIGHTS, render_tray

    if args.light not in LIGHTS + SPECTRAL_LIGHTS:
        raise UsageError(f"--light must be one of {', '.join(LIGHTS + SPECTRAL_LIGHTS)}")
    balls = [b.strip() for b in args.balls.split(",") if b.strip()]
    try:
        frame = render_tray(balls, args.light, args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if not cv2.imwrite(args.out, frame):
        raise UsageError(f"cannot write {args.out}")
    return 0


def _render_set(args) -> int:
    from vision.render.dataset import write_set

    if args.setups < 1:
        raise UsageError("--setups must be at least 1")
    truth = write_set(Path(args.out), args.setups, args.seed)
    frames = sum(len(v) for v in truth.values())
    print(json.dumps({"out": args.out, "frames": frames, "scenes": list(truth)}))
    return 0


def _read(args) -> int:
    if args.what == "cards":
        return read_cards.run(args)
    if args.what == "balls":
        return read_balls.run(args)
    if args.what == "node":
        return node_cli.read_node(args)
    if args.what == "laser":
        return ring_cli.read_laser(args)
    raise UsageError("companion vision read: say what to read (balls, cards, node or laser)")


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
        "calibrate-ring": ring_cli.calibrate_ring,
        "calibrate-node": node_cli.calibrate,
        "render": _render,
        "render-set": _render_set,
        "read": _read,
    }
    return commands[args.command](args)
