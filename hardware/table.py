"""The table: every part behind one small interface, the same on any backend.

    with open_table(on_event=handle) as table:
        table.cue(PhaseStarted("planning", "ann", "red"))   # never blocks

`on_event` is called from hardware threads (gpiozero's callback thread, the serial reader);
the app passes `companion.runtime.Runtime.post`, which queues each reading for the game.
On a Pi the parts use gpiozero's default pin factory (lgpio) and the configured port; the
simulated table (hardware.sim_table) runs this same Table on mock pins and a chute board on
a pseudo-terminal, with hands that act on it from outside (hardware.sim_hands).
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from companion.clock import Clock, MonotonicClock
from companion.cues import Cue
from companion.events import BallPassed, Event
from companion.settings import Settings
from hardware import pins as pinmap
from hardware.errors import PinMapError
from hardware.events import BallSensed
from hardware.inputs import ArcadeButtons, BallBeam
from hardware.rate_guard import RateGuard
from hardware.serial_board import BoardStatus, ChuteBoardReader
from hardware.signals import Signals, Sleep

log = logging.getLogger(__name__)

MODEL_FILE = Path("/proc/device-tree/model")
POLL_INTERVAL = 0.01  # seconds between button polls (settles bounces, fires holds)
IDLE_POLL = 1.0  # seconds between polls while no button is touched (an edge wakes it sooner)


def pi_present(model_file: Path = MODEL_FILE) -> bool:
    """True on a Raspberry Pi (its device tree names the model)."""
    try:
        return "Raspberry Pi" in model_file.read_text(errors="replace")
    except OSError:
        return False


class Table:
    """LEDs, buzzer, buttons, beam and chute board; see open_table()."""

    def __init__(
        self,
        *,
        on_event: Callable[[Event], None],
        settings: Settings | None = None,
        pins: pinmap.PinMap | None = None,
        clock: Clock | None = None,
        pin_factory=None,
        sleep: Sleep | None = None,
        serial_port: str | None = None,
        poll: bool = True,
        on_status: Callable[[str, str], None] | None = None,
        on_fault: Callable[[str, str | None], None] | None = None,
        kind: str = "hardware",
    ) -> None:
        self.kind = kind  # what people are told the table is: "hardware", "simulated"
        self.on_event = on_event
        self.on_status = on_status
        self.on_fault = on_fault  # (part, why) when a sensor turns faulty, (part, None) when calm
        self._failed: dict[str, str] = {}
        # The ball sensors, each checked for more balls than can pass (rate_guard).
        self.guards = {
            part: RateGuard(part, on_change=lambda text, part=part: self._guard_status(part, text))
            for part in ("beam", "serial")
        }
        pins = configured_pins() if pins is None else pins
        if pins.unreadable is not None:
            self._failed["pins"] = f"FAILED: {pins.unreadable}; no parts opened"
        self.pins = pins
        self.clock = clock or MonotonicClock()
        self.pin_factory = pin_factory
        self._closed = threading.Event()
        self.signals: Signals | None = None
        self.buttons: ArcadeButtons | None = None
        self.beam: BallBeam | None = None
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
                    self._emit_beam,
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

    def _part(self, name: str, build: Callable):
        try:
            return build()
        except Exception as exc:  # one broken part must not stop the game
            log.exception("table part %s failed", name)
            self._failed[name] = f"FAILED: {type(exc).__name__}: {exc}"
            return None

    def _open_serial(self, port: str | None) -> ChuteBoardReader:
        s = self.pins.serial
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

    def _guard_status(self, part: str, text: str | None) -> None:
        log.warning("%s: %s", part, text or "calm again")
        if self.on_fault is not None:
            self.on_fault(part, text)

    def _emit_beam(self, ev: Event) -> None:
        if self.guards["beam"].admit():
            self._emit(ev)

    def _emit_reading(self, ev: Event) -> None:
        if isinstance(ev, BallSensed | BallPassed) and not self.guards["serial"].admit():
            return
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
        """Poll the buttons often while one is touched (bounces to settle, a hold to time);
        while none is, sleep until an edge: an idle table costs no wake-ups."""
        buttons = self.buttons
        while not self._closed.is_set():
            try:
                if buttons.busy():
                    self._closed.wait(POLL_INTERVAL)
                else:
                    buttons.stirred.wait(IDLE_POLL)
                    buttons.stirred.clear()  # an edge after this finds busy() true
                buttons.poll()
            except Exception:
                log.exception("button poll failed")
                self._closed.wait(POLL_INTERVAL)

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
        out = {"table": self.kind}
        if self.signals is not None:
            out.update(self.signals.status())
        out["buttons"] = self.buttons.status() if self.buttons else "not fitted"
        out["beam"] = self.beam.status() if self.beam else "not fitted"
        if self.reader is not None:
            out["serial"] = self.reader.status_text
        elif not self.pins.serial.enabled:
            out["serial"] = "not fitted"
        for part, guard in self.guards.items():
            if part in out and (faulty := guard.status()):
                out[part] = faulty
        out.update(self._failed)
        return out

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        if self.buttons is not None:
            self.buttons.stirred.set()  # the poller wakes up to stop
        if self._poller is not None:
            self._poller.join(timeout=2)
        for part in (self.reader, self.signals, self.buttons, self.beam):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    log.exception("closing %r failed", part)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Table {self.kind} {'closed' if self._closed.is_set() else 'open'}>"


def _data_dir():
    try:
        from companion import paths

        return paths.data_dir()
    except Exception:
        return None


def configured_pins() -> pinmap.PinMap:
    """This install's pin map; when it cannot be read, a table with no parts that says why:
    never drive pins from a map we cannot read (the app still plays by touch)."""
    try:
        return pinmap.load(data_dir=_data_dir())
    except PinMapError as exc:
        log.error("%s", exc)
        return pinmap.nothing_fitted(unreadable=str(exc))


def open_table(
    on_event: Callable[[Event], None],
    settings: Settings | None = None,
    pins: pinmap.PinMap | None = None,
    clock: Clock | None = None,
    **options,
) -> Table:
    """Open every configured part of the table: gpiozero's default pin factory (lgpio on a
    Pi) and the configured port. Options for tests and tools: pin_factory, sleep,
    serial_port, poll, on_status, on_fault. The simulated table: hardware.sim_table.
    """
    return Table(on_event=on_event, settings=settings, pins=pins, clock=clock, **options)
