"""Camera sources behind one interface, and a capture thread with a latest-frame slot.

Sources: the Pi camera (picamera2, when importable), anything OpenCV's VideoCapture opens
(USB webcam by index, video file, network stream), a folder of images, and rendered frames.
`Camera` reads a source on its own thread and keeps only the newest frame, so the app never
waits for the camera and never falls behind. When the source fails (cable pulled, file or
folder gone) the status becomes DISCONNECTED, the callback is told, and the thread keeps
trying to reopen it; when it is back the status returns to RUNNING. While DISCONNECTED the
app asks on screen instead of reading. Status callbacks run on the capture thread: a Kivy app
hands them over with `Clock.schedule_once`.
"""

from __future__ import annotations

import enum
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import CameraError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class CameraStatus(enum.Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    DISCONNECTED = "disconnected"


class FrameSource(Protocol):
    name: str
    fps: float | None  # pace for sources that are not live (files); None: the source paces

    def open(self) -> None: ...
    def read(self) -> np.ndarray: ...
    def close(self) -> None: ...
    def settings(self) -> dict[str, Any]: ...
    def lock(self, settings: Mapping[str, Any]) -> None: ...


class OpenCVSource:
    """A USB webcam (int index), a video file (looped) or a stream URL through VideoCapture."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None,
                 fps: float | None = None):
        self.target = target
        self.size = size
        self.is_file = isinstance(target, str) and "://" not in target
        self.fps = fps if fps is not None else (30.0 if self.is_file else None)
        self.name = f"camera {target}" if isinstance(target, int) else f"video {target}"
        self._cap: cv2.VideoCapture | None = None

    def __repr__(self) -> str:
        return f"<OpenCVSource {self.target!r}>"

    def open(self) -> None:
        if self.is_file and not os.path.exists(self.target):
            raise CameraError(f"{self.name} is gone")
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open {self.name}")
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"{self.name} is not open")
        if self.is_file and not os.path.exists(self.target):
            raise CameraError(f"{self.name} is gone")
        ok, frame = self._cap.read()
        if not ok and self.is_file:  # end of the file: play it again, like a live feed
            self._cap.release()
            self.open()
            ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self.name} stopped delivering frames (unplugged?)")
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def settings(self) -> dict[str, Any]:
        if self._cap is None:
            return {}
        props = {"exposure": cv2.CAP_PROP_EXPOSURE, "gain": cv2.CAP_PROP_GAIN,
                 "wb_temperature": cv2.CAP_PROP_WB_TEMPERATURE}
        return {"source": "opencv", **{k: float(self._cap.get(p)) for k, p in props.items()}}

    def lock(self, settings: Mapping[str, Any]) -> None:
        """Turn auto exposure and auto white balance off at the calibrated values."""
        if self._cap is None:
            return
        self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)  # V4L2: 0.25 = manual
        self._cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        for key, prop in (("exposure", cv2.CAP_PROP_EXPOSURE), ("gain", cv2.CAP_PROP_GAIN),
                          ("wb_temperature", cv2.CAP_PROP_WB_TEMPERATURE)):
            if key in settings:
                self._cap.set(prop, float(settings[key]))


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (frames in BGR order, as OpenCV expects)."""

    fps = None

    def __init__(self, size: tuple[int, int] = (640, 480)):
        self.size = size
        self.name = "Pi camera"
        self._cam = None

    @staticmethod
    def available() -> bool:
        try:
            import picamera2  # noqa: F401
        except Exception:
            return False
        return True

    def open(self) -> None:
        try:
            from picamera2 import Picamera2

            cam = Picamera2()
            # "RGB888" arrays are laid out B, G, R: OpenCV's order
            cam.configure(cam.create_video_configuration(
                main={"size": tuple(self.size), "format": "RGB888"}))
            cam.start()
        except Exception as exc:
            raise CameraError(f"cannot open the Pi camera: {exc}") from None
        self._cam = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError("the Pi camera is not open")
        try:
            return self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped delivering frames: {exc}") from None

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None

    def settings(self) -> dict[str, Any]:
        if self._cam is None:
            return {}
        md = self._cam.capture_metadata()
        return {"source": "picamera2", "ExposureTime": int(md["ExposureTime"]),
                "AnalogueGain": float(md["AnalogueGain"]),
                "ColourGains": [float(g) for g in md["ColourGains"]]}

    def lock(self, settings: Mapping[str, Any]) -> None:
        """Freeze exposure and white balance at the calibrated values."""
        if self._cam is None:
            return
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain"):
            if key in settings:
                controls[key] = settings[key]
        if "ColourGains" in settings:
            controls["ColourGains"] = tuple(settings["ColourGains"])
        self._cam.set_controls(controls)


class ImageDirSource:
    """The images of a folder in name order, looped: a camera stand-in and a replay tool."""

    def __init__(self, folder: str | Path, fps: float = 10.0):
        self.folder = Path(folder)
        self.fps = fps
        self.name = f"image folder {self.folder}"
        self._files: list[Path] = []
        self._next = 0

    def __repr__(self) -> str:
        return f"<ImageDirSource {str(self.folder)!r}>"

    def open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"{self.name} is gone")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise CameraError(f"{self.name} holds no images")
        self._next = 0

    def read(self) -> np.ndarray:
        if not self._files:
            raise CameraError(f"{self.name} is not open")
        path = self._files[self._next % len(self._files)]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{self.name} is gone" if not self.folder.is_dir()
                              else f"cannot read {path.name} in {self.name}")
        return frame

    def close(self) -> None:
        self._files = []

    def settings(self) -> dict[str, Any]:
        return {"source": "images", "folder": str(self.folder)}

    def lock(self, settings: Mapping[str, Any]) -> None:
        pass


