"""The table on the simulated backend (open_simulated_table(): mock pins, a chute board on a
pty), with the same code paths as on a Pi, and the simulated hands acting on it."""

from __future__ import annotations

import queue
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion import cues
from companion.events import BallPassed, ButtonPressed
from companion.settings import Settings
from hardware import pins as pinmap
from hardware.colours import LED_COLOURS
from hardware.errors import HardwareError
from hardware.events import BallSensed
from hardware.sim_table import open_simulated_table
from hardware.table import Table, open_table, pi_present


def take(q: queue.Queue, n: int, timeout: float = 5.0) -> list:
    out, end = [], time.monotonic() + timeout
    while len(out) < n:
        try:
            out.append(q.get(timeout=max(0.0, end - time.monotonic())))
        except queue.Empty:
            break
    return out


@pytest.fixture
def table():
    q = queue.Queue()
    sim = open_simulated_table(q.put, settings=Settings(brightness=0.5), pins=pinmap.load())
    yield sim.table, sim.hands, q
    sim.close()


def test_an_untouched_table_sleeps_until_a_button_moves(table):
    """No button touched: the poller wakes about once a second, not 100 times; a press
    wakes it at once, and it polls often again while a hold is timed."""
    t, hands, q = table
    polls = []
    real_poll = t.buttons.poll
    t.buttons.poll = lambda: (polls.append(time.monotonic()), real_poll())
    time.sleep(1.0)
    assert len(polls) <= 2, len(polls)  # at 100 a second: some 100
    assert hands.press("next").wait(2)
    assert take(q, 1, timeout=2) == [ButtonPressed("next")]
    polls.clear()
    assert hands.press("undo").wait(3)  # held 1.1 s: the poller times the hold
    assert take(q, 1, timeout=2) == [ButtonPressed("undo")]
    assert len(polls) >= 20, len(polls)


def test_buttons_pressed_on_the_simulated_table_become_events(table):
    t, hands, q = table
    for name in ("next", "bid", "impossible"):
        assert hands.press(name).wait(2)
    assert take(q, 3) == [ButtonPressed("next"), ButtonPressed("bid"), ButtonPressed("impossible")]
    hands.press("undo", seconds=0.3).wait(2)  # too short for undo: nothing
    assert hands.press("undo").wait(3)  # the default press of a hold button holds it long enough
    assert take(q, 1) == [ButtonPressed("undo")]
    assert q.empty()


def test_dropped_balls_are_counted_and_read(table):
    t, hands, q = table
    assert t.reader.wait_for(t.reader.status.CONNECTED, 5)  # a reading before that is lost
    colours = ["pink", "pink", "blue", "purple", "orange"]
    dones = [hands.drop_ball(c) for c in colours]
    assert all(d.wait(10) for d in dones)
    assert take(q, 5) == [BallPassed()] * 5  # colours stay off unless asked
    assert take(q, 1, timeout=0.3) == []  # and not one ball more
    deadline = time.monotonic() + 5  # the board's readings come over the serial line
    while len(t.sensed) < len(colours) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [e.colour for e in t.sensed] == colours
    assert t.beam.count == 5 and t.beam.chatter == 5  # each ball's rim chatter was ignored
    assert t.status["beam"] == "ok, 5 balls"


def test_cues_light_the_led_without_blocking(table):
    t, hands, q = table
    started = time.perf_counter()
    t.cue(cues.PhaseStarted("planning", "ann", "orange"))
    assert time.perf_counter() - started < 0.2  # the chirp alone lasts 0.26 s
    assert t.signals.wait_idle(2)
    led = tuple(round(t.pin_factory.pin(p).state, 3) for p in (17, 27, 22))
    assert led == tuple(round(c * 0.5, 3) for c in LED_COLOURS["orange"])
    t.settings = Settings(brightness=1.0, mute=True)
    assert t.pin_factory.pin(17).state == 1.0
    assert "muted" in t.status["buzzer"]


def test_status_names_every_part(table):
    t, hands, q = table
    assert t.reader.wait_for(t.reader.status.CONNECTED, 5)
    st = t.status
    assert set(st) == {"table", "leds", "buzzer", "buttons", "beam", "serial"}
    assert st["table"] == "simulated" and st["serial"].startswith("connected")


def test_keyboard_drives_the_simulated_table(table):
    t, hands, q = table
    assert hands.handle_key("n") and hands.handle_key("spacebar")
    assert not hands.handle_key("z")
    got = take(q, 2)
    assert ButtonPressed("next") in got and BallPassed() in got


