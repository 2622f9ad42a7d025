"""`companion doctor`, hardware part: walk through every configured part of the table.

On a Pi with a terminal it asks a person to look, listen, press and drop balls. With
--simulate, or when no Pi is found, it runs unattended on the simulated table: the same code
paths, with the presses and balls made by the simulated hands. On a Pi with no terminal it
checks what it can alone (pin map, parts open, no button stuck, beam clear, board answers).
Prompts go to stderr so `--json` output stays clean.
"""

from __future__ import annotations

import atexit
import contextlib
import queue
import sys
import time
from collections.abc import Callable

from companion.checks import CheckResult
from companion.events import BallPassed, ButtonPressed
from hardware import pins as pinmap
from hardware.colours import LED_COLOURS
from hardware.patterns import TEST_TONES, Pattern, Step
from hardware.serial_board import BoardStatus
from hardware.sim_hands import SimulatedHands
from hardware.sim_table import SimulatedTable, open_simulated_table
from hardware.table import Table, open_table, pi_present

LED_TESTS = ("red", "green", "blue", "white")
SIM_BALLS = ("blue", "green", "orange", "pink", "purple")
PRESS_TIMEOUT = 15.0  # seconds a person gets to press a button
BALL_TIMEOUT = 30.0


def _check(part: str):
    def wrap(fn: Callable[[], CheckResult]) -> Callable[[], CheckResult]:
        fn.part = part  # the core names a crashed check by this
        return fn

    return wrap


