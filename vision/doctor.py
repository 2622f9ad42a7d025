"""`companion doctor`, camera part: the camera delivers frames, the calibration loads, the
ball reader reads a round.

With --simulate (or when no camera is found on a machine that is not a Pi) the camera is the
rendered table. The checks never change a file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.checks import CheckResult

CALIBRATION_NAME = "camera-calibration.json"
FRAME_TIMEOUT = 3.0


def calibration_path(data_dir: Path) -> Path:
    """Where the app keeps the camera calibration in its data dir."""
    return Path(data_dir) / CALIBRATION_NAME


def _part(name: str):
    def wrap(fn):
        fn.part = name
        return fn

    return wrap


def checks(args) -> list[Callable[[], CheckResult]]:
    simulate = bool(getattr(args, "simulate", False))

    @_part("camera")
    def camera() -> CheckResult:
        from vision.camera import Camera
        from vision.render.tray import render_tray
        from vision.sources import RenderedSource, open_source

        if simulate:
            source = RenderedSource(lambda i: render_tray([], "daylight", 0, frame=i))
        else:
            source = open_source(getattr(args, "camera", None) or "auto")
        with Camera(source) as cam:
            frame = cam.wait(0, timeout=FRAME_TIMEOUT)
            if frame is None:
                return CheckResult("camera", False, cam.message or "no frame within 3 s")
            h, w = frame.image.shape[:2]
            return CheckResult("camera", True, f"{source.name}: {w}x{h}")

    @_part("camera calibration")
    def calibration() -> CheckResult:
        from companion import paths
        from vision.calibration import CalibrationStore
        from vision.errors import CalibrationError

        if simulate:
            return CheckResult("camera calibration", True, "rendered table (simulation)")
        path = calibration_path(paths.data_dir(getattr(args, "data_dir", None)))
        if not path.exists():
            return CheckResult(
                "camera calibration",
                False,
                f"not calibrated yet ({path}); the table asks for every reading",
            )
        store = CalibrationStore(path)
        try:
            cal = store.load()
        except CalibrationError as exc:
            return CheckResult("camera calibration", False, str(exc))
        detail = store.message or f"{len(cal.colours)} colours: {', '.join(cal.colours)}"
        return CheckResult("camera calibration", store.message is None, detail)

    @_part("ball reader")
    def ball_reader() -> CheckResult:
        from vision.balls import BallReader
        from vision.learn import rendered_calibration
        from vision.render.tray import arrival_frames

        want = ["pink", "blue", "purple", "green", "orange"]
        reader = BallReader(rendered_calibration(0))
        got = []
        for frame in arrival_frames(want, "tungsten", 4242):
            got += reader.feed(frame)
        read = [e.colour for e in got]
        ok = read == want and all(e.confidence >= 0.8 for e in got)
        return CheckResult("ball reader", ok, f"rendered round read as {', '.join(read)}")

    return [camera, calibration, ball_reader]
