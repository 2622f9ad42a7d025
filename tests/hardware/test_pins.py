"""The pin map: defaults, per-install overrides, and clear errors for a bad file."""

from __future__ import annotations

import pytest

from hardware import pins
from hardware.errors import PinMapError


def test_defaults_are_complete_and_distinct():
    pm = pins.load()
    used = pm.gpio_pins()
    assert len(set(used.values())) == len(used) == 9
    assert [n for n, _ in pm.buttons.pins] == ["next", "bid", "impossible", "undo"]
    assert (
        pm.buttons.bounce == 0.08 and pm.buttons.hold == 1.0 and "undo" in pm.buttons.hold_buttons
    )
    assert {n for n, _ in pm.references} == {"blue", "green", "orange", "pink", "purple"}


def test_override_changes_only_what_it_names(tmp_path, monkeypatch):
    f = tmp_path / "mine.toml"
    f.write_text('[led]\nred = 12\n[buttons]\nbid = 16\n[serial]\nport = "/dev/ttyUSB0"\n')
    monkeypatch.setenv("COMPANION_PINS", str(f))
    pm = pins.load()
    assert (pm.led.red, pm.led.green) == (12, 27)
    assert pm.buttons.as_dict() == {"next": 5, "bid": 16, "impossible": 13, "undo": 26}
    assert pm.serial.port == "/dev/ttyUSB0" and pm.source[-1] == str(f)


def test_data_dir_override(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_PINS", raising=False)
    (tmp_path / "pins.toml").write_text("[beam]\npin = 24\n")
    assert pins.load(data_dir=tmp_path).beam.pin == 24
    assert pins.load(data_dir=tmp_path / "elsewhere").beam.pin == 23


@pytest.mark.parametrize(
    "text, message",
    [
        ("[led\nred = 1", "not valid TOML"),
        ("[led]\nred = 27\ngreen = 27\n", "used twice"),
        ('[buzzer]\nkind = "loud"\n', "passive"),
        ("[beam]\npin = 40\n", "not a BCM GPIO pin"),
        ('[buttons]\nnext = "five"\n', "must be a BCM pin number"),
        ("[buttons.options]\nbounce_ms = -3\n", "bounce_ms"),
        ("[sensor.references]\nblue = [1, 2]\n", "three numbers"),
    ],
)
def test_bad_pin_maps_are_refused_clearly(tmp_path, text, message):
    f = tmp_path / "pins.toml"
    f.write_text(text)
    with pytest.raises(PinMapError, match=message):
        pins.load(f)


def test_a_missing_override_file_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PINS", str(tmp_path / "nope.toml"))
    with pytest.raises(PinMapError, match="does not exist"):
        pins.load()