class _Session:
    """The table opened once for all hardware checks, and what it reported."""

    def __init__(self, args) -> None:
        self.args = args
        self.simulate = bool(getattr(args, "simulate", False)) or not pi_present()
        self.interactive = not self.simulate and sys.stdin.isatty()
        self.events: queue.Queue = queue.Queue()
        self.table: Table | None = None
        self.simulated: SimulatedTable | None = None  # the table and its hands, simulated
        self.pins: pinmap.PinMap | None = None
        self.dropped: list[str] = []

    def data_dir(self):
        from companion import paths

        return paths.data_dir(getattr(self.args, "data_dir", None))

    def open(self) -> Table:
        if self.table is None:
            from companion import paths, settings

            s, _ = settings.load(paths.settings_path(self.data_dir()))
            self.pins = pinmap.load(data_dir=self.data_dir())
            if self.simulate:
                self.simulated = open_simulated_table(self.events.put, settings=s, pins=self.pins)
                self.table = self.simulated.table
            else:
                self.table = open_table(self.events.put, settings=s, pins=self.pins)
            atexit.register(self.close)
        return self.table

    @property
    def hands(self) -> SimulatedHands:
        """The simulated hands that press and drop balls when no person does."""
        return self.simulated.hands

    def close(self) -> None:
        if self.simulated is not None:
            self.simulated.close()
        elif self.table is not None:
            self.table.close()

    def ask(self, question: str) -> bool:
        print(f"  {question} [Y/n] ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip().lower()
        return answer in ("", "y", "yes")

    def say(self, text: str) -> None:
        print(f"  {text}", file=sys.stderr, flush=True)

    def collect(self, want: Callable[[object], bool], n: int, timeout: float) -> list:
        """Wait for `n` events matching `want`; other events are kept aside."""
        got, end = [], time.monotonic() + timeout
        while len(got) < n:
            try:
                ev = self.events.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                break
            if want(ev):
                got.append(ev)
        return got

    def drain(self) -> None:
        self.collect(lambda ev: False, 1, 0.0)


def checks(args) -> list[Callable[[], CheckResult]]:
    s = _Session(args)
    out: list[Callable[[], CheckResult]] = []

    @_check("pin map")
    def pin_map() -> CheckResult:
        pm = pinmap.load(data_dir=s.data_dir())
        used = ", ".join(f"{k} {v}" for k, v in pm.gpio_pins().items())
        return CheckResult("pin map", True, f"{' + '.join(pm.source)}: BCM {used}")

    @_check("table")
    def table() -> CheckResult:
        if not s.simulate:
            from gpiozero import Device

            Device.ensure_pin_factory()  # fails clearly when no GPIO library is installed
        t = s.open()
        failed = {k: v for k, v in t.status.items() if v.startswith("FAILED")}
        how = "simulated (mock pins, chute board on a pty)" if s.simulate else "Raspberry Pi"
        if not s.simulate and not s.interactive:
            how += ", unattended: no one to look, listen or press"
        return CheckResult(
            "table", not failed, "; ".join(f"{k} {v}" for k, v in failed.items()) or how
        )

    out += [pin_map, table]

    for name in LED_TESTS:

        @_check(f"led {name}")
        def led(name=name) -> CheckResult:
            t = s.open()
            if t.signals is None or t.signals.led is None:
                return CheckResult(f"led {name}", True, "not fitted")
            rgb = LED_COLOURS[name]
            t.signals.play(Pattern(f"doctor-{name}", (Step(0.6 if s.interactive else 0.2, rgb),)))
            k = t.signals.settings.brightness
            want = tuple(round(c * k, 3) for c in rgb)
            end, seen = time.monotonic() + 1.0, None
            while time.monotonic() < end:  # what the pins were told to show
                seen = tuple(round(c, 3) for c in t.signals.led.value)
                if seen == want:
                    break
                time.sleep(0.005)
            if seen != want:
                return CheckResult(f"led {name}", False, f"pins show {seen}, wanted {want}")
            if s.interactive:
                ok = s.ask(f"Is the LED {name}?")
                return CheckResult(f"led {name}", ok, "seen" if ok else "not seen by the tester")
            t.signals.wait_idle(1)
            return CheckResult(f"led {name}", True, f"pins {want} at brightness {k:.0%}")

        out.append(led)

    for label, hz in TEST_TONES.items():

        @_check(f"buzzer {label}")
        def tone(label=label, hz=hz) -> CheckResult:
            t = s.open()
            part = f"buzzer {label} {hz:.0f} Hz"
            if t.signals is None or t.signals.buzzer is None:
                return CheckResult(part, True, "not fitted")
            st = t.signals.settings
            if st.mute or st.volume <= 0:
                return CheckResult(part, True, "muted in settings: not played")
            t.signals.play(Pattern(f"doctor-{label}", (Step(0.3, None, hz),)))
            end = time.monotonic() + 1.0
            while time.monotonic() < end and t.signals.buzzer.tone != hz:
                time.sleep(0.005)
            sounding = t.signals.buzzer.tone == hz
            t.signals.wait_idle(1)
            if not sounding:
                return CheckResult(part, False, "the buzzer was never driven")
            if s.interactive:
                ok = s.ask(f"Did you hear a {label} beep?")
                return CheckResult(part, ok, "heard" if ok else "not heard by the tester")
            return CheckResult(part, True, f"driven at {st.volume:.0%} volume")

        out.append(tone)

    pm = None
    with contextlib.suppress(Exception):  # a bad pin map is reported by its own check
        pm = pinmap.load(data_dir=s.data_dir())
    hold_names = pm.buttons.hold_buttons if pm else frozenset()
    for name, _pin in pm.buttons.pins if pm else ():

        @_check(f"button {name}")
        def button(name=name) -> CheckResult:
            t = s.open()
            if t.buttons is None:
                return CheckResult(f"button {name}", False, "buttons failed to open")
            if t.buttons.buttons[name].device.is_active:
                return CheckResult(f"button {name}", False, "reads pressed: stuck or mis-wired")
            s.drain()
            if s.simulate:
                s.hands.press(name)
            elif s.interactive:
                how = "Hold" if name in hold_names else "Press"
                s.say(f"{how} the {name.upper()} button now...")
            else:
                return CheckResult(f"button {name}", True, "released (no one to press it)")
            timeout = PRESS_TIMEOUT if s.interactive else 3.0
            got = s.collect(lambda ev: ev == ButtonPressed(name), 1, timeout)
            if not got:
                return CheckResult(f"button {name}", False, f"no press seen in {timeout:.0f} s")
            held = " (held)" if name in hold_names else ""
            return CheckResult(f"button {name}", True, f"pressed{held}, debounced to one event")

        out.append(button)

    @_check("beam")
    def beam() -> CheckResult:
        t = s.open()
        if t.beam is None:
            return CheckResult("beam", True, "not fitted")
        if t.beam.device.is_active:
            return CheckResult("beam", False, "beam broken: a ball is stuck or it is misaligned")
        s.drain()
        if s.simulate:
            passed = [s.hands.drop_ball(colour) for colour in SIM_BALLS]
            s.dropped = list(SIM_BALLS)
            n, timeout = len(SIM_BALLS), 3.0
            for done in passed:
                done.wait(timeout)
        elif s.interactive:
            n, timeout = 3, BALL_TIMEOUT
            s.say("Roll 3 balls through the chute, one after another...")
        else:
            return CheckResult("beam", True, "clear (no one to drop balls)")
        got = s.collect(lambda ev: isinstance(ev, BallPassed), n, timeout)
        counted = sum(ev.count for ev in got)
        return CheckResult(
            "beam",
            counted == n,
            f"{counted} of {n} balls counted ({t.beam.chatter} chatter edges ignored)",
        )

    @_check("serial board")
    def serial_board() -> CheckResult:
        t = s.open()
        try:
            if t.reader is None:
                return CheckResult("serial board", True, "not fitted")
            t.reader.wait_for(BoardStatus.CONNECTED, 3.0)
            if t.reader.version is None:  # connected but the version line may still come
                end = time.monotonic() + 2.0
                while t.reader.version is None and time.monotonic() < end:
                    time.sleep(0.02)
            ok = t.reader.status == BoardStatus.CONNECTED and t.reader.version is not None
            read = ""
            if ok and s.dropped:  # the sensor read the balls the beam check dropped
                end = time.monotonic() + 1.0
                while len(t.sensed) < len(s.dropped) and time.monotonic() < end:
                    time.sleep(0.01)
                colours = [e.colour for e in t.sensed]
                ok = colours == s.dropped
                read = f"; sensor read {', '.join(map(str, colours))}"
            if t.reader.protocol == 1:  # read, but a damaged line can pass as a good one
                read += "; WARNING: old protocol 1 firmware, update it (docs/hardware.md)"
            return CheckResult("serial board", ok, t.reader.status_text + read)
        finally:
            s.close()

    out += [beam, serial_board]

    try:
        from vision.doctor import checks as vision_checks  # the camera adds its own checks
    except ImportError:
        pass
    else:
        out += list(vision_checks(args))
    return out