def test_a_bad_button_name_is_a_clear_error(table):
    t, hands, _ = table
    with pytest.raises(HardwareError, match="no button 'start'.*next, bid"):
        hands.press("start")


def test_close_is_idempotent_and_stops_events():
    q = queue.Queue()
    with open_simulated_table(q.put, pins=pinmap.load()) as sim:
        pin = sim.table.pin_factory.pin(5)
    sim.close()
    assert "closed" in repr(sim.table)
    assert not sim.hands.press("next").wait(0.3)  # the hands have left the table too
    assert q.empty() and pin is not None


def test_parts_not_fitted(tmp_path, monkeypatch):
    (tmp_path / "pins.toml").write_text("[beam]\npin = -1\n[serial]\nenabled = false\n")
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "pins.toml"))
    with open_simulated_table(lambda ev: None) as sim:
        t = sim.table
        assert t.status["beam"] == "not fitted" and t.status["serial"] == "not fitted"
        assert sim.hands.drop_ball("blue").wait(2)  # nothing to drive, nothing breaks


def test_a_part_that_fails_does_not_stop_the_rest(tmp_path):
    # real-hardware mode on pins without PWM: the LED cannot open, the buttons still work
    q = queue.Queue()
    pm = pinmap.load()
    pm = pinmap.PinMap(
        pm.led,
        pm.buzzer,
        pm.buttons,
        pm.beam,
        pinmap.SerialPort(port=str(tmp_path / "ttyNONE"), backoff_min=0.01),
        pm.references,
    )
    factory = MockFactory()
    with open_table(q.put, pins=pm, pin_factory=factory) as t:
        st = t.status
        assert st["table"] == "hardware"
        assert st["leds"].startswith("FAILED") and st["buttons"].startswith("ok")
        t.cue(cues.TimeUp("t"))  # no LED: a no-op, not a crash
        factory.pin(6).drive_low()
        assert take(q, 1) == [ButtonPressed("bid")]
        assert t.reader.wait_for(t.reader.status.DISCONNECTED, 2)
        assert "ttyNONE" in t.status["serial"]


def test_pi_present(tmp_path):
    model = tmp_path / "model"
    assert not pi_present(model)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pi_present(model)
    model.write_text("Generic x86 board")
    assert not pi_present(model)


def test_sensor_colours_reach_the_game_when_asked(tmp_path, monkeypatch):
    (tmp_path / "pins.toml").write_text("[serial]\ncolour_events = true\n")
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "pins.toml"))
    got, both = [], threading.Event()

    def heard(ev):
        got.append(ev)
        if len(got) == 2:
            both.set()

    with open_simulated_table(heard) as sim:
        # a ball read before the reader has shaken hands with the board is not this game's
        assert sim.table.reader.wait_for(sim.table.reader.status.CONNECTED, 10)
        assert sim.hands.drop_ball("purple").wait(10)
        # the beam (GPIO) and the board (serial) report on their own threads, in either order
        assert both.wait(10), got
    passed = [e for e in got if isinstance(e, BallPassed)]
    sensed = [e for e in got if isinstance(e, BallSensed)]
    assert passed == [BallPassed()] and [e.colour for e in sensed] == ["purple"]


def test_an_unreadable_pin_map_opens_no_parts_but_the_app_goes_on(tmp_path, monkeypatch):
    (tmp_path / "pins.toml").write_text("[led]\nred = 5\n")  # 5 is also the next button
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "pins.toml"))
    with open_simulated_table(lambda ev: None) as sim, open_table(lambda ev: None) as real:
        for t in (sim.table, real):  # the same on the simulated backend and on hardware
            assert "BCM 5 is used twice" in t.status["pins"]
            assert t.status["buttons"] == "not fitted" and t.status["serial"] == "not fitted"
            t.cue(cues.TimeUp("t"))  # nothing to drive, nothing breaks


def test_the_table_has_no_hands_of_its_own():
    """Simulation is a backend: the same Table, with the hands outside it."""
    assert not {"press", "drop_ball", "hold_down", "let_go", "handle_key"} & set(dir(Table))


def test_the_simulated_pins_remember_a_bounded_history(table):
    """A simulated table left on for an evening: the pins driven by every cue and ball keep
    only their last changes (gpiozero's mock pins otherwise keep every one)."""
    from hardware.sim_table import SIM_PIN_HISTORY

    t, _hands, _q = table
    pin = next(p for p in t.pin_factory.pins.values() if p.function == "output")  # an LED's
    for i in range(3 * SIM_PIN_HISTORY):
        pin.state = i % 2
    assert len(pin.states) <= SIM_PIN_HISTORY
    assert pin.states[-1].state == pin.state
