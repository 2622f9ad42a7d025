"""The table runtime: it owns the game in play, the table's hardware, the camera and its
readers, and everyone who listens.

    sensors ──► post() ──► one queue ──► engine thread ──► game.interpret ──► Session.submit
    touches ──► submit() ─────────────── (same lock) ─────────────────────► Session.submit
    Session ──► cues ──► table (LEDs, buzzer) and every cue subscriber (the screen, a demo)
            ──► state changed ──► camera readers (game.readers) and every change subscriber

Sensor readings (buttons, beam, chute board, camera) come from hardware threads; they are
queued and handled one at a time on the engine thread, where the game's pure `interpret`
hook turns each into the events it means (or none: a repeat). Touches are submitted by the
screen directly and a refusal raises for it to show; a refused reading goes to the refusal
subscribers instead. Subscribers are called on the engine's (or toucher's) thread: a Kivy
screen hops to its own thread with Clock.schedule_once. No Kivy here: a demo or a test
plays whole games through the same runtime without a screen.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import catalogue
from companion.cues import Announce, Cue
from companion.errors import IllegalMove
from companion.events import ButtonPressed, Event
from companion.runtime.readers import SHARED_KINDS
from companion.session import Session
from companion.settings import Settings

log = logging.getLogger(__name__)

TIMER_POLL = 0.1  # seconds between timer polls when the runtime keeps the clock
# Readings waiting for the engine: far more than any table makes (a round is five balls); a
# part that floods it (a babbling board) loses readings, never the app's memory.
MAX_QUEUED = 256


@dataclass
class Subscriber:
    on_change: Callable[[], None] | None = None  # the state changed (any thread)
    on_cue: Callable[[Cue], None] | None = None  # a cue to show (any thread)
    on_refusal: Callable[[Event, str], None] | None = None  # a reading the game refused
    on_event: Callable[[Event], None] | None = None  # a reading about to be submitted
    # a sensor turned faulty (part, why) or calmed again (part, None)
    on_sensor: Callable[[str, str | None], None] | None = None


class Runtime:
    """See the module doc. `keep_time=True` polls the phase timer on the engine thread
    (headless play); a screen that polls it from its own tick passes False."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        keep_time: bool = True,
        camera_source: str | None = None,
        calibration_file: Path | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.keep_time = keep_time
        self.camera_source = camera_source  # None/"off": no camera; "simulated"; a device
        self.calibration_file = calibration_file
        self.scene = None  # what the simulated camera sees (sim_scene.SimulatedScene)
        self.nudge_camera = False  # the simulated camera knocked a little for each game
        self.session: Session | None = None
        self.camera = None  # companion.runtime.camera.CameraLink while a game reads
        self._table = None
        self._simulated = None
        self._memory: Any = None  # the game's sensor memory (see Game.interpret)
        self.wants_buttons: Callable[[], bool] = lambda: True  # False: presses are ignored
        self._pool: tuple[str, ...] = ()  # what the simulated table may still drop ...
        self._left: list[str] = []  # ... and what of it is left
        self._subscribers: list[Subscriber] = []
        self._lock = threading.RLock()
        self._queue: queue.Queue = queue.Queue(maxsize=MAX_QUEUED)
        self.dropped = 0  # readings lost to a full queue
        self.sensor_faults: dict[str, str] = {}  # part -> why, while a sensor is faulty
        self._idle = threading.Condition()
        self._pending = 0
        self._closed = threading.Event()
        self._engine: threading.Thread | None = None  # started by the first reading or play()

    def __repr__(self) -> str:
        return f"<Runtime {self.session!r} table={self._table!r}>"

    # the table ----------------------------------------------------------------------------
    @property
    def table(self):
        """The table's hardware (hardware.table.Table): cues, status, settings."""
        return self._table

    @table.setter
    def table(self, table) -> None:
        self._table, self._simulated = table, None

    @property
    def simulated(self):
        """The simulated table (hardware.sim_table.SimulatedTable), None on real hardware."""
        return self._simulated

    @simulated.setter
    def simulated(self, sim) -> None:
        self._table, self._simulated = (sim.table if sim is not None else None), sim

    @property
    def hands(self):
        """The simulated table's hands (hardware.sim_hands), acting on the rendered scene the
        simulated camera sees too; None on real hardware."""
        if self._simulated is None:
            return None
        if self.scene is None:
            return self._simulated.hands
        from companion.runtime.sim_scene import HandsWithScene

        return HandsWithScene(
            self._simulated.hands, self.scene, draw=self.simulated_ball, act=self.simulated_hand
        )

    @property
    def tray(self):
        """The simulated table's rendered ball tray and card zones (simulation only)."""
        return self.scene.tray if self.scene is not None else None

    def open_table(self, simulate: bool, **options):
        """Open the table's hardware with every reading coming here. In simulation the camera
        looks at a rendered scene of the game in play that the simulated table acts on; the
        simulated table's hands are `hands`."""
        options.setdefault("on_fault", self._sensor_fault)
        if simulate:
            from hardware.sim_table import open_simulated_table

            self._simulate_scene()
            self.simulated = open_simulated_table(self.post, settings=self.settings, **options)
        else:
            from hardware.table import open_table

            self.table = open_table(self.post, settings=self.settings, **options)
        return self.table

    def _sensor_fault(self, part: str, why: str | None) -> None:
        if why is None:
            self.sensor_faults.pop(part, None)
        else:
            self.sensor_faults[part] = why
        self._tell("on_sensor", part, why)

    # the game in play ------------------------------------------------------------------------
    def play(self, session: Session) -> None:
        """Make `session` the game in play: its cues reach the table and every subscriber."""
        with self._lock:
            self.stop()
            self.session, self._memory = session, None
            session.sinks.append(self._cue)
            session.watchers.append(self._changed)
            self._simulate_scene()
            if self.scene is not None:
                self.scene.play(session.game.name, session.state)
                # a round resumed mid-way: the balls in the tray have left the mill already
                self._pool = tuple(session.game.sim_pool(session.state))
                lying = Counter(self.scene.tray.balls())
                self._left = list((Counter(self._pool) - lying).elements())
        if self.keep_time:
            self._start_engine()
        self._sync_readers()

    def stop(self) -> None:
        """The game leaves the table (another starts, or the app closes)."""
        with self._lock:
            session, self.session = self.session, None
            if session is not None:
                session.sinks.remove(self._cue)
                session.watchers.remove(self._changed)
        if self.camera is not None:
            self.camera.close()
            self.camera = None

    def simulated_ball(self) -> str | None:
        """The colour of a ball the simulated table drops: one the game says could still
        come out (Game.sim_pool), each only once; None when the game does not say."""
        session = self.session
        pool = tuple(session.game.sim_pool(session.state)) if session is not None else ()
        with self._lock:
            if pool != self._pool:
                self._pool, self._left = pool, list(pool)
            if not self._left:
                return None
            colour = random.choice(self._left)
            self._left.remove(colour)
            return colour

    def simulated_hand(self, what: str) -> None:
        """The simulated strip's "lay" or "reveal": done on the rendered scene, for the
        camera to see; what was done is shown."""
        with self._lock:
            session = self.session
            if self.scene is None or session is None:
                return
            said = self.scene.act(what, session.state, self._reader_kinds(session))
        self._tell("on_cue", Announce(said))

    def subscribe(self, **callbacks) -> Callable[[], None]:
        """Listen (see Subscriber); returns the function that stops listening."""
        sub = Subscriber(**callbacks)
        self._subscribers.append(sub)
        return lambda: sub in self._subscribers and self._subscribers.remove(sub)

    def changed_to(self, wanted: Callable[[Any], bool]) -> threading.Event:
        """An Event set once the state in play satisfies `wanted` (now or after a change):
        what tests and scripts wait on instead of sleeping."""
        reached = threading.Event()

        def check() -> None:
            session = self.session
            if not reached.is_set() and session is not None and wanted(session.state):
                reached.set()
                stop()

        stop = self.subscribe(on_change=check)
        check()
        return reached

    # the two doors -------------------------------------------------------------------------
    def submit(self, event: Event) -> tuple[Cue, ...]:
        """A touch: applied at once. Raises IllegalMove (nothing changes) for the screen."""
        with self._lock:
            if self.session is None:
                raise IllegalMove("no game is in play")
            return self.session.submit(event)

    def undo(self) -> bool:
        with self._lock:
            return self.session is not None and self.session.undo()

    def redo(self) -> bool:
        with self._lock:
            return self.session is not None and self.session.redo()

    def post(self, reading: Event) -> None:
        """A sensor reading, from any thread: handled in turn on the engine thread."""
        if self._closed.is_set():
            return
        with self._idle:
            try:
                self._queue.put_nowait(reading)
            except queue.Full:
                self.dropped += 1
                if self.dropped == 1 or self.dropped % MAX_QUEUED == 0:
                    log.warning("%d readings dropped: the engine cannot keep up", self.dropped)
                return
            self._pending += 1
        self._start_engine()

    def sense(self, reading: Event) -> tuple[Cue, ...]:
        """Handle one reading now, on this thread (the engine thread does this for post()).
        The game interprets it; a refusal goes to the refusal subscribers."""
        out: tuple[Cue, ...] = ()
        with self._lock:
            session = self.session
            if session is None:
                return out
            if isinstance(reading, ButtonPressed) and not self.wants_buttons():
                return out
            if isinstance(reading, ButtonPressed) and reading.button == "undo":
                if session.undo():  # the table's held undo button, for every game
                    self._tell("on_cue", Announce("Undone"))
                return out
            events, self._memory = session.game.interpret(session.state, reading, self._memory)
            for event in events:
                self._tell("on_event", event)
                try:
                    out += session.submit(event)
                except IllegalMove as exc:
                    self._tell("on_refusal", event, str(exc))
        return out

    def drain(self, timeout: float = 10.0) -> bool:
        """Wait until every posted reading has been handled (tests, the demo)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        self.stop()
        self._closed.set()
        with contextlib.suppress(queue.Full):  # a full queue: the engine sees it is closed
            self._queue.put_nowait(None)
        if self._engine is not None and self._engine is not threading.current_thread():
            self._engine.join(timeout=5)
        if self._simulated is not None:
            self._simulated.close()  # its table, hands and backend
        elif self._table is not None:
            self._table.close()

    # internals -------------------------------------------------------------------------------
    def _start_engine(self) -> None:
        with self._idle:
            if self._engine is None and not self._closed.is_set():
                self._engine = threading.Thread(
                    target=self._run, name="runtime-engine", daemon=True
                )
                self._engine.start()

    def _run(self) -> None:
        while not self._closed.is_set():
            try:
                reading = self._queue.get(timeout=TIMER_POLL if self.keep_time else 1.0)
            except queue.Empty:
                reading = None
            if reading is not None:
                try:
                    self.sense(reading)
                except Exception:  # one bad reading must not stop the table
                    log.exception("reading %r failed", reading)
                finally:
                    with self._idle:
                        self._pending -= 1
                        self._idle.notify_all()
            if self.keep_time and self.session is not None:
                with self._lock:
                    try:
                        if self.session is not None:
                            self.session.poll()
                    except Exception:  # the clock must keep running whatever one tick did
                        log.exception("the timer's tick failed")

    def _simulate_scene(self) -> None:
        """A simulated camera needs a scene to look at, with or without a simulated table."""
        if self.camera_source == "simulated" and self.scene is None:
            from companion.runtime.sim_scene import SimulatedScene

            self.scene = SimulatedScene(nudge=self.nudge_camera)

    def _reader_kinds(self, session: Session) -> set[str]:
        return {s.kind for s in session.game.readers(session.state)}

    def _tell(self, kind: str, *args) -> None:
        for sub in list(self._subscribers):
            fn = getattr(sub, kind)
            if fn is not None:
                try:
                    fn(*args)
                except Exception:
                    log.exception("subscriber %s failed", kind)

    def _cue(self, cue: Cue) -> None:
        if self._table is not None:
            self._table.cue(cue)
        self._tell("on_cue", cue)

    def _changed(self) -> None:
        self._sync_readers()
        self._tell("on_change")

    def _sync_readers(self) -> None:
        """Run the camera readers the state asks for (opening the camera the first time)."""
        session = self.session
        if session is None:
            return
        kinds = (*SHARED_KINDS, *catalogue.camera_readers(session.game.name))  # what it serves
        specs = tuple(s for s in session.game.readers(session.state) if s.kind in kinds)
        if self.scene is not None:
            self.scene.follow(session.state, {s.kind for s in specs})
        if self.camera is None:
            if not specs or self.camera_source in (None, "off"):
                return
            from companion.runtime.camera import CameraLink

            self.camera = CameraLink(
                simulate=self.camera_source == "simulated",
                source=self.camera_source,
                calibration_file=self.calibration_file,
                ask_threshold=self.settings.ask_threshold,
                on_events=lambda events: [self.post(e) for e in events],
                on_cue=lambda cue: self._tell("on_cue", cue),
                scene=self.scene,
                readers=catalogue.camera_readers(session.game.name),
            )
            self.camera.start()
        self.camera.want(specs)
