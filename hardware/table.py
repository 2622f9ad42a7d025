"""The table: every part behind one small interface, real on a Pi or simulated anywhere.

    with open_table(simulate=True, on_event=handle) as table:
        table.cue(PhaseStarted("planning", "ann", "red"))   # never blocks
        table.press("next"); table.drop_ball("pink")         # simulation only

`on_event` is called from hardware threads (gpiozero's callback thread, the serial reader);
the app passes `companion.runtime.Runtime.post`, which queues each reading for the game.
The simulated table uses gpiozero's mock pins and a chute board on a pseudo-terminal, so
the same code paths run as on a Pi: the keyboard and on-screen buttons only drive pins.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path

from companion.clock import Clock, MonotonicClock
from companion.cues import Cue
from companion.events import Event
from companion.settings import Settings
from hardware import pins as pinmap
from hardware.errors import HardwareError, PinMapError
from hardware.events import BallSensed
from hardware.inputs import ArcadeButtons, BallBeam
from hardware.serial_board import BoardStatus, ChuteBoardReader
from hardware.signals import Signals, Sleep

log = logging.getLogger(__name__)

MODEL_FILE = Path("/proc/device-tree/model")
POLL_INTERVAL = 0.01  # seconds between button polls (settles bounces, fires holds)

# Simulated hands: how long a tap lasts, how long a ball blocks the beam, how balls space out.
TAP_SECONDS = 0.15
BALL_BLOCKS_SECONDS = 0.025
BALL_SPACING_SECONDS = 0.08
BALL_CHATTER_SECONDS = 0.001

# Keyboard in simulation: key -> button name ("ball" drops a ball of a random colour; "lay"
# and "reveal" lay the game's next card on the rendered table: companion.runtime.sim_scene).
SIM_KEYS = {
    "n": "next",
    "enter": "next",
    "b": "bid",
    "i": "impossible",
    "u": "undo",
    "spacebar": "ball",
    " ": "ball",
    "l": "lay",
    "r": "reveal",
}


def pi_present(model_file: Path = MODEL_FILE) -> bool:
    """True on a Raspberry Pi (its device tree names the model)."""
    try:
        return "Raspberry Pi" in model_file.read_text(errors="replace")
    except OSError:
        return False


def mock_pin_factory():
    """gpiozero's mock factory with PWM-capable pins (the RGB LED and buzzer need PWM)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class SimPin(MockPWMPin):
        """A mock pin whose next edge can carry the time the simulation says it happened
        (`stamp`), as lgpio stamps real edges, however late the simulating thread runs."""

        stamp: float | None = None

        def _change_state(self, value):
            changed = super()._change_state(value)
            if changed and self.stamp is not None:
                self._last_change = self.stamp
            return changed

    return MockFactory(pin_class=SimPin)


