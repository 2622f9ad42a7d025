"""Latency of the table's signal and sensor paths, on gpiozero's mock pins and a pty.

    python benchmarks/hardware_latency.py [--n 500]

cue -> pin      Table/Signals.cue() until the LED (or buzzer) pin changes state
beam -> event   the beam pin falling until BallPassed reaches on_event
button -> event an arcade button pin falling until ButtonPressed reaches on_event
serial -> event the chute board writing a ball line until BallSensed reaches on_event
drop -> event   SimulatedHands.drop_ball() (simulated hand thread) until BallPassed

Mock pins call back in the thread that drives them, so beam/button figures are our own
software path (gpiozero dispatch + debounce + event); on a Pi, lgpio's callback thread adds
its own wake-up time on top.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from companion import cues  # noqa: E402
from companion.clock import FakeClock  # noqa: E402
from companion.events import BallPassed  # noqa: E402
from companion.settings import Settings  # noqa: E402
from hardware import pins as pinmap  # noqa: E402
from hardware.events import BallSensed  # noqa: E402
from hardware.inputs import ArcadeButtons, BallBeam  # noqa: E402
from hardware.rate_guard import MOST, WITHIN  # noqa: E402
from hardware.serial_board import BoardStatus, ChuteBoardReader  # noqa: E402
from hardware.signals import Signals  # noqa: E402
from hardware.sim_board import DEFAULT_REFERENCES, SimulatedChuteBoard  # noqa: E402
from hardware.sim_table import open_simulated_table  # noqa: E402


class TimedPin(MockPWMPin):
    """A mock PWM pin that timestamps every change with perf_counter."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.changed = threading.Event()
        self.changed_at = 0.0

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self.changed_at = time.perf_counter()
            self.changed.set()
        return changed


def summary(name: str, samples: list[float]) -> str:
    s = sorted(samples)
    med = statistics.median(s)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    unit, k = ("ms", 1e3) if med >= 1e-3 else ("us", 1e6)
    return (
        f"{name:<16} n={len(s):<5} median {med * k:8.1f} {unit}   p95 {p95 * k:8.1f} {unit}"
        f"   max {s[-1] * k:8.1f} {unit}"
    )


def cue_to_pin(n: int) -> tuple[list[float], list[float]]:
    factory = MockFactory(pin_class=TimedPin)
    pm = pinmap.load()
    led_lat, buz_lat = [], []
    with Signals(
        pm.led, pm.buzzer, pin_factory=factory, settings=Settings(brightness=1.0, volume=1.0)
    ) as sig:
        red, buzzer = factory.pin(pm.led.red), factory.pin(pm.buzzer.pin)
        for i in range(n):
            red.changed.clear()
            buzzer.changed.clear()
            t0 = time.perf_counter()
            sig.cue(cues.PhaseStarted("bench", None, "red" if i % 2 == 0 else "blue"))
            if not red.changed.wait(1) or not buzzer.changed.wait(1):
                raise RuntimeError("a cue never reached its pins")
            led_lat.append(red.changed_at - t0)
            buz_lat.append(buzzer.changed_at - t0)
            time.sleep(0.002)
    return led_lat, buz_lat


def input_to_event(n: int) -> tuple[list[float], list[float]]:
    factory, clock = MockFactory(), FakeClock(0.0)
    stamp = {}

    def on_event(ev):
        stamp["t"] = time.perf_counter()

    beam_lat, button_lat = [], []
    with (
        BallBeam(23, on_event, pin_factory=factory, clock=clock) as beam,
        ArcadeButtons((("next", 5),), on_event, pin_factory=factory, clock=clock),
    ):
        bp, np_ = factory.pin(23), factory.pin(5)
        for _ in range(n):
            t0 = time.perf_counter()
            bp.drive_low()
            beam_lat.append(stamp["t"] - t0)
            clock.advance(0.03)
            bp.drive_high()
            clock.advance(0.03)
            t0 = time.perf_counter()
            np_.drive_low()
            button_lat.append(stamp["t"] - t0)
            clock.advance(0.1)
            np_.drive_high()
            clock.advance(0.1)
        assert beam.count == n
    return beam_lat, button_lat


def serial_to_event(n: int) -> list[float]:
    got: queue.Queue = queue.Queue()
    lat = []
    with (
        SimulatedChuteBoard(heartbeat=None) as board,
        ChuteBoardReader(
            board.port,
            lambda ev: got.put((time.perf_counter(), ev)),
            references=DEFAULT_REFERENCES.items(),
        ) as reader,
    ):
        if not reader.wait_for(BoardStatus.CONNECTED, 5):
            raise RuntimeError(reader.status_text)
        for i in range(n):
            t0 = time.perf_counter()
            board.ball(("blue", "pink")[i % 2])
            t1, ev = got.get(timeout=2)
            assert isinstance(ev, BallSensed)
            lat.append(t1 - t0)
    return lat


def drop_to_event(n: int) -> list[float]:
    got: queue.Queue = queue.Queue()
    lat = []
    with open_simulated_table(
        lambda ev: got.put((time.perf_counter(), ev)), pins=pinmap.load()
    ) as sim:
        for _ in range(n):
            # past the mill's 80 ms ball spacing (no queueing), and slower than the beam's rate
            # guard allows: faster, the beam is flagged as faulty and its balls are ignored
            time.sleep(1.5 * WITHIN / MOST)
            while not got.empty():
                got.get_nowait()
            t0 = time.perf_counter()
            sim.hands.drop_ball("green").wait(2)
            while True:
                t1, ev = got.get(timeout=2)
                if isinstance(ev, BallPassed):
                    break
            lat.append(t1 - t0)
    return lat


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500, help="samples per path (default 500)")
    n = ap.parse_args(argv).n
    led, buz = cue_to_pin(n)
    beam, button = input_to_event(n * 4)
    ser = serial_to_event(n)
    drop = drop_to_event(max(20, n // 10))
    print(summary("cue -> led pin", led))
    print(summary("cue -> buzzer", buz))
    print(summary("beam -> event", beam))
    print(summary("button -> event", button))
    print(summary("serial -> event", ser))
    print(summary("drop -> event", drop))
    target = 0.010  # the table should feel instant: a cue shows within 10 ms
    print(f"cue -> led p95 / 10 ms target: {sorted(led)[int(0.95 * len(led))] / target:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
