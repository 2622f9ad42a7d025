"""Camera to events: a reader thread that turns the newest frames into BallSeen/CardSeen.

    feed = VisionFeed(camera, BallReader(cal).feed, on_events=..., on_status=...)
    feed.start() ... feed.close()

The reader thread takes the newest frame from the camera's slot (frames that came while it was
busy are skipped, never queued), runs the reader, and hands any events to `on_events`. Both
callbacks run on the reader thread: a Kivy app wraps them in `Clock.schedule_once`. While the
camera is DISCONNECTED no events come and `on_status` has told the app to ask on screen.

At most `max_fps` frames a second are read: a 30 fps camera costs no more than the game needs.
`pause()` closes the camera and lets the reader sleep until `resume()`: no frames are taken
while nothing reads the table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from companion.cues import Announce, Cue, ErrorCue
from companion.events import Event
from vision.camera import Camera, CameraStatus


class VisionFeed:
    def __init__(
        self,
        camera: Camera,
        read: Callable[[np.ndarray], Sequence[Event]],
        *,
        on_events: Callable[[list[Event]], None],
        on_status: Callable[[CameraStatus, str], None] | None = None,
        max_fps: float = 10.0,
    ):
        self.camera = camera
        self.read = read
        self.on_events = on_events
        self.min_gap = 1.0 / max_fps
        self.frames_read = 0
        self.error: str | None = None
        self._stop = threading.Event()
        self._awake = threading.Event()
        self._awake.set()
        self._thread: threading.Thread | None = None
        if on_status is not None:
            camera.on_status = on_status

    def __repr__(self) -> str:
        return f"<VisionFeed {self.camera!r}, {self.frames_read} frames read>"

    def __enter__(self) -> VisionFeed:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        if self._thread is None:
            self.camera.start()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="vision", daemon=True)
            self._thread.start()

    @property
    def paused(self) -> bool:
        return not self._awake.is_set()

    def pause(self) -> None:
        """Stop taking frames: the camera is closed and the reader thread waits."""
        if self._awake.is_set():
            self._awake.clear()
            self.camera.close()

    def resume(self) -> None:
        if not self._awake.is_set() and not self._stop.is_set():
            self.camera.start()
            self._awake.set()

    def close(self) -> None:
        self._stop.set()
        self._awake.set()  # a paused reader wakes up to stop
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.camera.close()

    def _run(self) -> None:
        seq = 0
        last = float("-inf")
        while not self._stop.is_set():
            if not self._awake.is_set():
                self._awake.wait()
                continue
            frame = self.camera.wait(seq, timeout=0.2)
            if frame is None or frame.seq == seq:
                continue
            if self._stop.wait(max(0.0, last + self.min_gap - time.monotonic())):
                break
            frame = self.camera.latest() or frame  # the newest, after the pause
            seq, last = frame.seq, time.monotonic()
            try:
                events = list(self.read(frame.image))
            except Exception as exc:  # a reader bug must not stop the table: ask instead
                self.error = f"{type(exc).__name__}: {exc}"
                if self.camera.on_status is not None:
                    self.camera.on_status(
                        CameraStatus.DISCONNECTED,
                        f"camera reading failed ({self.error}); asking instead",
                    )
                self._stop.wait(1.0)
                continue
            self.frames_read += 1
            if events:
                self.on_events(events)


def camera_cue(status: CameraStatus, message: str) -> Cue | None:
    """What the screen should say about a camera status change (None: nothing to say)."""
    if status is CameraStatus.DISCONNECTED:
        return ErrorCue(f"Camera unavailable ({message}). Tap the colours in instead.")
    if status is CameraStatus.RUNNING:
        return Announce("Camera ready: the table is read again.")
    return None
