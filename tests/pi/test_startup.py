"""`companion run` as systemd starts it (real subprocess, SDL offscreen, a notify socket):
a refusal is said on stderr and shown on the screen, never a silent exit; one damaged game
never stops the box."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.store import GameLog
from tests.pi.test_app_notify import messages

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8

pytestmark = pytest.mark.slow


class Service:
    """`companion run --simulate` with NOTIFY_SOCKET and a watchdog, stderr read as it comes."""

    def __init__(self, tmp_path: Path, data_dir: Path) -> None:
        path = tmp_path / "notify.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
        env.update(
            PYTHONPATH=str(ROOT),
            NOTIFY_SOCKET=str(path),
            WATCHDOG_USEC="1000000",
            SDL_VIDEODRIVER="offscreen",
            KIVY_NO_ARGS="1",
            KIVY_NO_FILELOG="1",  # as the unit sets it
            KIVY_HOME=str(tmp_path / "kivy"),
            KIVY_IMAGE="sdl2",
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate", "--data-dir", str(data_dir)],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.err: list[str] = []
        self.said = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.err.append(line.rstrip("\n"))
            if line.startswith("companion: error:"):
                self.said.set()

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=20)
            self.reader.join(timeout=10)  # every line of stderr read
            return code
        finally:
            self.sock.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.sock.close()


def test_an_unreadable_log_is_said_on_stderr_and_shown_not_a_silent_exit(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "games.sqlite3").write_bytes(PNG)
    service = Service(tmp_path, data)
    try:
        ready = messages(service.sock, "READY=1", timeout=40)  # the problem screen is drawn
        assert any("READY=1" in m for m in ready), (ready, service.err, service.proc.poll())
        assert service.said.wait(5), service.err
        said = [line for line in service.err if line.startswith("companion: error:")]
        assert said == [
            f"companion: error: {data / 'games.sqlite3'} is not a Table Companion game log "
            "(not an SQLite file); it was left untouched. Move it away or choose another "
            "--data-dir."
        ]
        alive = messages(service.sock, "WATCHDOG=1", timeout=3)
        assert any("WATCHDOG=1" in m for m in alive)  # waiting for a choice, not crash-looping
        assert service.proc.poll() is None
        assert service.stop() == 1  # stopped from outside, the refusal stands
        assert (data / "games.sqlite3").read_bytes() == PNG
    finally:
        service.kill()


def test_a_broken_entry_in_the_unfinished_game_no_longer_stops_the_box(tmp_path):
    data = tmp_path / "data"
    path = data / "games.sqlite3"
    config = {"players": ["Anna", "Ben", "Chloe"], "options": {}, "seed": 7}
    with GameLog(path) as log:
        game_id = log.new_game("color-milk", config)
        log.append(game_id, "event", {"type": "core.TimerExpired", "key": "x"})
        log.append(game_id, "undo")
    db = sqlite3.connect(path)
    db.execute('UPDATE entries SET payload = \'{"type": "core.Tim\' WHERE seq = 1')
    db.commit()
    db.close()
    service = Service(tmp_path, data)
    try:
        ready = messages(service.sock, "READY=1", timeout=40)
        assert any("READY=1" in m for m in ready), (ready, service.err, service.proc.poll())
        assert service.stop() == 0, service.err
        assert (
            "companion: warning: Color Milk game #1 (Anna, Ben, Chloe) could not be resumed: "
            "entry 1 is unreadable. It was set aside and stays in the log."
        ) in service.err
    finally:
        service.kill()
    with GameLog(path) as log:
        assert log.set_aside_games() == {game_id: "entry 1 is unreadable"}
        assert log.unfinished() is None and len(log.games()) == 1


def test_the_screenshot_of_a_refused_start_is_the_problem_screen(tmp_path):
    import cv2

    data = tmp_path / "data"
    data.mkdir()
    (data / "games.sqlite3").write_bytes(PNG)
    out = tmp_path / "problem.png"
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen"}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--screenshot",
            str(out),
            "--data-dir",
            str(data),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert r.returncode == 1
    assert (
        r.stderr.strip().startswith("companion: error:") and len(r.stderr.strip().splitlines()) == 1
    )
    img = cv2.imread(str(out))
    assert img.shape == (480, 800, 3) and img.std() > 20
