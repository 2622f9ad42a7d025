"""The camera at the table: while the game in play wants readers (`Game.readers`), the newest
frames go through them (companion.runtime.readers: the shared balls and cards, and those the
game brings) and what they read reaches the runtime as events.

On the simulated table the camera looks at the rendered scene of the game in play
(companion.runtime.sim_scene), so a whole game plays hands-free on a laptop through the same
readers, thread and events as on a Pi. OpenCV and the vision package load only here, and the
slow parts (calibrations, opening the camera) run on the camera's own threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from companion import memory
from companion.cues import Announce, Cue
from companion.events import Event
from companion.game import ReaderSpec
from companion.runtime.read_balls import BallAdapter
from companion.runtime.read_cards import CardAdapter
from companion.runtime.readers import STILL_GAP, Reader, Setup

SIM_FPS = 5.0  # the rendered table changes at a person's pace; it leaves the CPU to the screen


class CameraLink:
    """Camera -> readers -> events, for one game in play. Callbacks come from the reader
    thread. `want()` says which readers the game's state asks for; `readers` are the ones
    the game brings besides the shared ones ({kind: adapter}, made with the Setup)."""

    def __init__(
        self,
        *,
        simulate: bool,
        source: str,
        calibration_file,
        ask_threshold: float,
        on_events: Callable[[list[Event]], None],
        on_cue: Callable[[Cue], None],
        scene=None,
        readers: Mapping[str, Callable[[Setup], Reader]] | None = None,
    ) -> None:
        self.simulate = simulate
        self.source = source
        self.on_events = on_events
        self.on_cue = on_cue
        self.setup = Setup(simulate, calibration_file, ask_threshold, on_cue, scene)
        adapters = {"balls": BallAdapter, "cards": CardAdapter, **(readers or {})}
        self.readers: dict[str, Reader] = {
            kind: make(self.setup) for kind, make in adapters.items()
        }
        self.reading = self.setup.reading  # set once frames are going through a reader
        self.feed = None
        self._wanted: set[str] = set()  # the kinds the game's state asks for
        self._idle = False  # no wanted reader can read: the feed is paused until one can
        self._asleep = threading.Event()  # no game on screen: no frames, no reading
        self._closed = threading.Event()
        self._feed_lock = threading.Lock()  # the feed starts, sleeps and stops in turn
        self._thread: threading.Thread | None = None
        self._size: tuple[int, int] | None = None  # (width, height) the readers started with
        self._told_size: tuple[int, int] | None = None

    def __repr__(self) -> str:
        return f"<CameraLink {'simulated table' if self.simulate else self.source}>"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._open, name="camera-link", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading. Returns within about a second, even while a calibration is still
        being learnt (seconds of work that cannot be interrupted): that thread then reads
        no more, and, being a daemon, never holds up the app's exit."""
        with self._feed_lock:
            self._closed.set()
            feed = self.feed
        if feed is not None:
            # A camera that hangs on release (a webcam being unplugged) or a starved reader
            # must not hold up the screen or the app's exit: waited for a second at most.
            closer = threading.Thread(target=feed.close, name="camera-close", daemon=True)
            closer.start()
            closer.join(timeout=1.0)
        if self._thread is not None:
            self._thread.join(timeout=0.5)
        memory.give_back()  # the frames' holes in the heaps go back as the table stops

    def sleep(self) -> None:
        """No game reads the table now (the home screen is up): the camera and the readers
        stop until `wake`, and the memory their frames took goes back to the system."""
        with self._feed_lock:
            self._asleep.set()
            if self.feed is not None:
                self.feed.pause()
        memory.give_back()  # the frames' holes in the heaps go back as the table stops

    def wake(self) -> None:
        with self._feed_lock:
            self._asleep.clear()
            if self.feed is not None and not self._idle:
                self.feed.look_again()
                self.feed.resume()

    def want(self, specs: tuple[ReaderSpec, ...]) -> None:
        """The readers the state asks for (see each reader's `want`); while none of them
        can read (none asked for, or none calibrated) the camera is paused."""
        for kind, reader in self.readers.items():
            reader.want(next((s for s in specs if s.kind == kind), None))
        with self._feed_lock:
            self._wanted = {s.kind for s in specs}
            if self.feed is not None:
                self.feed.still_gap = self._still_gap()
                self.feed.look_again()  # the same view may read otherwise now
            if self._idle and self._can_read():
                self._idle = False
                if self.feed is not None and not self._asleep.is_set():
                    self.feed.resume()

    @property
    def wanted(self) -> frozenset[str]:
        """The kinds of reader the game's state asks for now."""
        return frozenset(self._wanted)

    def _still_gap(self) -> float:
        """How often a still view is read again: as the neediest wanted reader asks."""
        gaps = [self.readers[k].still_gap for k in self._wanted if k in self.readers]
        return min(gaps, default=STILL_GAP)

    def _can_read(self) -> bool:
        return any(not self.readers[kind].off for kind in self._wanted if kind in self.readers)

    # on the link's own thread -----------------------------------------------------------
    def _open(self) -> None:
        from companion.errors import CompanionError
        from vision.camera import Camera, CameraStatus
        from vision.feed import VisionFeed, camera_cue
        from vision.sources import RenderedSource, open_source

        try:
            if self.simulate:
                scene = self.setup.scene
                source = RenderedSource(scene.frame, fps=SIM_FPS, name="simulated table")
            else:
                source = open_source(self.source)
        except (CompanionError, OSError) as exc:
            self.on_cue(Announce(f"Camera off ({exc}); tap the readings in."))
            return
        except Exception as exc:  # a setting no source understands: said, never a dead thread
            self.on_cue(
                Announce(
                    f"Camera off: the camera setting {self.source!r} cannot be used "
                    f"({type(exc).__name__}); choose another in Settings and tap the readings in."
                )
            )
            return
        RUNNING = CameraStatus.RUNNING
        told = []  # the statuses people were told of: starting or waking up is not news

        def on_status(status, message):
            cue = camera_cue(status, message)
            if cue is not None and told[-1:] != [status] and (told or status is not RUNNING):
                told.append(status)
                self.on_cue(cue)

        with self._feed_lock:
            if self._closed.is_set():
                return
            self.feed = VisionFeed(
                Camera(source),
                self._read,
                on_events=self.on_events,
                on_status=on_status,
                still_gap=self._still_gap(),
            )
            self.feed.start()
            if self._asleep.is_set():  # put to sleep while it was opening
                self.feed.pause()

    def _same_size(self, image):
        """The frame at the size the readers started with. A camera replugged at another
        resolution: frames of the same shape are scaled to it; others are not read, and the
        set-up is asked for again (said once per size)."""
        height, width = image.shape[:2]
        if self._size is None:
            self._size = (width, height)
        w, h = self._size
        if (width, height) == (w, h):
            self._told_size = None
            return image
        same_shape = abs(width * h - height * w) <= max(width, w) // 100
        if self._told_size != (width, height):
            self._told_size = (width, height)
            self.on_cue(
                Announce(
                    f"The camera now sends {width}x{height} frames; they are scaled to the "
                    f"{w}x{h} it was set up with."
                    if same_shape
                    else f"The camera now sends {width}x{height} frames, not the {w}x{h} it "
                    "was set up with: tap the readings in, and set the camera up again "
                    "(Settings, Camera set-up)."
                )
            )
        if not same_shape:
            return None
        import cv2

        return cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)

    def _read(self, image) -> list[Event]:
        out: list[Event] = []
        image = self._same_size(image)
        if image is None:
            return out
        for reader in self.readers.values():
            if self._closed.is_set():
                break  # a calibration learnt while closing: nothing more to read
            out += reader.read(image)
        with self._feed_lock:
            idle = not self._idle and not self._can_read() and self.feed is not None
            self._idle = self._idle or idle
        if idle:  # nothing to read: no frames are taken until there is
            self.feed.pause()  # (the engine's want() is not held up while the camera closes)
            with self._feed_lock:
                if not self._idle and not self._asleep.is_set():
                    self.feed.resume()  # wanted again while it was pausing
        return out
