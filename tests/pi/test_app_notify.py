"""The app under a service manager: READY=1 after the first frame, WATCHDOG=1 from the UI
loop, STOPPING=1 on the way out. Runs the real `companion run` headless (SDL offscreen)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def messages(sock: socket.socket, until: str, timeout: float) -> list[str]:
    """Datagrams received until one contains `until` (or the time is up)."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
        if until in got[-1]:
            break
    return got


@pytest.mark.slow
def test_app_tells_systemd_it_is_ready_alive_and_stopping(tmp_path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        NOTIFY_SOCKET=str(path),
        WATCHDOG_USEC="1000000",
        SDL_VIDEODRIVER="offscreen",
        KIVY_NO_ARGS="1",
        KIVY_HOME=str(tmp_path / "kivy"),
        COMPANION_DATA_DIR=str(tmp_path / "data"),
        KIVY_IMAGE="sdl2",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--simulate"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        ready = messages(sock, "READY=1", timeout=25)
        assert any("READY=1" in m for m in ready), f"no READY=1 (got {ready})"
        alive = messages(sock, "WATCHDOG=1", timeout=3)  # every 0.5 s for WatchdogSec=1 s
        assert any("WATCHDOG=1" in m for m in alive)
        proc.send_signal(signal.SIGTERM)  # what `systemctl stop` sends
        stopping = messages(sock, "STOPPING=1", timeout=15)
        assert any("STOPPING=1" in m for m in stopping)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        sock.close()
