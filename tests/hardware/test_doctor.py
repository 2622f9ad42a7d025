"""`companion doctor --simulate` runs unattended through every hardware part."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from hardware.doctor import checks
from hardware.errors import PinMapError

ROOT = Path(__file__).resolve().parents[2]


def test_doctor_simulate_json_checks_every_part(data_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "companion", "doctor", "--simulate", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    doc = json.loads(run.stdout)  # prompts never pollute the JSON
    rows = {c["part"]: c for c in doc["checks"]}
    hardware = [
        "pin map",
        "table",
        "led red",
        "led green",
        "led blue",
        "led white",
        "buzzer low 440 Hz",
        "buzzer mid 1047 Hz",
        "buzzer high 2093 Hz",
        "button next",
        "button bid",
        "button impossible",
        "button undo",
        "beam",
        "serial board",
    ]
    for part in hardware:
        assert rows[part]["ok"], rows[part]
    assert rows["beam"]["detail"].startswith("5 of 5 balls counted")
    assert "sensor read blue, green, orange, pink, purple" in rows["serial board"]["detail"]


def test_a_bad_pin_map_fails_its_check_with_the_reason(data_dir, tmp_path, monkeypatch):
    bad = tmp_path / "pins.toml"
    bad.write_text("[led]\nred = 5\n")  # 5 is the next button
    monkeypatch.setenv("COMPANION_PINS", str(bad))
    first = checks(SimpleNamespace(simulate=True, json=True, data_dir=None))[0]
    with pytest.raises(PinMapError, match="BCM 5 is used twice"):
        first()  # the core's run_doctor turns this into a FAIL row with this message


def test_doctor_on_a_pi_with_no_one_there_checks_what_it_can_alone(
    data_dir, tmp_path, monkeypatch, mock_factory
):
    import io

    from hardware import doctor
    from hardware.sim_board import SimulatedChuteBoard

    monkeypatch.setattr(doctor, "pi_present", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # no terminal: nobody to ask
    with SimulatedChuteBoard(link=tmp_path / "ttyCHUTE", heartbeat=0.2) as board:
        pins = tmp_path / "pins.toml"
        pins.write_text(f'[serial]\nport = "{board.port}"\n')
        monkeypatch.setenv("COMPANION_PINS", str(pins))
        results = [c() for c in checks(SimpleNamespace(simulate=False, json=True, data_dir=None))]
    rows = {r.part: r for r in results}
    # This machine has no camera and no calibration: those rows fail, and say what happens.
    camera = [r for r in results if r.part.startswith("camera")]
    assert camera and all("asks" in r.detail for r in camera if not r.ok)
    others = [r for r in results if not r.part.startswith("camera")]
    assert all(r.ok for r in others), [r for r in others if not r.ok]
    assert "unattended" in rows["table"].detail
    assert rows["button next"].detail == "released (no one to press it)"
    assert rows["beam"].detail == "clear (no one to drop balls)"
    assert rows["serial board"].detail.startswith("connected: chute_board-sim")
    assert mock_factory.pin(17).state == 0  # the table was closed after the checks
