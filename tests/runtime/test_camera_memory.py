"""The kiosk's memory while the camera reads and once it stops: a frame-sized block is mapped
on its own and goes back to the system when freed, and the holes smaller blocks left in the
allocator's heaps go back when the camera is put to sleep (Home) or closed."""

import ctypes
import subprocess
import sys
from pathlib import Path

import pytest

from companion import memory
from companion.runtime.camera import CameraLink

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(memory._libc() is None, reason="glibc's allocator only")


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks")
        + ("uordblks", "fordblks", "keepcost")
    ]


def mapped_bytes() -> int:
    """Bytes in blocks glibc mapped on their own (mallinfo2's hblkhd)."""
    libc = memory._libc()
    libc.mallinfo2.restype = MallInfo2
    return libc.mallinfo2().hblkhd


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmRSS")).split()[1]) / 1024


def test_a_camera_frame_is_mapped_on_its_own_and_given_back_when_freed():
    # In a fresh process, as the kiosk tunes it at start-up (a heap that earlier work left with
    # a big enough hole would serve the frame from there, whatever the threshold). A bigger
    # image freed first would raise glibc's own threshold above a frame.
    code = (
        "import numpy as np\n"
        "from companion import memory\n"
        "from tests.runtime.test_camera_memory import mapped_bytes\n"
        "memory.tune()\n"
        "np.ones((1080, 1920, 3), np.uint8)\n"  # made and freed: glibc would raise its threshold
        "before = mapped_bytes()\n"
        "frame = np.ones((480, 640, 3), np.uint8)\n"  # 900 KB
        "held = mapped_bytes() - before\n"
        "del frame\n"
        "print(held, mapped_bytes() - before)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    held, after = map(int, out.stdout.split())
    assert held >= 640 * 480 * 3, f"the frame went into a heap ({held} bytes mapped)"
    assert after < 640 * 480 * 3  # ... and its mapping is gone


def link() -> CameraLink:
    return CameraLink(
        simulate=True,
        source="simulated",
        calibration_file=None,
        ask_threshold=0.8,
        on_events=lambda events: None,
        on_cue=lambda cue: None,
    )


def holes_in_the_heap(mb: int = 96) -> list[bytes]:
    """Blocks of 2 KB (each a malloc of its own), seven of every eight freed: the heap keeps
    its size, full of holes, as after a game's frames and screens came and went."""
    blocks = [bytes(2048) for _ in range(mb * 512)]
    return blocks[::8]


@pytest.mark.parametrize("stop", ["sleep", "close"])
def test_the_holes_go_back_to_the_system_when_the_camera_stops(stop):
    camera = link()
    kept = holes_in_the_heap()
    before = rss_mb()
    getattr(camera, stop)()
    given = before - rss_mb()
    assert given > 40, f"{given:.0f} MB went back of the 84 MB of holes"
    assert len(kept) == 96 * 64  # the blocks still in use stay
