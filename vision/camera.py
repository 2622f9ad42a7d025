"""A capture thread with a latest-frame slot, over any camera source (vision.sources).

`Camera` reads a source on its own thread and keeps only the newest frame, so the app never
waits for the camera and never falls behind. When the source fails (cable pulled, file or
folder gone, or anything else a source raises) the status becomes DISCONNECTED, the callback
is told, and the thread keeps trying to reopen it; when it is back the status returns to
RUNNING. While DISCONNECTED the app asks on screen instead of reading. Status callbacks run on
the capture thread: a Kivy app hands them over with `Clock.schedule_once`.
"""

from __future__ import annotations

import contextlib
import enum
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.errors import CameraError
from vision.sources import FrameSource


class CameraStatus(enum.Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    DISCONNECTED = "disconnected"


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
            # a faulty listener must not kill the capture thread
            with contextlib.suppress(Exception):
                self.on_status(status, message)

    def _run(self) -> None:
        src = self.source
        is_open = False
        next_t = time.monotonic()
        while not self._stop.is_set():
            if not is_open:
                try:
                    src.open()
                    is_open = True
                except Exception as exc:  # e.g. OSError: unplugged between check and use
                    self._set(
                        CameraStatus.DISCONNECTED, f"{_said(src, exc)}; the table asks instead"
                    )
                    self._stop.wait(self.retry_seconds)
                    continue
            try:
                image = src.read()
            except Exception as exc:  # whatever a source or its driver raises: the thread lives
                with contextlib.suppress(Exception):
                    src.close()
                is_open = False
                self._set(CameraStatus.DISCONNECTED, f"{_said(src, exc)}; the table asks instead")
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


def _said(source: Any, exc: Exception) -> str:
    """A camera error as the user reads it: an OS error names the source it came from, and
    anything unforeseen (a driver's bug) names its kind too."""
    if isinstance(exc, OSError):
        return f"{source.name} failed: {exc.strerror or exc}"
    if isinstance(exc, CameraError):
        return str(exc)
    return f"{source.name} failed ({type(exc).__name__}: {exc})"
