"""The camera at the table: while the game in play wants readers (`Game.readers`), the newest
frames go through them (companion.runtime.readers: balls, cards, the Laser ring, the Node
table) and what they read reaches the runtime as events.

On the simulated table the camera looks at the rendered scene of the game in play
(companion.runtime.sim_scene), so a whole game plays hands-free on a laptop through the same
readers, thread and events as on a Pi. OpenCV and the vision package load only here, and the
slow parts (calibrations, opening the camera) run on the camera's own threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.cues import Announce, Cue
from companion.events import Event
from companion.game import ReaderSpec
from companion.runtime.read_balls import BallAdapter
from companion.runtime.read_cards import CardAdapter
from companion.runtime.read_node import NodeAdapter
from companion.runtime.read_ring import RingAdapter
from companion.runtime.readers import Reader, Setup

SIM_FPS = 5.0  # the rendered table changes at a person's pace; it leaves the CPU to the screen


class CameraLink:
    """Camera -> readers -> events, for one game in play. Callbacks come from the reader
    thread. `want()` says which readers the game's state asks for."""

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
    ) -> None:
        self.simulate = simulate
        self.source = source
        self.on_events = on_events
        self.on_cue = on_cue
        self.setup = Setup(simulate, calibration_file, ask_threshold, on_cue, scene)
        self.readers: dict[str, Reader] = {
            "balls": BallAdapter(self.setup),
            "cards": CardAdapter(self.setup),
            "ring": RingAdapter(self.setup),
            "node": NodeAdapter(self.setup),
        }
        self.reading = self.setup.reading  # set once frames are going through a reader
        self.feed = None
        self._wanted: set[str] = set()  # the kinds the game's state asks for
        self._idle = False  # no wanted reader can read: the feed is paused until one can
        self._asleep = threading.Event()  # no game on screen: no frames, no reading
        self._closed = threading.Event()
        self._feed_lock = threading.Lock()  # the feed starts, sleeps and stops in turn
        self._thread: threading.Thread | None = None

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

    def sleep(self) -> None:
        """No game reads the table now (the home screen is up): the camera and the readers
        stop until `wake`."""
        with self._feed_lock:
            self._asleep.set()
            if self.feed is not None:
                self.feed.pause()

    def wake(self) -> None:
        with self._feed_lock:
            self._asleep.clear()
            if self.feed is not None and not self._idle:
                self.feed.resume()

    def want(self, specs: tuple[ReaderSpec, ...]) -> None:
        """The readers the state asks for (see each reader's `want`); while none of them
        can read (none asked for, or none calibrated) the camera is paused."""
        for kind, reader in self.readers.items():
            reader.want(next((s for s in specs if s.kind == kind), None))
        with self._feed_lock:
            self._wanted = {s.kind for s in specs}
            if self._idle and self._can_read():
                self._idle = False
                if self.feed is not None and not self._asleep.is_set():
                    self.feed.resume()

    @property
    def wanted(self) -> frozenset[str]:
        """The kinds of reader the game's state asks for now."""
        return frozenset(self._wanted)

    def _can_read(self) -> bool:
        return any(not self.readers[kind].off for kind in self._wanted if kind in self.readers)

    # on the link's own thread -----------------------------------------------------------
    def _open(self) -> None:
        from companion.errors import CompanionError
        from vision.camera import Camera, CameraStatus, RenderedSource, open_source
        from vision.feed import VisionFeed, camera_cue

        try:
            if self.simulate:
                scene = self.setup.scene
                source = RenderedSource(scene.frame, fps=SIM_FPS, name="simulated table")
            else:
                source = open_source(self.source)
        except (CompanionError, OSError) as exc:
            self.on_cue(Announce(f"Camera off ({exc}); tap the readings in."))
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
                Camera(source), self._read, on_events=self.on_events, on_status=on_status
            )
            self.feed.start()
            if self._asleep.is_set():  # put to sleep while it was opening
                self.feed.pause()

    def _read(self, image) -> list[Event]:
        out: list[Event] = []
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
