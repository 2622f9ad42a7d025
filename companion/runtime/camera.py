"""The camera at the table: while the game in play wants its ball reader (`Game.readers`),
the newest frames go through it and each confirmed ball reaches the runtime as a BallSeen.

On the simulated table the camera looks at a rendered tray that fills with the balls dropped
on the simulated chute, so a whole round plays hands-free on a laptop through the same
reader, thread and events as on a Pi. OpenCV and the vision package load only here, and the
slow parts (calibration, opening the camera) run on the reader's own thread.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from companion.cues import Announce, Cue
from companion.events import Event
from companion.game import ReaderSpec

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")
SIM_FPS = 10.0  # the rendered tray needs no more; it leaves the CPU to the screen
STALE_FRAMES = 2  # after an emptied tray: the camera's buffered frame and the one in capture


class SimulatedTray:
    """The balls that rolled out this round, drawn as the camera would see them."""

    def __init__(self, light: str = "daylight") -> None:
        self.light = light
        self.round = 0
        self._balls: list[str] = []
        self._seats: dict[str, tuple[str, ...]] = {}  # zone -> cards laid ("back": face down)
        self._lock = threading.Lock()
        self._drawing = threading.Lock()
        self._drawn: tuple | None = None  # ((balls, round), seats) of the picture below
        self._picture = None

    def lay(self, zone: str, cards) -> None:
        """Lay `cards` in a seat's zone (replacing what lay there); () takes them away."""
        with self._lock:
            self._seats[zone] = tuple(cards)

    def add(self, colour: str | None) -> None:
        if colour:
            with self._lock:
                self._balls.append(colour)

    def clear(self) -> None:
        with self._lock:
            self._balls.clear()
            self.round += 1

    def balls(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._balls)

    def frame(self, i: int, empty: bool = False):
        """The tray as the camera sees it (`empty`: before this round's balls), drawn again
        only when a ball arrived or a round began: in between the camera gets the same
        picture, so no frame is rendered for nothing and the renderer's caches (some 45 MB
        of scenes) need not be kept."""
        from vision.render import clear_caches, render_tray

        with self._lock:
            key = (() if empty else tuple(self._balls), self.round)
            seats = () if empty else tuple((z, c) for z, c in sorted(self._seats.items()) if c)
        with self._drawing:
            if (key, seats) != self._drawn:
                if seats:
                    from vision.render_cards import render_seats

                    self._picture = render_seats(
                        dict(seats), self.light, key[1], frame=i, angle=15, balls=list(key[0])
                    )
                else:
                    self._picture = render_tray(list(key[0]), self.light, key[1], frame=i)
                self._drawn = (key, seats)
                clear_caches()
            return self._picture


class TableWithTray:
    """The simulated table, with its dropped balls also rolling into the rendered tray.
    `draw()` picks the colour of a ball dropped without one (None: any colour)."""

    def __init__(self, table, tray: SimulatedTray, draw=None) -> None:
        self._table, self._tray, self._draw = table, tray, draw

    def drop_ball(self, colour: str | None = None):
        # a ball always has a colour, and one that could be in there
        colour = colour or (self._draw and self._draw()) or random.choice(BALL_COLOURS)
        self._tray.add(colour)
        return self._table.drop_ball(colour)

    def handle_key(self, key: str, down: bool = True) -> bool:
        from hardware.table import SIM_KEYS

        if SIM_KEYS.get(key.lower()) == "ball":
            if down:
                self.drop_ball()
            return True
        return self._table.handle_key(key, down)

    def __getattr__(self, name):
        return getattr(self._table, name)


