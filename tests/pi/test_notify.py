"""sd_notify against a real unix datagram socket, the way systemd listens for it."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.notify import Notifier

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def listener(tmp_path):
    """A datagram socket standing in for systemd's notify socket."""
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_messages_reach_the_socket(listener):
    path, sock = listener
    n = Notifier.from_env({"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready() is True
    assert received(sock) == ["READY=1"]
    assert n.watchdog() is True
    assert received(sock) == ["WATCHDOG=1"]
    assert n.status("Laser: planning, 12 s left")
    assert received(sock) == ["STATUS=Laser: planning, 12 s left"]
    assert n.stopping("bye")
    assert received(sock) == ["STOPPING=1", "STATUS=bye"]
    assert n.extend_timeout(2.5)
    assert received(sock) == ["EXTEND_TIMEOUT_USEC=2500000"]
    n.close()


def test_ready_with_status_is_one_datagram(listener):
    path, sock = listener
    with Notifier(path) as n:
        n.ready("Home screen")
    assert received(sock) == ["READY=1", "STATUS=Home screen"]


def test_a_newline_in_a_status_cannot_forge_another_field(listener):
    path, sock = listener
    with Notifier(path) as n:
        n.status("oops\nREADY=1")
    assert received(sock) == ["STATUS=oops READY=1"]


def test_abstract_namespace_address():
    name = f"table-companion-test-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        with Notifier.from_env({"NOTIFY_SOCKET": "@" + name}) as n:
            assert n.ready()
        assert received(sock) == ["READY=1"]
    finally:
        sock.close()


def test_without_notify_socket_everything_is_a_quiet_no_op(caplog):
    n = Notifier.from_env({})
    assert not n.enabled
    with caplog.at_level(logging.DEBUG, logger="companion.notify"):
        assert n.ready() is False
        assert n.watchdog() is False
        assert n.stopping() is False
        assert n.status("x") is False
    assert n.watchdog_interval() is None
    assert caplog.records == []


def test_a_vanished_manager_is_logged_once_and_never_raises(tmp_path, caplog):
    n = Notifier.from_env({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    with caplog.at_level(logging.DEBUG, logger="companion.notify"):
        assert n.ready() is False
        assert n.watchdog() is False
        assert n.watchdog() is False
    levels = [r.levelno for r in caplog.records]
    assert levels == [logging.WARNING, logging.DEBUG, logging.DEBUG]
    assert "gone.sock" in caplog.records[0].getMessage()


def test_unsupported_address_is_refused_without_raising():
    assert Notifier("vsock:2:1234").ready() is False
    assert Notifier("relative/path").watchdog() is False


def test_recovers_when_the_manager_comes_back(tmp_path):
    path = tmp_path / "late.sock"
    n = Notifier(str(path))
    assert n.watchdog() is False
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    try:
        assert n.watchdog() is True
        assert received(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()
        n.close()


def test_a_full_socket_does_not_block_the_ui_loop(listener):
    """Nobody reads the socket: sends must fail fast instead of freezing the caller."""
    path, _sock = listener
    n = Notifier(path)
    started = time.monotonic()
    results = [n.watchdog() for _ in range(5000)]
    elapsed = time.monotonic() - started
    n.close()
    assert False in results  # the queue did fill up ...
    assert elapsed < 2.0  # ... and no call waited for room


def test_watchdog_interval_is_half_the_timeout():
    n = Notifier.from_env({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "20000000"})
    assert n.watchdog_interval() == 10.0
    mine = {"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid())}
    assert Notifier.from_env(mine).watchdog_interval() == 1.5


def test_watchdog_meant_for_another_process_is_ignored():
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}
    assert Notifier.from_env(env).watchdog_interval() is None


@pytest.mark.parametrize("usec", ["", "0", "soon", "-5"])
def test_missing_or_bad_watchdog_means_no_watchdog(usec):
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": usec}
    assert Notifier.from_env(env).watchdog_interval() is None


def test_a_child_process_started_by_a_manager_signals_ready(listener):
    """End to end through the environment, as systemd starts the app."""
    path, sock = listener
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="4000000", PYTHONPATH=str(ROOT))
    code = (
        "from companion.notify import Notifier\n"
        "n = Notifier.from_env()\n"
        "n.ready('up')\n"
        "n.watchdog()\n"
        "print(n.watchdog_interval())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert out.stdout.strip() == "2.0"
    assert received(sock) == ["READY=1", "STATUS=up"]
    assert received(sock) == ["WATCHDOG=1"]
