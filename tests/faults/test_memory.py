"""Memory bounds (issue 28, item 7), each with its figure: an image that would decode to
gigabytes is refused from its header; a JPEG cut short is refused; the Laser solver stops at
its memory cap as at its time limit; an import's memory does not grow with the file.

Figures are peak resident memory of a child process (`companion ...`), read with wait4."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import uuid
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


# The child reports its own high-water mark (VmHWM starts afresh at exec; the rusage of a
# forked child would count the test process's memory too).
_MEASURED = """
import atexit, os, sys
def peak():
    with open("/proc/self/status") as f:
        kb = next(line for line in f if line.startswith("VmHWM")).split()[1]
    with open(os.environ["COMPANION_PEAK_FILE"], "w") as out:
        out.write(kb)
atexit.register(peak)
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_measured(argv: list[str]) -> tuple[int, str, float]:
    """`companion ARGV` in a child: (exit status, stderr, its peak resident memory in MB)."""
    peak_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"companion-peak-{uuid.uuid4().hex}"
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *argv],
        env={**os.environ, "COMPANION_PEAK_FILE": str(peak_file)},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    try:
        peak = int(peak_file.read_text()) / 1024
    finally:
        peak_file.unlink(missing_ok=True)
    return done.returncode, done.stderr, peak


def png_bomb(path: Path, side: int) -> None:
    """A grey PNG of side x side pixels, all zero: a few hundred KB on disk."""
    z = zlib.compressobj(9)
    row = b"\0" * (side + 1)  # filter byte + pixels
    data = bytearray()
    for _ in range(side):
        data += z.compress(row)
    data += z.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", bytes(data))
        + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="module")
def calibration(tmp_path_factory) -> Path:
    from vision.calibration import to_json
    from vision.learn import rendered_calibration

    path = tmp_path_factory.mktemp("calib") / "calib.json"
    path.write_text(json.dumps(to_json(rendered_calibration(0))))
    return path


@pytest.mark.slow
def test_an_image_that_would_decode_to_gigabytes_is_refused_from_its_header(calibration, tmp_path):
    bomb = tmp_path / "bomb.png"
    png_bomb(bomb, 20_000)  # 400 million pixels: 1.2 GB as colour, from a small file
    code, err, peak = run_measured(
        ["vision", "classify", "--calibration", str(calibration), str(bomb)]
    )
    print(f"a {bomb.stat().st_size // 1024} KB PNG of 20000x20000: exit {code}, peak {peak:.0f} MB")
    assert code == 2 and "20000x20000 pixels" in err, err
    assert peak < 400  # what the program needs anyway, not the 1.2 GB the image would take


def test_a_jpeg_cut_short_is_refused_not_read_as_half_an_image(calibration, tmp_path):
    image = np.full((240, 320, 3), 180, np.uint8)
    cv2.circle(image, (160, 120), 40, (40, 60, 220), -1)
    data = cv2.imencode(".jpg", image)[1].tobytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    from companion.errors import UsageError
    from vision.detect import load_image

    with pytest.raises(UsageError, match="the JPEG is cut short"):
        load_image(cut)
    (tmp_path / "whole.jpg").write_bytes(data)
    assert load_image(tmp_path / "whole.jpg").shape == (240, 320, 3)


def test_the_laser_solver_stops_at_its_memory_cap_as_at_its_time_limit():
    from companion.games.laser.board import position_from_json
    from companion.games.laser.solver import solve
    from companion.games.laser.solver.limit import Limit, resident_bytes
    from tests.laser.test_cli import TWELVE_CARDS

    before = resident_bytes()
    limit = Limit(seconds=600, megabytes=24)
    sol = solve(position_from_json(TWELVE_CARDS), limit=limit)
    print(f"stopped after {limit.spent} states, {(resident_bytes() - before) / 2**20:.0f} MB added")
    assert not sol.solved and sol.note == "not solved within 600 s or 24 MB of memory"


@pytest.mark.slow
def test_an_imports_memory_does_not_grow_with_the_file(tmp_path):
    from benchmarks.playthroughs import play_game
    from companion.sharing import game_line
    from companion.store import GameLog

    with GameLog(tmp_path / "src.sqlite3", backups=False) as src:
        (gid,) = src.add_games([play_game("kritters", 4, players=("Anna", "Ben"))])
        line = game_line(src, src.game(gid))

    def file_of(n: int) -> Path:
        path = tmp_path / f"{n}.jsonl"
        with open(path, "w") as f:
            for i in range(n):
                f.write(json.dumps({**line, "uuid": str(uuid.UUID(int=i + 1, version=4))}) + "\n")
        return path

    peaks = {}
    for n in (40, 2400):
        data = tmp_path / f"data{n}"
        code, err, peaks[n] = run_measured(["import", str(file_of(n)), "--data-dir", str(data)])
        assert code == 0, err
    size = file_of(2400).stat().st_size / 2**20
    print(f"import of 40 games: {peaks[40]:.0f} MB; of 2400 ({size:.1f} MB): {peaks[2400]:.0f} MB")
    assert peaks[2400] - peaks[40] < size + 8  # streamed: not the file held in memory