class CameraLink:
    """Camera -> ball reader -> events, for one game in play. Callbacks come from the reader
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
        tray: SimulatedTray | None = None,
    ) -> None:
        self.simulate = simulate
        self.source = source
        self.calibration_file = calibration_file
        self.ask_threshold = ask_threshold
        self.on_events = on_events
        self.on_cue = on_cue
        self.tray = tray
        self.reader = None
        self.feed = None
        self.reading = threading.Event()  # set once frames are going through the reader
        self._new_round = threading.Event()
        self._on = threading.Event()  # the game wants the ball reader now
        self.calibration = None
        self.cards = None  # vision.card_zones.ZoneReader while the game wants cards read
        self._cards_spec: ReaderSpec | None = None  # ... and which (set by want())
        self._new_cards = threading.Event()
        self._empty_table = None  # the frame of a new round's empty tray (a real camera)
        self._cards_off = False  # the calibration cannot read cards (no zones, no colours)
        self._key: str | None = None
        self._stale = 0
        self._asleep = threading.Event()  # no game on screen: no frames, no reading
        self._closed = threading.Event()
        self._feed_lock = threading.Lock()  # the feed starts, sleeps and stops in turn
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<CameraLink {'simulated tray' if self.simulate else self.source}>"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._open, name="camera-link", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading. Returns within about a second, even while the first calibration is
        still being learnt (seconds of work that cannot be interrupted): that thread then
        starts no feed, and, being a daemon, never holds up the app's exit."""
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
        """No game reads the table now (the home screen is up): the camera and the reader
        stop until `wake`."""
        with self._feed_lock:
            self._asleep.set()
            if self.feed is not None:
                self.feed.pause()

    def wake(self) -> None:
        with self._feed_lock:
            self._asleep.clear()
            if self.feed is not None:
                self.feed.resume()

    def want(self, specs: tuple[ReaderSpec, ...]) -> None:
        """The readers the state asks for: a new key empties the tray and restarts the
        reader; none pauses it (frames are skipped)."""
        cards = next((s for s in specs if s.kind == "cards"), None)
        if cards != self._cards_spec:
            self._cards_spec = cards
            self._new_cards.set()
        balls = next((s for s in specs if s.kind == "balls"), None)
        if balls is None:
            self._on.clear()
            return
        if balls.key != self._key:
            self._key = balls.key
            if self.tray is not None:
                self.tray.clear()
            self._new_round.set()
        self._on.set()

    # on the link's own thread -----------------------------------------------------------
    def _open(self) -> None:
        from companion.errors import CompanionError
        from companion.ui import memory
        from vision.balls import BallReader
        from vision.camera import Camera, RenderedSource, open_source
        from vision.feed import VisionFeed, camera_cue

        try:
            if self.simulate:
                from vision.render import clear_caches
                from vision.render_cards import seat_calibration

                calibration = seat_calibration()  # rendered_calibration with the seat zones
                clear_caches()  # every light was rendered for it; the tray needs one
                memory.give_back()
                source = RenderedSource(self.tray.frame, fps=SIM_FPS, name="simulated tray")
            else:
                from vision.calibration import CalibrationStore

                if not self.calibration_file.exists():
                    self.on_cue(
                        Announce(
                            "The camera is not calibrated yet: tap the balls in "
                            "(`companion vision calibrate-table`)."
                        )
                    )
                    return
                calibration = CalibrationStore(self.calibration_file).load()
                source = open_source(self.source)
            self.reader = BallReader(calibration, ask_threshold=self.ask_threshold)
            self.calibration = calibration
        except (CompanionError, OSError) as exc:
            self.on_cue(Announce(f"Camera off ({exc}); tap the balls in."))
            return
        told = []  # the last status people were told of: waking up again is not news

        def on_status(status, message):
            cue = camera_cue(status, message)
            if cue is not None and told[-1:] != [status]:
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

    def _read(self, image):
        balls = self._read_balls(image) if self._on.is_set() else []
        return balls + self._read_cards(image)

    def _read_balls(self, image):
        if self._new_round.is_set():
            self._new_round.clear()
            # On the simulated table the empty tray is known; a real one is the next frame.
            # (balls may already be rolling in: the empty tray is drawn without them)
            empty = self.tray.frame(0, empty=True) if self.tray is not None else None
            self.reader.reset(background=empty)
            self._empty_table = image  # the table as a round begins: no cards laid yet
            self._stale = STALE_FRAMES
            return []  # this frame may predate the emptied tray
        if self._stale:
            self._stale -= 1  # ... and so may the camera's next one and the one in capture
            return []
        events = self.reader.feed(image)
        self.reading.set()
        return events

    def _read_cards(self, image):
        """One ZoneRead per card zone not covered by a hand, while the game wants cards."""
        from companion.card_readings import ZoneRead

        spec = self._cards_spec
        if spec is None or self._cards_off:
            self.cards = None
            return []
        if self._new_cards.is_set() or self.cards is None:
            self._new_cards.clear()
            self.cards = self._card_reader(spec, image)
            return []
        out = []
        for view in self.cards.read(image):
            if view.blocked:
                continue  # a hand over the zone: no reading at all
            up = [c for c in view.cards if not c.face_down]
            out.append(
                ZoneRead(
                    view.zone,
                    tuple(c.colour for c in up),
                    tuple(c.confidence for c in up),
                    face_down=len(view.cards) - len(up),
                    touching=any(c.touching for c in view.cards),
                    unreadable=view.unreadable,
                    floors=tuple(c.floor for c in up) if spec.floors else (),
                )
            )
        return out

    def _card_reader(self, spec: ReaderSpec, image):
        """Cards are seen against the empty table: drawn on the simulated one; on a real one
        the frame taken as the round began (before anyone laid a card)."""
        from companion.errors import CompanionError
        from vision.card_zones import ZoneReader

        if self.tray is not None:
            empty = self.tray.frame(0, empty=True)
        else:
            empty = self._empty_table if self._empty_table is not None else image
        try:
            return ZoneReader(self.calibration, spec.colours, background=empty, floors=spec.floors)
        except CompanionError as exc:
            self._cards_off = True  # said once; the cards are tapped in from now on
            self.on_cue(Announce(f"The camera cannot read cards ({exc}); tap them in."))
            return None
