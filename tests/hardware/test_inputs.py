"""Arcade buttons (debounce, hold-to-confirm) and the chute's break-beam (one event per ball,
robust to chatter), driven through gpiozero mock pins on a fake clock."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock, MonotonicClock
from companion.events import BallPassed, ButtonPressed
from hardware.inputs import ArcadeButtons, BallBeam

PINS = (("next", 5), ("bid", 6), ("impossible", 13), ("undo", 26))


@pytest.fixture
def buttons(mock_factory, clock):
    events = []
    b = ArcadeButtons(
        PINS, events.append, bounce=0.08, hold=1.0, pin_factory=mock_factory, clock=clock
    )
    yield b, events, clock, mock_factory
    b.close()


def chatter(pin, clock, final_low: bool, flips: int = 5, every: float = 0.004):
    """A contact that bounces `flips` times, `every` s apart, and settles low or high."""
    for i in range(flips):
        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        clock.advance(every)
    (pin.drive_low if final_low else pin.drive_high)()


def test_a_bouncy_press_and_release_is_one_press(buttons):
    b, events, clock, f = buttons
    pin = f.pin(5)
    chatter(pin, clock, final_low=True)  # press with 20 ms of bounce
    assert events == [ButtonPressed("next")]  # acted on at the first edge
    clock.advance(0.12)
    chatter(pin, clock, final_low=False)  # release, bouncing too
    clock.advance(0.1)
    b.poll()
    assert events == [ButtonPressed("next")] and not b.is_pressed("next")


def test_presses_far_enough_apart_all_count(buttons):
    b, events, clock, f = buttons
    pin = f.pin(6)
    for _ in range(5):  # a player hammering the bid button: 5 presses in a second
        chatter(pin, clock, final_low=True, flips=3)
        clock.advance(0.1)
        b.poll()
        chatter(pin, clock, final_low=False, flips=3)
        clock.advance(0.09)
        b.poll()
    assert events == [ButtonPressed("bid")] * 5


def test_bounce_inside_the_lockout_never_double_counts(buttons):
    b, events, clock, f = buttons
    pin = f.pin(13)
    pin.drive_low()
    for _ in range(19):  # 76 ms of violent chatter: only the first edge counts
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        b.poll()
    assert events == [ButtonPressed("impossible")]


def test_a_tap_shorter_than_the_bounce_time_is_settled_by_poll(buttons):
    b, events, clock, f = buttons
    pin = f.pin(5)
    pin.drive_low()
    clock.advance(0.03)
    pin.drive_high()  # released inside the lock-out: ignored for now
    assert b.is_pressed("next")
    clock.advance(0.06)
    b.poll()
    assert not b.is_pressed("next")
    clock.advance(0.08)  # the settled release starts its own lock-out
    pin.drive_low()  # so the next press is seen
    assert events == [ButtonPressed("next")] * 2


def test_undo_acts_only_when_held(buttons):
    b, events, clock, f = buttons
    pin = f.pin(26)
    pin.drive_low()
    clock.advance(0.3)
    b.poll()
    pin.drive_high()
    clock.advance(0.2)
    b.poll()
    assert events == []  # a tap on undo does nothing
    pin.drive_low()
    for _ in range(9):
        clock.advance(0.1)
        b.poll()
    assert events == []  # 0.9 s: not yet
    clock.advance(0.1)
    b.poll()
    assert events == [ButtonPressed("undo")]  # fires while still held, without release
    clock.advance(2.0)
    b.poll()
    pin.drive_high()
    clock.advance(0.1)
    b.poll()
    assert events == [ButtonPressed("undo")]  # once per hold


def test_a_hold_completed_between_polls_fires_on_release(buttons):
    b, events, clock, f = buttons
    pin = f.pin(26)
    pin.drive_low()
    clock.advance(1.2)
    pin.drive_high()
    assert events == [ButtonPressed("undo")]


def test_a_press_inside_the_lockout_is_timed_from_its_end_however_late_the_poll(buttons):
    b, events, clock, f = buttons
    pin = f.pin(26)
    pin.drive_low()
    clock.advance(0.3)
    pin.drive_high()  # a tap, too short for undo
    clock.advance(0.01)
    pin.drive_low()  # pressed again at once, inside the release's lock-out
    clock.advance(0.29)
    b.poll()  # a busy machine: the poller comes late
    assert b.is_pressed("undo") and events == []
    clock.advance(1.1 - 0.29)
    pin.drive_high()  # held 1.1 s, of which 1.03 s since the lock-out ended
    assert events == [ButtonPressed("undo")]


def test_a_failing_handler_does_not_stop_the_buttons(mock_factory, clock):
    seen = []

    def handler(ev):
        seen.append(ev)
        raise RuntimeError("the app's problem")

    with ArcadeButtons(PINS, handler, pin_factory=mock_factory, clock=clock) as b:
        pin = mock_factory.pin(5)
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)
        b.poll()
        pin.drive_low()
        assert seen == [ButtonPressed("next")] * 2
        assert "next" in repr(b) and b.status().startswith("ok")


# -- the beam ------------------------------------------------------------------------------


def pass_ball(pin, clock, blocks=0.025, rim_chatter=(0.001, 0.001), tail_chatter=(0.0015,)):
    """A ball crosses the beam: the rim flickers it, it stays broken, the tail flickers."""
    for dt in rim_chatter:  # low-high-...-low at the leading edge
        pin.drive_low()
        clock.advance(dt)
        pin.drive_high()
        clock.advance(dt)
    pin.drive_low()
    clock.advance(blocks)
    pin.drive_high()
    for dt in tail_chatter:
        clock.advance(dt)
        pin.drive_low()
        clock.advance(dt)
        pin.drive_high()


@pytest.fixture
def beam(mock_factory, clock):
    events = []
    b = BallBeam(23, events.append, clear=0.015, pin_factory=mock_factory, clock=clock)
    yield b, events, clock, mock_factory.pin(23)
    b.close()


def test_five_balls_60ms_apart_with_chatter_are_five_events(beam):
    b, events, clock, pin = beam
    start = clock.now()
    for i in range(5):
        clock.advance(start + i * 0.060 - clock.now())
        pass_ball(pin, clock)
    assert events == [BallPassed()] * 5
    assert b.count == 5 and b.chatter > 0


def test_each_ball_is_counted_at_its_first_edge(beam):
    b, events, clock, pin = beam
    pin.drive_low()
    assert events == [BallPassed()]  # not at the end of the ball, at once


def test_a_ball_that_stays_in_the_beam_is_reported_blocked(beam):
    b, events, clock, pin = beam
    pin.drive_low()
    clock.advance(0.5)
    assert b.status() == "ok, 1 balls"
    clock.advance(0.6)
    assert b.is_blocked and b.status().startswith("BLOCKED")
    pin.drive_high()
    assert not b.is_blocked and len(events) == 1


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(st.floats(0.060, 0.5), min_size=1, max_size=20),
    blocks=st.floats(0.015, 0.030),
    rim=st.lists(st.floats(0.0002, 0.001), max_size=3),
    tail=st.lists(st.floats(0.0002, 0.001), max_size=3),
)
def test_any_realistic_stream_of_balls_is_counted_exactly(gaps, blocks, rim, tail):
    # A ball disturbs the beam for at most 30 + 6 + 6 = 42 ms; at 60 ms spacing the beam is
    # then clear for >= 18 ms before the next ball, more than the 15 ms `clear` setting.
    factory, clock, events = MockFactory(), FakeClock(0.0), []
    with BallBeam(23, events.append, clear=0.015, pin_factory=factory, clock=clock) as b:
        pin = factory.pin(23)
        at = clock.now()
        for gap in gaps:  # leading edges `gap` apart (>= 60 ms, as balls leave the mill)
            clock.advance(max(0.0, at - clock.now()))
            pass_ball(pin, clock, blocks, tuple(rim), tuple(tail))
            at += gap
        assert len(events) == len(gaps) == b.count


class LaggingPin(MockPin):
    """A mock pin whose edge callbacks arrive late and in one burst, each with its true time,
    as lgpio's callback thread delivers them when the interpreter is busy."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.backlog = []

    def _call_when_changed(self):
        self.backlog.append((self._last_change, self._state))

    def deliver(self):
        backlog, self.backlog = self.backlog, []
        for ticks, state in backlog:
            PiPin._call_when_changed(self, ticks, state)


@pytest.mark.parametrize("timed_by, counted", [("edge", 4), ("clock", 1)])
def test_balls_reported_late_in_a_burst_are_told_apart_by_edge_time(timed_by, counted):
    import time

    factory = MockFactory(pin_class=LaggingPin)
    events = []
    clock = None if timed_by == "edge" else MonotonicClock()
    with BallBeam(23, events.append, pin_factory=factory, clock=clock):
        pin = factory.pin(23)
        for _ in range(4):  # four balls, 60 ms apart, really
            pin.drive_low()
            time.sleep(0.025)
            pin.drive_high()
            time.sleep(0.035)
        assert events == []  # the interpreter was busy: nothing delivered yet
        pin.deliver()  # now every edge arrives at once
    assert len(events) == counted  # edge stamps keep all four; arrival times merge them
