"""What every `companion vision read` subcommand shares: the ask threshold it reads with and
the calibration it reads by, checked before any photo is opened."""

from __future__ import annotations

from pathlib import Path

from companion.errors import UsageError
from companion.settings import Settings


def add_ask_below(parser) -> None:
    parser.add_argument(
        "--ask-below",
        type=float,
        default=Settings().ask_threshold,
        help="confidence below which the app asks a person (default: the app's setting)",
    )


def checked_calibration(args):
    """The calibration of `--calibration`, once it and `--ask-below` are known good."""
    from vision import calibration as C

    if not Path(args.calibration).is_file():
        raise UsageError(f"--calibration {args.calibration}: no such file")
    if not 0.0 <= args.ask_below <= 1.0:
        raise UsageError("--ask-below must be a confidence between 0 and 1")
    return C.load(args.calibration)


def ready(make, empty: str, args):
    """The reader `make()` builds on the empty photo `empty`, or the reason it cannot read
    (a calibration it cannot use, a camera moved since); the empty photo is reported when
    it was the first IMAGE."""
    import json

    from vision.errors import CalibrationError

    try:
        reader = make()
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None
    if reader.moved:
        raise UsageError(f"{empty}: the camera has moved: check the camera set-up")
    if not args.empty:
        print(json.dumps({"image": empty, "empty": True}))
    return reader
