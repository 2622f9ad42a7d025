"""Camera sources behind one interface (`FrameSource`): the Pi camera (picamera2, when
importable), anything OpenCV's VideoCapture opens (USB webcam by index, video file, network
stream), a folder of images, and rendered frames. `open_source` makes one from a setting.
`vision.camera.Camera` reads any of them on its own thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import CameraError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


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

    def __init__(
        self, target: int | str, size: tuple[int, int] | None = None, fps: float | None = None
    ):
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
        props = {
            "exposure": cv2.CAP_PROP_EXPOSURE,
            "gain": cv2.CAP_PROP_GAIN,
            "wb_temperature": cv2.CAP_PROP_WB_TEMPERATURE,
        }
        return {"source": "opencv", **{k: float(self._cap.get(p)) for k, p in props.items()}}

    def lock(self, settings: Mapping[str, Any]) -> None:
        """Turn auto exposure and auto white balance off at the calibrated values."""
        if self._cap is None:
            return
        self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 0.25)  # V4L2: 0.25 = manual
        self._cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        for key, prop in (
            ("exposure", cv2.CAP_PROP_EXPOSURE),
            ("gain", cv2.CAP_PROP_GAIN),
            ("wb_temperature", cv2.CAP_PROP_WB_TEMPERATURE),
        ):
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
            cam.configure(
                cam.create_video_configuration(main={"size": tuple(self.size), "format": "RGB888"})
            )
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
        return {
            "source": "picamera2",
            "ExposureTime": int(md["ExposureTime"]),
            "AnalogueGain": float(md["AnalogueGain"]),
            "ColourGains": [float(g) for g in md["ColourGains"]],
        }

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
        if not path.is_file():
            raise CameraError(
                f"{self.name} is gone"
                if not self.folder.is_dir()
                else f"{path.name} vanished from {self.name}"
            )
        from companion.errors import UsageError
        from vision.image_limits import check_image

        try:
            check_image(path)  # never decode what would not fit in memory
        except UsageError as exc:
            raise CameraError(f"{exc} in {self.name}") from None
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(
                f"{self.name} is gone"
                if not self.folder.is_dir()
                else f"cannot read {path.name} in {self.name}"
            )
        return frame

    def close(self) -> None:
        self._files = []

    def settings(self) -> dict[str, Any]:
        return {"source": "images", "folder": str(self.folder)}

    def lock(self, settings: Mapping[str, Any]) -> None:
        pass


class RenderedSource:
    """Frames from a function of the frame number, e.g. `lambda i: render_tray(...)`."""

    def __init__(
        self, frames: Callable[[int], np.ndarray], fps: float = 30.0, name: str = "rendered table"
    ):
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
