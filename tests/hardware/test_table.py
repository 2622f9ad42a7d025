"""The one entry point: open_table() in simulation, with the same code paths as on a Pi."""

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
from hardware.table import open_table, pi_present


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
    t = open_table(
        simulate=True, on_event=q.put, settings=Settings(brightness=0.5), pins=pinmap.load()
    )
    yield t, q
    t.close()


def test_buttons_pressed_on_the_simulated_table_become_events(table):
    t, q = table
    for name in ("next", "bid", "impossible"):
        assert t.press(name).wait(2)
    assert take(q, 3) == [ButtonPressed("next"), ButtonPressed("bid"), ButtonPressed("impossible")]
    t.press("undo", seconds=0.3).wait(2)  # too short for undo: nothing
    assert t.press("undo").wait(3)  # the default press of a hold button holds it long enough
    assert take(q, 1) == [ButtonPressed("undo")]
    assert q.empty()


def test_dropped_balls_are_counted_and_read(table):
    t, q = table
    assert t.reader.wait_for(t.reader.status.CONNECTED, 5)  # a reading before that is lost
    colours = ["pink", "pink", "blue", "purple", "orange"]
    dones = [t.drop_ball(c) for c in colours]
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
    t, q = table
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
    t, q = table
    assert t.reader.wait_for(t.reader.status.CONNECTED, 5)
    st = t.status
    assert set(st) == {"table", "leds", "buzzer", "buttons", "beam", "serial"}
    assert st["table"] == "simulated" and st["serial"].startswith("connected")


def test_keyboard_drives_the_simulated_table(table):
    t, q = table
    assert t.handle_key("n") and t.handle_key("spacebar")
    assert not t.handle_key("z")
    got = take(q, 2)
    assert ButtonPressed("next") in got and BallPassed() in got


def test_a_bad_button_name_is_a_clear_error(table):
    t, _ = table
    with pytest.raises(HardwareError, match="no button 'start'.*next, bid"):
        t.press("start")


def test_close_is_idempotent_and_stops_events():
    q = queue.Queue()
    with open_table(True, q.put, pins=pinmap.load()) as t:
        pin = t.pin_factory.pin(5)
    t.close()
    assert "closed" in repr(t)
    assert q.empty() and pin is not None


def test_parts_not_fitted(tmp_path, monkeypatch):
    (tmp_path / "pins.toml").write_text("[beam]\npin = -1\n[serial]\nenabled = false\n")
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "pins.toml"))
    with open_table(True, lambda ev: None) as t:
        assert t.status["beam"] == "not fitted" and t.status["serial"] == "not fitted"
        assert t.drop_ball("blue").wait(2)  # nothing to drive, nothing breaks


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
    with open_table(False, q.put, pins=pm, pin_factory=factory) as t:
        st = t.status
        assert st["leds"].startswith("FAILED") and st["buttons"].startswith("ok")
        t.cue(cues.TimeUp("t"))  # no LED: a no-op, not a crash
        with pytest.raises(HardwareError):
            t.drop_ball()
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

    with open_table(True, heard) as t:
        # a ball read before the reader has shaken hands with the board is not this game's
        assert t.reader.wait_for(t.reader.status.CONNECTED, 10)
        assert t.drop_ball("purple").wait(10)
        # the beam (GPIO) and the board (serial) report on their own threads, in either order
        assert both.wait(10), got
    passed = [e for e in got if isinstance(e, BallPassed)]
    sensed = [e for e in got if isinstance(e, BallSensed)]
    assert passed == [BallPassed()] and [e.colour for e in sensed] == ["purple"]


def test_an_unreadable_pin_map_opens_no_parts_but_the_app_goes_on(tmp_path, monkeypatch):
    (tmp_path / "pins.toml").write_text("[led]\nred = 5\n")  # 5 is also the next button
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "pins.toml"))
    with open_table(True, lambda ev: None) as t:
        assert "BCM 5 is used twice" in t.status["pins"]
        assert t.status["buttons"] == "not fitted" and t.status["serial"] == "not fitted"
        t.cue(cues.TimeUp("t"))  # nothing to drive, nothing breaks
