"""Signals: the RGB LED and the buzzer playing cue patterns on their own thread.

`cue()` never blocks: it hands the pattern to the player thread and returns. A new cue
pre-empts a pattern of the same or lower priority: the buzzer stops at once and the new
pattern starts from its first step; a less important cue plays once the current one ends.
Brightness scales the LED; volume sets the buzzer's duty cycle; mute silences the buzzer
but keeps the lights.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from gpiozero import RGBLED, Buzzer, PWMOutputDevice

from companion.clock import Clock, MonotonicClock
from companion.cues import Cue
from companion.settings import Settings
from hardware.colours import OFF, RGB
from hardware.patterns import BASE, Pattern, Step, pattern_for
from hardware.pins import BuzzerPin, LedPins

log = logging.getLogger(__name__)

# sleep(seconds, interrupt) -> True when interrupted. The real one waits on the event.
Sleep = Callable[[float, threading.Event], bool]


def event_sleep(seconds: float, interrupt: threading.Event) -> bool:
    return interrupt.wait(seconds) if seconds > 0 else interrupt.is_set()


class ToneBuzzer:
    """A passive piezo on a PWM pin: frequency is the note, duty cycle the loudness.

    gpiozero's TonalBuzzer fixes the duty at 50 %, so volume would be lost; this drives the
    same PWMOutputDevice directly. kind="active" drives an active buzzer on/off instead.
    """

    def __init__(self, pin: int, *, kind: str = "passive", pin_factory=None) -> None:
        self.kind = kind
        if kind == "active":
            self.device = Buzzer(pin, pin_factory=pin_factory)
        else:
            self.device = PWMOutputDevice(
                pin, frequency=440, initial_value=0, pin_factory=pin_factory
            )
        self.tone: float | None = None

    def play(self, hz: float, volume: float) -> None:
        if self.kind == "active":
            self.device.on()
        else:
            if self.device.frequency != hz:
                self.device.frequency = hz
            self.device.value = 0.5 * volume  # 50 % duty is a piezo's loudest
        self.tone = hz

    def stop(self) -> None:
        if self.kind == "active":
            self.device.off()
        else:
            self.device.value = 0
        self.tone = None

    def close(self) -> None:
        self.device.close()

    def __repr__(self) -> str:
        return f"<ToneBuzzer {self.kind} {self.device.pin} tone={self.tone}>"


class Signals:
    """The LED and buzzer of the table, driven by engine cues."""

    def __init__(
        self,
        led: LedPins | None,
        buzzer: BuzzerPin | None,
        *,
        pin_factory=None,
        settings: Settings | None = None,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.clock = clock or MonotonicClock()
        self._sleep = sleep or event_sleep
        self._settings = (settings or Settings()).validated()
        self.led = None
        self.buzzer = None
        try:
            if led is not None and led.fitted:
                self.led = RGBLED(
                    led.red,
                    led.green,
                    led.blue,
                    active_high=not led.common_anode,
                    pwm=True,
                    pin_factory=pin_factory,
                )
            if buzzer is not None and buzzer.pin is not None:
                self.buzzer = ToneBuzzer(buzzer.pin, kind=buzzer.kind, pin_factory=pin_factory)
        except Exception:
            self._close_devices()
            raise
        self.base: RGB = OFF
        self.current: str | None = None  # the pattern playing, for status and tests
        self.played = 0
        self._pending: Pattern | None = None
        self._playing: Pattern | None = None
        self._cond = threading.Condition()
        self._interrupt = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="signals", daemon=True)
        self._thread.start()

    # public ------------------------------------------------------------------
    def cue(self, cue: Cue) -> bool:
        """Play the pattern for `cue` (pre-empting any other). False if it has none."""
        pattern = pattern_for(cue)
        if pattern is None:
            return False
        self.play(pattern)
        return True

    def play(self, pattern: Pattern) -> None:
        """Pre-empt the pattern playing if `pattern` is as important, else play it next.

        At most one pattern waits: a newer one replaces it unless it is less important. The
        base (resting) colour changes at once, in arrival order, whether or not it plays.
        """
        with self._cond:
            if self._closed:
                return
            if pattern.base is not None:
                self.base = pattern.base  # shown when the playing pattern ends
            if self._pending is not None and pattern.priority < self._pending.priority:
                return  # stale news behind a more important waiting pattern
            self._pending = pattern
            self._idle.clear()
            if self._playing is None or pattern.priority >= self._playing.priority:
                self._interrupt.set()
            self._cond.notify()

    def wait_idle(self, timeout: float | None = None) -> bool:
        return self._idle.wait(timeout)

    @property
    def settings(self) -> Settings:
        return self._settings

    @settings.setter
    def settings(self, value: Settings) -> None:
        self._settings = value.validated()
        if self._idle.is_set():
            self._show_led(self.base)
        if self._settings.mute and self.buzzer is not None:
            self.buzzer.stop()

    def status(self) -> dict[str, str]:
        s = self._settings
        leds = f"ok, brightness {s.brightness:.0%}" if self.led else "not fitted"
        if self.buzzer is None:
            buzzer = "not fitted"
        elif s.mute or s.volume <= 0:
            buzzer = f"ok, muted ({self.buzzer.kind})"
        else:
            buzzer = f"ok, volume {s.volume:.0%} ({self.buzzer.kind})"
        return {"leds": leds, "buzzer": buzzer}

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._pending = None
            self._interrupt.set()
            self._cond.notify()
        self._thread.join(timeout=2)
        self._close_devices()

    def __enter__(self) -> Signals:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else (self.current or "idle")
        return f"<Signals led={self.led is not None} buzzer={self.buzzer!r} {state}>"

    # player thread -------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                pattern, self._pending = self._pending, None
                self._playing = pattern
                self._interrupt.clear()
            try:
                self._play(pattern)
            except Exception:  # a broken pin must not kill the player: log and go on
                log.exception("signal pattern %s failed", pattern.name)
            with self._cond:
                self._playing = None
                if self._pending is None:
                    self.current = None
                    self._idle.set()

    def _play(self, pattern: Pattern) -> None:
        self.current = pattern.name
        self.played += 1
        at = self.clock.now()
        for step in pattern.steps:
            self._show(step)
            at += step.duration
            if self._sleep(max(0.0, at - self.clock.now()), self._interrupt):
                self._silence()  # pre-empted: the next pattern sets the LED itself
                return
        self._silence()
        self._show_led(self.base)

    def _show(self, step: Step) -> None:
        if step.led is not None:
            self._show_led(self.base if step.led == BASE else step.led)
        s = self._settings
        if step.tone is None or s.mute or s.volume <= 0:
            self._silence()
        elif self.buzzer is not None:
            self.buzzer.play(step.tone, s.volume)

    def _show_led(self, rgb: RGB) -> None:
        if self.led is not None:
            k = self._settings.brightness
            self.led.value = (rgb[0] * k, rgb[1] * k, rgb[2] * k)

    def _silence(self) -> None:
        if self.buzzer is not None and self.buzzer.tone is not None:
            self.buzzer.stop()

    def _close_devices(self) -> None:
        for dev in (self.led, self.buzzer):
            if dev is not None:
                try:
                    dev.close()
                except Exception:  # closing is best effort; the pins are freed anyway
                    log.debug("closing %r failed", dev, exc_info=True)
