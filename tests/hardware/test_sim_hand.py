"""The simulated hand counts the same balls however busy the machine is, so a seeded demo
writes the same log every time."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.events import BallPassed
from companion.settings import Settings
from hardware import pins as pinmap
from hardware.sim_table import open_simulated_table

ROOT = Path(__file__).resolve().parents[2]
STALL = 0.03  # seconds a loaded scheduler adds to every sleep: twice the beam's clear rule


def test_a_stalled_hand_thread_neither_adds_nor_loses_balls(monkeypatch):
    """Every sleep of the hand's thread lasts 30 ms longer, as on a machine busy with six
    demos: its 1 ms rim chatter then looks like a 31 ms clear beam on the wall clock."""
    real_sleep = time.sleep

    def loaded_sleep(seconds):
        if threading.current_thread().name == "sim-hand":
            seconds += STALL
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", loaded_sleep)
    events: queue.Queue = queue.Queue()
    with open_simulated_table(events.put, settings=Settings(), pins=pinmap.load()) as sim:
        dones = [sim.hands.drop_ball(c) for c in ["pink", "blue", "green", "orange", "purple"] * 2]
        assert all(d.wait(5) for d in dones)
        count, chatter = sim.table.beam.count, sim.table.beam.chatter
    passed = []
    while not events.empty():
        ev = events.get_nowait()
        if isinstance(ev, BallPassed):
            passed.append(ev)
    assert (count, chatter, len(passed)) == (10, 10, 10)


def demo(seed: int, data_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock"}
    argv = ["demo", "color-milk", "--seed", str(seed), "--headless", "--no-camera"]
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *argv, "--data-dir", str(data_dir)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )


@pytest.mark.slow
def test_seeded_demos_run_in_parallel_write_identical_logs(tmp_path):
    runs = [demo(7, tmp_path / f"run{i}") for i in range(4)]
    outs = [p.communicate(timeout=240) for p in runs]
    assert all(p.returncode == 0 for p in runs), [err for _, err in outs]
    logs = [json.loads(out)["log"] for out, _ in outs]
    assert "hardware.table simulated" in json.loads(outs[0][0])["pipeline"]["table"]
    balls = sum(
        e["event"].get("count", 0)
        for e in logs[0]["entries"]
        if e["kind"] == "event" and e["event"]["type"] == "core.BallPassed"
    )
    assert balls >= 5 * json.loads(outs[0][0])["rounds"]
    assert all(log == logs[0] for log in logs[1:])