class RenderedSource:
    """Frames from a function of the frame number, e.g. `lambda i: render_tray(...)`."""

    def __init__(self, frames: Callable[[int], np.ndarray], fps: float = 30.0,
                 name: str = "rendered table"):
        self.frames = frames
        self.fps = fps
        self.name = name
        self._i = 0

    def open(self) -> None:
        self._i = 0

    def read(self) -> np.ndarray:
        frame = self.frames(self._i)
        self._i += 1
        if frame is None:
            raise CameraError(f"{self.name} has no frame {self._i - 1}")
        return frame

    def close(self) -> None:
        pass

    def settings(self) -> dict[str, Any]:
        return {"source": "rendered"}

    def lock(self, settings: Mapping[str, Any]) -> None:
        pass


def open_source(spec: str | int, size: tuple[int, int] = (640, 480)) -> FrameSource:
    """A source from a setting string: "picamera", "auto", a webcam index, a video file or
    stream URL, or a folder of images."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return OpenCVSource(int(spec), size=size)
    if spec in ("picamera", "auto"):
        if PiCameraSource.available():
            return PiCameraSource(size)
        if spec == "picamera":
            raise CameraError("picamera2 is not installed (is this a Raspberry Pi?)")
        return OpenCVSource(0, size=size)
    if Path(spec).is_dir():
        return ImageDirSource(spec)
    return OpenCVSource(spec)


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    seq: int  # 1, 2, 3, ... in capture order
    time: float  # monotonic seconds at capture


class Camera:
    """Capture thread with a latest-frame slot, a status and a status callback.

    `on_status(status, message)` is called on every change (from the capture thread).
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        on_status: Callable[[CameraStatus, str], None] | None = None,
        retry_seconds: float = 0.5,
    ):
        self.source = source
        self.on_status = on_status
        self.retry_seconds = retry_seconds
        self.status = CameraStatus.STOPPED
        self.message = ""
        self._slot: Frame | None = None
        self._seq = 0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<Camera {self.source.name}: {self.status.value}>"

    def __enter__(self) -> Camera:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._set(CameraStatus.STARTING, f"opening {self.source.name}")
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._set(CameraStatus.STOPPED, "camera stopped")

    def latest(self) -> Frame | None:
        """The newest frame, without waiting (None before the first one)."""
        return self._slot

    def wait(self, after: int = 0, timeout: float = 2.0) -> Frame | None:
        """The first frame newer than sequence number `after`, or None after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._slot is None or self._slot.seq <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._slot

    def _set(self, status: CameraStatus, message: str) -> None:
        changed = status != self.status
        self.status, self.message = status, message
        if changed and self.on_status is not None:
            try:
                self.on_status(status, message)
            except Exception:  # a faulty listener must not kill the capture thread
                pass

    def _run(self) -> None:
        src = self.source
        is_open = False
        next_t = time.monotonic()
        while not self._stop.is_set():
            if not is_open:
                try:
                    src.open()
                    is_open = True
                except CameraError as exc:
                    self._set(CameraStatus.DISCONNECTED, f"{exc}; the table will ask instead")
                    self._stop.wait(self.retry_seconds)
                    continue
            try:
                image = src.read()
            except CameraError as exc:
                src.close()
                is_open = False
                self._set(CameraStatus.DISCONNECTED, f"{exc}; the table will ask instead")
                self._stop.wait(self.retry_seconds)
                continue
            with self._cond:
                self._seq += 1
                self._slot = Frame(image, self._seq, time.monotonic())
                self._cond.notify_all()
            if self.status is not CameraStatus.RUNNING:
                self._set(CameraStatus.RUNNING, f"{src.name} running")
            if src.fps:  # files and renders: keep the pace of a real camera
                next_t = max(next_t + 1.0 / src.fps, time.monotonic() - 1.0)
                self._stop.wait(max(0.0, next_t - time.monotonic()))
        if is_open:
            src.close()
