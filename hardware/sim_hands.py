"""A person's hands at the simulated table: they press the arcade buttons and drop balls by
driving the mock pins and the simulated chute board, from outside the table, as a person
would. The table (hardware.table.Table) cannot tell them from real hands.

    with open_simulated_table(on_event=handle) as sim:    # hardware.sim_table
        sim.hands.press("next"); sim.hands.drop_ball("pink")

One thread does everything in order, with real timing: a tap lasts TAP_SECONDS, a hold
button is held past its hold time, a ball's rim chatters on the beam before it blocks it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time

from hardware import pins as pinmap
from hardware.errors import HardwareError
from hardware.sim_board import SimulatedChuteBoard

log = logging.getLogger(__name__)

# How long a tap lasts, how long a ball blocks the beam, how balls space out.
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


class SimulatedHands:
    """Hands on the table wired as `pins`: its buttons and beam on `pin_factory`'s pins, its
    chute board `board` (None: no board fitted)."""

    def __init__(
        self, pins: pinmap.PinMap, pin_factory, board: SimulatedChuteBoard | None = None
    ) -> None:
        self.pins = pins
        self.pin_factory = pin_factory
        self.board = board
        self._jobs: queue.Queue = queue.Queue()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._work, name="sim-hand", daemon=True)
        self._thread.start()

    def press(self, button: str, seconds: float | None = None) -> threading.Event:
        """Press `button` for `seconds` (a tap; hold buttons are held long enough).

        Returns an Event set once the button is released again.
        """
        pin = self._pin_of(button)
        if seconds is None:
            seconds = TAP_SECONDS
            if button in self.pins.buttons.hold_buttons:
                seconds = self.pins.buttons.hold + 0.1
        done = threading.Event()
        self._jobs.put(("press", pin, seconds, done))
        return done

    def drop_ball(self, colour: str | None = None) -> threading.Event:
        """A ball rolls out of the mill: the beam breaks (with a little chatter) and the
        chute board sends its colour reading. Returns an Event set once it has passed."""
        done = threading.Event()
        self._jobs.put(("ball", colour, None, done))
        return done

    def hold_down(self, button: str) -> None:
        """Put a finger on `button` and keep it there until `let_go()`: a hold button (undo)
        acts once, after it has been held for its hold time."""
        self._jobs.put(("down", self._pin_of(button), None, threading.Event()))

    def let_go(self, button: str) -> threading.Event:
        """Lift the finger `hold_down()` put on `button`; the Event is set once it is up."""
        done = threading.Event()
        self._jobs.put(("up", self._pin_of(button), None, done))
        return done

    def handle_key(self, key: str, down: bool = True) -> bool:
        """The keyboard (see SIM_KEYS): a key goes down (`down`) or comes up. A hold button's
        key holds it for as long as the key is down; other keys tap on the way down.
        True if the key meant something."""
        what = SIM_KEYS.get(key.lower())
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

    def close(self) -> None:
        """The hands leave the table: what they were doing stops, nothing more is done."""
        self._stopped.set()
        self._jobs.put(None)
        self._thread.join(timeout=2)

    def _pin_of(self, button: str) -> int:
        pin_of = self.pins.buttons.as_dict()
        if button not in pin_of:
            raise HardwareError(f"no button {button!r}; the table has {', '.join(pin_of)}")
        return pin_of[button]

    def _work(self) -> None:
        # One hand: presses and balls happen in order, each with real timing.
        last_ball = float("-inf")  # on the simulation's timeline
        while True:
            job = self._jobs.get()
            if job is None or self._stopped.is_set():
                return
            kind, arg, seconds, done = job
            try:
                if kind == "press":
                    pin = self.pin_factory.pin(arg)
                    pin.drive_low()
                    self._stopped.wait(seconds)
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
        if self.board is not None:
            self.board.ball(colour)
        if self.pins.beam.pin is None:
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
