"""The chute board's firmware, compiled for this computer against a small Arduino stand-in
(tests/hardware/firmware_host), speaks exactly the protocol the reader parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hardware.protocol import (
    PROTOCOL_VERSION,
    BallReading,
    GetVersion,
    Heartbeat,
    Version,
    format_message,
    parse_frame,
)

ROOT = Path(__file__).resolve().parents[2]
SKETCH = ROOT / "hardware" / "firmware" / "chute_board" / "chute_board.ino"
HOST = Path(__file__).with_name("firmware_host")
compiler = shutil.which("g++") or shutil.which("c++")


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> Path:
    if compiler is None:
        pytest.skip("no C++ compiler")
    out = tmp_path_factory.mktemp("firmware") / "chute_board"
    subprocess.run(
        [compiler, "-std=c++17", "-Wall", "-Werror", "-Wno-unused-variable"]
        + ["-I", str(HOST), "-I", str(SKETCH.parent), str(HOST / "host_main.cpp"), "-o", str(out)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def run(board: Path, stdin: bytes) -> list[bytes]:
    out = subprocess.run([str(board)], input=stdin, capture_output=True, timeout=30, check=True)
    assert out.stdout.endswith(b"\r\n")
    return out.stdout.split(b"\r\n")[:-1]


def test_the_firmware_sends_numbered_crc_lines_the_reader_accepts(board):
    lines = run(board, format_message(GetVersion()))  # the host's request, version 1 form
    frames = [parse_frame(line) for line in lines]  # every line passes the CRC
    assert [f.line for f in frames] == list(range(len(frames)))  # numbered from 0 at boot
    messages = [f.message for f in frames]
    assert messages[0] == Version("chute_board 2.0.0", PROTOCOL_VERSION)
    balls = [m for m in messages if isinstance(m, BallReading)]
    assert [(b.seq, b.r, b.g, b.b, b.c) for b in balls] == [
        (n, 1200, 2100, 900, 4500) for n in range(3)
    ]  # three balls, their rim chatter ignored
    assert any(isinstance(m, Heartbeat) and m.balls == 3 for m in messages)
    assert messages.count(messages[0]) == 2  # the boot banner, and the answer to the request


def test_the_firmware_ignores_a_request_with_a_wrong_checksum(board):
    bad = format_message(GetVersion())[:-4] + b"00\r\n"
    messages = [parse_frame(line).message for line in run(board, bad)]
    assert sum(isinstance(m, Version) for m in messages) == 1  # the boot banner only