class Table:
    """LEDs, buzzer, buttons, beam and chute board; see open_table()."""

    def __init__(
        self,
        *,
        simulate: bool,
        on_event: Callable[[Event], None],
        settings: Settings | None = None,
        pins: pinmap.PinMap | None = None,
        clock: Clock | None = None,
        pin_factory=None,
        sleep: Sleep | None = None,
        serial_port: str | None = None,
        poll: bool = True,
        on_status: Callable[[str, str], None] | None = None,
    ) -> None:
        self.simulate = simulate
        self.on_event = on_event
        self.on_status = on_status
        self._failed: dict[str, str] = {}
        if pins is None:
            try:
                pins = pinmap.load(data_dir=_data_dir())
            except PinMapError as exc:
                # Never drive pins from a map we cannot read; the app still plays by touch.
                log.error("%s", exc)
                self._failed["pins"] = f"FAILED: {exc}; no parts opened"
                pins = pinmap.nothing_fitted()
        self.pins = pins
        self.clock = clock or MonotonicClock()
        if pin_factory is None and simulate:
            pin_factory = mock_pin_factory()
        self.pin_factory = pin_factory
        self._closed = threading.Event()
        self.signals: Signals | None = None
        self.buttons: ArcadeButtons | None = None
        self.beam: BallBeam | None = None
        self.board = None  # the simulated chute board, in simulation
        self.sensed: collections.deque[BallSensed] = collections.deque(maxlen=100)
        self.reader: ChuteBoardReader | None = None
        p = self.pins
        self.signals = self._part(
            "leds",
            lambda: Signals(
                p.led,
                p.buzzer,
                pin_factory=pin_factory,
                settings=settings,
                clock=self.clock,
                sleep=sleep,
            ),
        )
        self.buttons = self._part(
            "buttons",
            lambda: ArcadeButtons(
                p.buttons.pins,
                self._emit,
                hold_buttons=p.buttons.hold_buttons,
                bounce=p.buttons.bounce,
                hold=p.buttons.hold,
                pin_factory=pin_factory,
                clock=self.clock,
            ),
        )
        if p.beam.pin is not None:
            self.beam = self._part(
                "beam",
                lambda: BallBeam(
                    p.beam.pin,
                    self._emit,
                    active_low=p.beam.active_low,
                    clear=p.beam.clear,
                    blocked=p.beam.blocked,
                    pin_factory=pin_factory,
                    clock=clock,  # None: time ball gaps by the pin driver's edge stamps
                ),
            )
        if p.serial.enabled:
            self._part("serial", lambda: self._open_serial(serial_port))
        self._poller = None
        if poll and self.buttons is not None:
            self._poller = threading.Thread(target=self._poll, name="table-poll", daemon=True)
            self._poller.start()
        self._hands: queue.Queue = queue.Queue()
        self._hand = None
        if simulate:
            self._hand = threading.Thread(target=self._sim_hand, name="sim-hand", daemon=True)
            self._hand.start()

    def _part(self, name: str, build: Callable):
        try:
            return build()
        except Exception as exc:  # one broken part must not stop the game
            log.exception("table part %s failed", name)
            self._failed[name] = f"FAILED: {type(exc).__name__}: {exc}"
            return None

    def _open_serial(self, port: str | None) -> ChuteBoardReader:
        s = self.pins.serial
        if self.simulate and port is None:
            from hardware.sim_board import SimulatedChuteBoard

            self.board = SimulatedChuteBoard(references=dict(self.pins.references) or None)
            port = self.board.port
        self.reader = ChuteBoardReader(
            port or s.port,
            self._emit_reading,
            baud=s.baud,
            counts_balls=s.counts_balls,
            references=self.pins.references,
            silent_after=s.silent_after,
            backoff_min=s.backoff_min,
            backoff_max=s.backoff_max,
            on_status=self._serial_status,
        )
        return self.reader.start()

    def _serial_status(self, status: BoardStatus, text: str) -> None:
        if self.on_status is not None:
            self.on_status("serial", text)

    def _emit_reading(self, ev: Event) -> None:
        # Sensor colours reach the game only when asked for: a game must map the k-th ball
        # of its round to a BallSeen slot, which only the game knows.
        if isinstance(ev, BallSensed):
            self.sensed.append(ev)
            if not self.pins.serial.colour_events:
                return
        self._emit(ev)

    def _emit(self, ev: Event) -> None:
        if not self._closed.is_set():
            self.on_event(ev)

    def _poll(self) -> None:
        while not self._closed.wait(POLL_INTERVAL):
            try:
                self.buttons.poll()
            except Exception:
                log.exception("button poll failed")

    # the interface the app uses -------------------------------------------------------
    def cue(self, cue: Cue) -> None:
        """Show/sound `cue` on the LEDs and buzzer; returns at once."""
        if self.signals is not None and not self._closed.is_set():
            self.signals.cue(cue)

    @property
    def settings(self) -> Settings | None:
        return self.signals.settings if self.signals else None

    @settings.setter
    def settings(self, value: Settings) -> None:
        """Volume, brightness and mute take effect at once."""
        if self.signals is not None:
            self.signals.settings = value

    @property
    def status(self) -> dict[str, str]:
        """Part -> a short text for people ("ok, 3 balls", "disconnected: ...")."""
        out = {"table": "simulated" if self.simulate else "hardware"}
        if self.signals is not None:
            out.update(self.signals.status())
        out["buttons"] = self.buttons.status() if self.buttons else "not fitted"
        out["beam"] = self.beam.status() if self.beam else "not fitted"
        if self.reader is not None:
            out["serial"] = self.reader.status_text
        elif not self.pins.serial.enabled:
            out["serial"] = "not fitted"
        out.update(self._failed)
        return out

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self._hands.put(None)
        for t in (self._poller, self._hand):
            if t is not None:
                t.join(timeout=2)
        for part in (self.reader, self.board, self.signals, self.buttons, self.beam):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %r failed", part)
        if self.simulate and hasattr(self.pin_factory, "reset"):
            self.pin_factory.reset()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        kind = "simulated" if self.simulate else "hardware"
        return f"<Table {kind} {'closed' if self._closed.is_set() else 'open'}>"

    # simulation: hands on the table ------------------------------------------------------
    def _need_sim(self) -> None:
        if not self.simulate:
            raise HardwareError("press() and drop_ball() work only on the simulated table")

    def press(self, button: str, seconds: float | None = None) -> threading.Event:
        """Press a simulated button for `seconds` (a tap; hold buttons are held long enough).

        Returns an Event set once the button is released again.
        """
        self._need_sim()
        pin = self._pin_of(button)
        if seconds is None:
            seconds = TAP_SECONDS
            if button in self.pins.buttons.hold_buttons:
                seconds = self.pins.buttons.hold + 0.1
        done = threading.Event()
        self._hands.put(("press", pin, seconds, done))
        return done

    def drop_ball(self, colour: str | None = None) -> threading.Event:
        """A ball rolls out of the mill: the beam breaks (with a little chatter) and the
        chute board sends its colour reading. Returns an Event set once it has passed."""
        self._need_sim()
        done = threading.Event()
        self._hands.put(("ball", colour, None, done))
        return done

    def hold_down(self, button: str) -> None:
        """Put a finger on a simulated button and keep it there until `let_go()`: a hold
        button (undo) acts once, after it has been held for its hold time."""
        self._need_sim()
        self._hands.put(("down", self._pin_of(button), None, threading.Event()))

    def let_go(self, button: str) -> threading.Event:
        """Lift the finger `hold_down()` put on `button`; the Event is set once it is up."""
        self._need_sim()
        done = threading.Event()
        self._hands.put(("up", self._pin_of(button), None, done))
        return done

    def _pin_of(self, button: str) -> int:
        pin_of = self.pins.buttons.as_dict()
        if button not in pin_of:
            raise HardwareError(f"no button {button!r}; the table has {', '.join(pin_of)}")
        return pin_of[button]

    def handle_key(self, key: str, down: bool = True) -> bool:
        """Keyboard in simulation (see SIM_KEYS): a key goes down (`down`) or comes up. A hold
        button's key holds it for as long as the key is down; other keys tap on the way down.
        True if the key meant something."""
        what = SIM_KEYS.get(key.lower())
        if what is None or not self.simulate:
            return False
        if what == "ball":
            if down:
                self.drop_ball()
        elif what in self.pins.buttons.hold_buttons:
            if down:
                self.hold_down(what)
            else:
                self.let_go(what)
        elif what in self.pins.buttons.as_dict():
            if down:
                self.press(what)
        else:
            return False
        return True

    def _sim_hand(self) -> None:
        # One hand: presses and balls happen in order, each with real timing.
        import time

        last_ball = float("-inf")  # on the simulation's timeline
        while True:
            job = self._hands.get()
            if job is None or self._closed.is_set():
                return
            kind, arg, seconds, done = job
            try:
                if kind == "press":
                    pin = self.pin_factory.pin(arg)
                    pin.drive_low()
                    self._closed.wait(seconds)
                    pin.drive_high()
                elif kind == "down":
                    self.pin_factory.pin(arg).drive_low()
                elif kind == "up":
                    self.pin_factory.pin(arg).drive_high()
                else:
                    last_ball = max(time.monotonic(), last_ball + BALL_SPACING_SECONDS)
                    wait = last_ball - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
                    self._roll_ball(arg, last_ball)
            except Exception:
                log.exception("simulated %s failed", kind)
            finally:
                done.set()

    def _roll_ball(self, colour: str | None, at: float) -> None:
        """The beam's edges, stamped on the simulation's timeline from `at`: the beam tells
        chatter from a new ball by edge times, and a busy machine must not change the count
        (a 1 ms sleep can last 20 ms under load). Pins of another factory get real times."""
        import time

        if self.board is not None:
            self.board.ball(colour)
        if self.beam is None:
            return
        pin = self.pin_factory.pin(self.pins.beam.pin)
        broken = not self.pins.beam.active_low  # the level of a broken beam
        edges = [  # the ball's rim chatters on the beam's edge, then it blocks the beam
            (broken, BALL_CHATTER_SECONDS),
            (not broken, BALL_CHATTER_SECONDS),
            (broken, BALL_BLOCKS_SECONDS),
            (not broken, 0.0),
        ]
        for level, lasts in edges:
            if hasattr(pin, "stamp"):
                pin.stamp = at
            if level:
                pin.drive_high()
            else:
                pin.drive_low()
            at += lasts
            if lasts:
                time.sleep(lasts)
        if hasattr(pin, "stamp"):
            pin.stamp = None


def _data_dir():
    try:
        from companion import paths

        return paths.data_dir()
    except Exception:
        return None


def open_table(
    simulate: bool,
    on_event: Callable[[Event], None],
    settings: Settings | None = None,
    pins: pinmap.PinMap | None = None,
    clock: Clock | None = None,
    **options,
) -> Table:
    """Open every configured part of the table.

    simulate=True: gpiozero mock pins and a chute board on a pty (works anywhere).
    simulate=False: gpiozero's default pin factory (lgpio on a Pi) and the configured port.
    Options for tests and tools: pin_factory, sleep, serial_port, poll, on_status.
    """
    return Table(
        simulate=simulate, on_event=on_event, settings=settings, pins=pins, clock=clock, **options
    )
