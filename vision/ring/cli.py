"""The Laser ring from the command line, as the set-up screen does it:

    companion vision calibrate-ring --out ring.json --empty EMPTY.jpg
        [--from ring.json] [--tiles X,Y;X,Y;... | --ellipse CX,CY,RX,RY[,FIRST]]
        [--tile-size PX] [--patch X,Y,W,H] [--card COLOUR=X,Y,W,H | COLOUR=X1,Y1,...,X4,Y4]...
        --figure FRAME=COLOUR ... (one figure of each colour and the cat, on any tile)
    companion vision read laser --calibration ring.json --empty EMPTY.jpg IMAGE...

The geometry (where the tiles and cards roughly lie on the empty ring, how big a tile is,
where the white patch is) comes from `--from` (a ring calibration, e.g. the set-up screen's)
and the other options, which override it. Reading finds the ring anew on `--empty` (the
empty ring of the game being read) and prints one JSON line per image.

Bad input (a missing or unreadable file, a wrong size, a calibration that is not a ring
one, a photo the ring cannot be learnt from) is one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import UsageError

if TYPE_CHECKING:
    import numpy as np

FIGURES = "red, yellow, green, cyan, blue, magenta or cat"


def add_calibrate_parser(sub) -> None:
    c = sub.add_parser(
        "calibrate-ring",
        help="learn the Laser ring from photos: the empty ring and one figure of each colour",
        description="Learn the Laser ring from photos of the set-up: the empty ring (tiles "
        "and colour cards laid, nothing on them), then one photo per figure colour and one "
        "of the cat, each standing alone on any tile. Geometry: --from an existing ring "
        "calibration, or --tiles/--ellipse, --tile-size, --patch and a --card per colour.",
    )
    c.add_argument("--out", required=True, help="ring calibration JSON to write")
    c.add_argument("--empty", required=True, help="photo of the empty ring")
    c.add_argument(
        "--figure",
        action="append",
        default=[],
        metavar="FRAME=COLOUR",
        help=f"a photo with one figure on the ring; COLOUR is {FIGURES}",
    )
    c.add_argument("--from", dest="base", help="a ring calibration whose geometry to start from")
    c.add_argument("--tiles", help="the 12 tile centres X,Y;X,Y;... clockwise from the top one")
    c.add_argument("--ellipse", help="the tiles on an ellipse: CX,CY,RX,RY[,FIRST angle]")
    c.add_argument("--tile-size", type=float, help="a tile's side (or diameter), pixels")
    c.add_argument("--patch", help="the white patch X,Y,W,H")
    c.add_argument(
        "--card",
        action="append",
        default=[],
        metavar="COLOUR=X,Y,W,H",
        help="a colour card: X,Y,W,H or its four corners X1,Y1,...,X4,Y4",
    )


def add_read_parser(what) -> None:
    r = what.add_parser(
        "laser",
        help="the Laser ring: what stands on each tile, the spares on each colour card",
    )
    r.add_argument("--calibration", required=True, help="a ring calibration JSON")
    r.add_argument("--empty", required=True, help="photo of this game's empty ring")
    r.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="ask about readings less sure than this (default 0.8)",
    )
    r.add_argument("images", nargs="+")


def load_image(path: str) -> np.ndarray:
    """A photo as a BGR frame; a missing or unreadable file is a UsageError."""
    import cv2

    frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if Path(path).is_file() else None
    if frame is None:
        why = "no such file" if not Path(path).exists() else "not an image OpenCV can read"
        raise UsageError(f"cannot read image {path}: {why}")
    return frame


def _numbers(text: str, what: str) -> list[float]:
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        values = []
    if not values or not all(math.isfinite(v) for v in values):
        raise UsageError(f"{what} must be numbers separated by commas, got {text!r}")
    return values


def _geometry(args):
    from vision.errors import CalibrationError
    from vision.ring.calibration import (
        COLOURS,
        TILES,
        RingCalibration,
        ellipse_tiles,
        load,
        rect_corners,
    )

    base = None
    if args.base:
        try:
            base = load(args.base)
        except CalibrationError as exc:
            raise UsageError(f"--from {args.base}: {exc}") from None
    tiles = base.tiles if base else None
    if args.tiles and args.ellipse:
        raise UsageError("give the tiles as --tiles or as --ellipse, not both")
    if args.tiles:
        v = _numbers(args.tiles, "--tiles")
        if len(v) != 2 * TILES:
            raise UsageError(f"--tiles must give {TILES} points X,Y;X,Y;..., got {len(v) // 2}")
        tiles = tuple((v[2 * i], v[2 * i + 1]) for i in range(TILES))
    if args.ellipse:
        v = _numbers(args.ellipse, "--ellipse")
        if len(v) not in (4, 5) or min(v[2:4]) <= 0:
            raise UsageError("--ellipse must be CX,CY,RX,RY[,FIRST] with positive radii")
        tiles = ellipse_tiles((v[0], v[1]), (v[2], v[3]), v[4] if len(v) == 5 else -90.0)
    size = args.tile_size if args.tile_size is not None else (base.tile if base else None)
    if size is not None and not 0 < size < math.inf:
        raise UsageError("--tile-size must be a positive number of pixels")
    patch = base.white_roi if base else None
    if args.patch:
        v = _numbers(args.patch, "--patch")
        if len(v) != 4 or min(v) < 0 or min(v[2:]) <= 0:
            raise UsageError("--patch must be X,Y,W,H, whole and not negative")
        patch = tuple(int(round(x)) for x in v)
    cards = dict(base.cards) if base else {}
    for item in args.card:
        colour, _, spec = item.partition("=")
        colour = colour.strip().lower()
        if colour not in COLOURS:
            raise UsageError(f"--card {item!r}: the colour must be one of {', '.join(COLOURS)}")
        v = _numbers(spec, f"--card {colour}")
        if len(v) == 4:
            if min(v[2:]) <= 0:
                raise UsageError(f"--card {colour}: width and height must be positive")
            cards[colour] = rect_corners(v)
        elif len(v) == 8:
            cards[colour] = tuple((v[2 * i], v[2 * i + 1]) for i in range(4))
        else:
            raise UsageError(f"--card {colour} must be X,Y,W,H or four corners X1,Y1,...,X4,Y4")
    missing = [
        what
        for what, have in (
            ("--tiles or --ellipse", tiles),
            ("--tile-size", size),
            ("--patch", patch),
        )
        if have is None
    ]
    missing += [f"--card {c}=..." for c in COLOURS if c not in cards]
    if missing:
        raise UsageError(f"the ring's geometry needs {', '.join(missing)} (or --from a ring file)")
    # drawn on frames of the base's size (none yet without a base)
    return RingCalibration(base.frame_size if base else (0, 0), tiles, float(size), cards, patch)


def calibrate_ring(args) -> int:
    from dataclasses import replace

    from vision.errors import CalibrationError
    from vision.layout import CameraMoved
    from vision.ring.calibration import CAT, COLOURS, from_json, to_json
    from vision.ring.learning import calibrate, look_alikes

    geometry = _geometry(args)
    empty = load_image(args.empty)
    size = (empty.shape[1], empty.shape[0])
    if args.base and tuple(geometry.frame_size) != size:
        w, h = geometry.frame_size
        raise UsageError(
            f"--from {args.base} was drawn on {w}x{h} frames; {args.empty} is {size[0]}x{size[1]}"
        )
    geometry = replace(geometry, frame_size=size)
    figures = []
    for item in args.figure:
        path, _, colour = item.rpartition("=")
        colour = colour.strip().lower()
        if not path or colour not in (*COLOURS, CAT):
            raise UsageError(f"--figure must be FRAME=COLOUR with COLOUR {FIGURES}, got {item!r}")
        figures.append((load_image(path), colour))
    named = [c for _, c in figures]
    lacking = [c for c in (*COLOURS, CAT) if c not in named]
    if lacking:
        raise UsageError(f"--figure: no photo of {', '.join(lacking)} (one of each is needed)")
    try:
        from_json(json.loads(json.dumps(to_json(geometry))))  # the geometry itself is sound
        cal = calibrate(geometry, empty, figures)
    except (CalibrationError, CameraMoved) as exc:
        raise UsageError(f"calibrate-ring: {exc}") from None
    Path(args.out).write_text(json.dumps(to_json(cal), indent=1), encoding="utf-8")
    pairs = look_alikes(cal)
    print(
        json.dumps(
            {
                "out": str(args.out),
                "tile": cal.tile,
                "learnt": sorted({p.colour for p in cal.prototypes}),
                "look_alike": [list(p) for p in pairs],
                "note": " ".join(
                    f"{a} and {b} look alike under this light: the app will ask between them."
                    for a, b in pairs
                ),
            },
            indent=2,
        )
    )
    return 0


def read_laser(args) -> int:
    from vision.errors import CalibrationError
    from vision.layout import CameraMoved
    from vision.ring.calibration import load
    from vision.ring.reader import RingReader
    from vision.ring.reading import ASK_BELOW

    if not Path(args.calibration).is_file():
        raise UsageError(f"--calibration {args.calibration}: no such file")
    threshold = ASK_BELOW if args.threshold is None else args.threshold
    if not 0 < threshold <= 1:
        raise UsageError("--threshold must lie between 0 and 1")
    try:
        reader = RingReader(load(args.calibration), ask_threshold=threshold)
        reader.find(load_image(args.empty))
    except (CalibrationError, CameraMoved) as exc:
        raise UsageError(f"read laser: {exc}") from None
    busy = reader.not_empty()
    if busy:
        raise UsageError(
            f"--empty {args.empty}: something stands on {', '.join(busy)}; give a photo of "
            "the ring with nothing on its tiles and cards"
        )
    for path in args.images:
        try:
            reading = reader.read(load_image(path))
        except CalibrationError as exc:
            raise UsageError(f"{path}: {exc}") from None
        print(json.dumps({"image": path, **reading.to_json()}))
    return 0
