"""Hardware test fixtures: gpiozero's mock pins (reset after each test), a fake clock, and a
sleep that records what the pins show at every step of a pattern."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.clock import FakeClock


@pytest.fixture
def mock_factory():
    """A PWM-capable mock pin factory, as gpiozero's own tests do; pins reset afterwards."""
    save = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
    finally:
        Device.pin_factory = save


@pytest.fixture
def clock():
    return FakeClock(start=0.0)


class RecordingSleep:
    """A sleep(seconds, interrupt) for Signals that, instead of waiting, snapshots the pins
    (at fake-clock time) and advances the fake clock. `gate`, when given, makes the first
    sleep block until the test sets it, so a test can pre-empt a pattern mid-way."""

    def __init__(self, clock: FakeClock, snapshot, gate: threading.Event | None = None):
        self.clock = clock
        self.snapshot = snapshot
        self.gate = gate
        self.entered = threading.Event()
        self.timeline: list[tuple[float, tuple]] = []

    def __call__(self, seconds: float, interrupt: threading.Event) -> bool:
        self.timeline.append((round(self.clock.now(), 6), self.snapshot()))
        if self.gate is not None:
            self.entered.set()
            self.gate.wait(5)
            self.gate = None
        if interrupt.is_set():
            return True
        self.clock.advance(seconds)
        return interrupt.is_set()


@pytest.fixture
def recording_sleep():
    return RecordingSleep
