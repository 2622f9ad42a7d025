"""Inputs: the big arcade buttons and the IR break-beam at the mill chute.

Both are debounced in software on an injectable clock, so they behave the same on lgpio,
on gpiozero's mock pins and in tests, and the first edge is acted on at once (no waiting
for the contacts to settle before a press counts).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gpiozero import DigitalInputDevice

from companion.clock import Clock, MonotonicClock
from companion.events import BallPassed, ButtonPressed, Event

log = logging.getLogger(__name__)

OnEvent = Callable[[Event], None]


@dataclass
class _ButtonState:
    device: DigitalInputDevice
    hold: bool
    pressed: bool = False  # the debounced state
    locked_until: float = float("-inf")
    edge_at: float = float("-inf")  # the last raw edge, bounce or not
    pressed_at: float = 0.0
    hold_fired: bool = False
    presses: int = 0


class ArcadeButtons:
    """Named buttons -> `ButtonPressed(name)`.

    Debounce: an edge that changes the debounced state is accepted at once and starts a
    lock-out of `bounce` seconds in which further edges are contact bounce. `poll()`
    (called every few ms by the table, or by tests) settles a change that happened inside
    the lock-out and fires hold buttons. A hold button (undo) acts only once held for
    `hold` seconds: a tap does nothing, so an accidental knock cannot undo a move.
    """

    def __init__(
        self,
        pins: Iterable[tuple[str, int]],
        on_event: OnEvent,
        *,
        hold_buttons: Iterable[str] = ("undo",),
        bounce: float = 0.08,
        hold: float = 1.0,
        pin_factory=None,
        clock: Clock | None = None,
    ) -> None:
        self.on_event = on_event
        self.clock = clock or MonotonicClock()
        self.bounce = bounce
        self.hold = hold
        holds = set(hold_buttons)
        self._lock = threading.RLock()
        self.stirred = threading.Event()  # set by every edge: a sleeping poller wakes up
        self.buttons: dict[str, _ButtonState] = {}
        try:
            for name, pin in pins:
                # Holds and bounce are timed here on the injected clock, so the plain input
                # serves: gpiozero's Button would add a hold thread waking ten times a second.
                dev = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
                self.buttons[name] = _ButtonState(dev, name in holds)
                dev.when_activated = lambda name=name: self._edge(name)
                dev.when_deactivated = lambda name=name: self._edge(name)
        except Exception:
            self.close()
            raise

    def _edge(self, name: str) -> None:
        now = self.clock.now()
        with self._lock:
            self.buttons[name].edge_at = now
        self._settle(name, now)
        self.stirred.set()

    def _settle(self, name: str, now: float) -> None:
        with self._lock:
            b = self.buttons[name]
            if now < b.locked_until:
                return
            raw = b.device.is_active
            if raw == b.pressed:
                return
            # A change that came inside the lock-out took effect when the lock-out ended,
            # however late a busy poller settles it: a hold is timed from there.
            at = min(now, max(b.locked_until, b.edge_at))
            b.pressed = raw
            b.locked_until = at + self.bounce
            if raw:
                b.pressed_at = at
                b.hold_fired = False
                if not b.hold:
                    self._emit(name)
            elif b.hold and not b.hold_fired and at - b.pressed_at >= self.hold:
                self._fire_hold(name)

    def _fire_hold(self, name: str) -> None:
        self.buttons[name].hold_fired = True
        self._emit(name)

    def _emit(self, name: str) -> None:
        self.buttons[name].presses += 1
        try:
            self.on_event(ButtonPressed(name))
        except Exception:  # the app's handler failing must not stop the buttons
            log.exception("on_event failed for button %s", name)

    def poll(self) -> None:
        now = self.clock.now()
        with self._lock:
            for name, b in self.buttons.items():
                self._settle(name, now)
                if b.pressed and b.hold and not b.hold_fired and now - b.pressed_at >= self.hold:
                    self._fire_hold(name)

    def busy(self) -> bool:
        """Whether `poll()` has work soon: a change inside a lock-out to settle, or a hold
        button down whose hold may fire. Otherwise only an edge (`stirred`) changes anything."""
        now = self.clock.now()
        with self._lock:
            return any(
                now <= b.locked_until
                or b.device.is_active != b.pressed
                or (b.pressed and b.hold and not b.hold_fired)
                for b in self.buttons.values()
            )

    def is_pressed(self, name: str) -> bool:
        return self.buttons[name].pressed

    def status(self) -> str:
        if not self.buttons:
            return "not fitted"
        held = [n for n, b in self.buttons.items() if b.pressed]
        names = ", ".join(self.buttons)
        return f"ok: {names}" + (f" (held: {', '.join(held)})" if held else "")

    def close(self) -> None:
        for b in self.buttons.values():
            b.device.close()

    def __enter__(self) -> ArcadeButtons:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ArcadeButtons {', '.join(self.buttons)} bounce={self.bounce * 1e3:.0f}ms>"


class _EdgeTimedInput(DigitalInputDevice):
    """Keeps the pin driver's timestamp of the edge being handled (lgpio's kernel time)."""

    edge_ticks = None

    def _pin_changed(self, ticks, state):
        self.edge_ticks = ticks
        super()._pin_changed(ticks, state)


class BallBeam:
    """The IR break-beam at the mill chute: one `BallPassed()` per ball, at the break.

    A ball is counted on the edge that breaks the beam. The beam chatters while a ball's
    rim crosses it; a new break counts as a new ball only if the beam was clear for
    `clear` seconds before it (balls leave the mill at least ~60 ms apart, each blocking
    the beam for ~20-35 ms, so there is a clear gap of 25 ms or more between balls).

    Without a `clock`, gaps are measured with the pin driver's edge timestamps, so edges
    that reach Python late and in a burst (a busy interpreter delays lgpio's callback
    thread) are still told apart. With a `clock` (tests), gaps are measured on it.
    """

    def __init__(
        self,
        pin: int,
        on_event: OnEvent,
        *,
        active_low: bool = True,
        clear: float = 0.015,
        blocked: float = 1.0,
        pin_factory=None,
        clock: Clock | None = None,
    ) -> None:
        self.on_event = on_event
        self._edge_timed = clock is None
        self.clock = clock or MonotonicClock()
        self.clear = clear
        self.blocked = blocked
        self.count = 0
        self.chatter = 0  # breaks ignored as bounce, for the doctor and tuning
        self._lock = threading.Lock()
        self._cleared_at = None  # when the beam last became clear (edge ticks or clock)
        self._broken_at: float | None = None  # on the clock, for the blocked report
        # The receiver is open collector: pull up and read low as "broken" (active).
        if active_low:
            self.device = _EdgeTimedInput(pin, pull_up=True, pin_factory=pin_factory)
        else:
            self.device = _EdgeTimedInput(
                pin, pull_up=None, active_state=True, pin_factory=pin_factory
            )
        self.device.when_activated = self._broken
        self.device.when_deactivated = self._restored

    def _edge_time(self):
        ticks = self.device.edge_ticks
        return ticks if self._edge_timed and ticks is not None else self.clock.now()

    def _gap(self, later, earlier) -> float:
        if self._edge_timed and self.device.edge_ticks is not None:
            return self.device.pin_factory.ticks_diff(later, earlier)
        return later - earlier

    def _broken(self) -> None:
        at = self._edge_time()
        with self._lock:
            self._broken_at = self.clock.now()
            if self._cleared_at is not None and self._gap(at, self._cleared_at) < self.clear:
                self.chatter += 1
                return
            self.count += 1
        try:
            self.on_event(BallPassed())
        except Exception:
            log.exception("on_event failed for a ball")

    def _restored(self) -> None:
        with self._lock:
            self._cleared_at = self._edge_time()
            self._broken_at = None

    @property
    def is_blocked(self) -> bool:
        at = self._broken_at
        return at is not None and self.clock.now() - at >= self.blocked

    def status(self) -> str:
        if self.is_blocked:
            return f"BLOCKED: beam broken for {self.clock.now() - self._broken_at:.1f} s"
        return f"ok, {self.count} balls"

    def close(self) -> None:
        self.device.close()

    def __enter__(self) -> BallBeam:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<BallBeam {self.device.pin} count={self.count}>"
