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

With `still_gap`, a view that has not changed (the same within the camera's noise) is read
`STILL_READS` times, enough for every reader's steady frames, and then only once every
`still_gap` seconds until it changes: a table nobody touches costs almost nothing to watch.
`look_again()` (the game now wants something else read) reads the same view afresh.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from companion.cues import Announce, Cue, ErrorCue
from companion.events import Event
from vision.camera import Camera, CameraStatus

THUMB = (32, 24)  # the view compared, 20x20 pixels a cell for 640x480: noise averages out
STILL_LEVELS = 6  # of 255: the most a cell of an unchanged view moves (noise, flicker)
STILL_READS = 4  # reads of an unchanged view at full pace: readers want 2-3 steady frames


class VisionFeed:
    def __init__(
        self,
        camera: Camera,
        read: Callable[[np.ndarray], Sequence[Event]],
        *,
        on_events: Callable[[list[Event]], None],
        on_status: Callable[[CameraStatus, str], None] | None = None,
        max_fps: float = 10.0,
        still_gap: float | None = None,
    ):
        self.camera = camera
        self.read = read
        self.on_events = on_events
        self.min_gap = 1.0 / max_fps
        self.still_gap = still_gap
        self.frames_read = 0
        self._thumb: np.ndarray | None = None  # the last view read, much reduced
        self._shape: tuple = ()  # ... and the frames' shape then
        self._still = 0  # reads of that view since it last changed
        self.error: str | None = None
        self._stop = threading.Event()
        self._awake = threading.Event()
        self._awake.set()
        # pause() closes the camera outside any lock (a webcam being unplugged may take
        # seconds); a resume() asked for meanwhile is kept and done once the camera is shut.
        self._switch = threading.Lock()
        self._closing = False
        self._resume_after_close = False
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
        with self._switch:
            self._resume_after_close = False
            if not self._awake.is_set() or self._closing:
                return
            self._awake.clear()
            self._closing = True
        self.camera.close()
        with self._switch:
            self._closing = False
            if self._resume_after_close:
                self._resume_after_close = False
                self._wake()

    def resume(self) -> None:
        with self._switch:
            if self._closing:
                self._resume_after_close = True  # the camera opens again once it is shut
            else:
                self._wake()

    def _wake(self) -> None:
        if not self._awake.is_set() and not self._stop.is_set():
            self.camera.start()
            self._awake.set()

    def look_again(self) -> None:
        """Read the next frames at the full pace even if the view has not changed."""
        self._thumb = None

    def _unchanged(self, image: np.ndarray, now: float, last: float) -> bool:
        """Whether this frame shows the view read last, which was read often enough and too
        recently to be read again."""
        import cv2

        thumb = cv2.resize(image, THUMB, interpolation=cv2.INTER_AREA).astype(np.int16)
        same = self._thumb is not None and self._shape == image.shape  # a camera replugged
        same = same and int(np.abs(thumb - self._thumb).max()) <= STILL_LEVELS
        self._thumb, self._shape = thumb, image.shape
        self._still = self._still + 1 if same else 0
        return self._still >= STILL_READS and now - last < self.still_gap

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
            now = time.monotonic()
            if self.still_gap is not None and self._unchanged(frame.image, now, last):
                seq = frame.seq
                continue
            seq, last = frame.seq, now
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
