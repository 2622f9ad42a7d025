"""A person at the kiosk, from outside the app: an Xvfb of exactly 800x480 on a display of its
own, the real `companion run --simulate` in it, taps and keys sent with xdotool, and the
screen read back (xwd, then tesseract finds the words to tap). Used by benchmarks/kiosk.py.
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCREEN = (800, 480)
BORDER = 12  # pixels of margin around what tesseract reads: it misses words on the edge


class Xvfb:
    """An X server of 800x480 on a display number it picks itself (-displayfd), or the one
    given; it ends with the block."""

    def __init__(self, display: str | None = None) -> None:
        self.display = display
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Xvfb:
        size = f"{SCREEN[0]}x{SCREEN[1]}x24"
        if self.display:
            args = [self.display]
            read_end = write_end = None
        else:
            read_end, write_end = os.pipe()
            args = ["-displayfd", str(write_end)]
        self.proc = subprocess.Popen(
            ["Xvfb", *args, "-screen", "0", size, "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=() if write_end is None else (write_end,),
        )
        if write_end is not None:
            os.close(write_end)
            number = os.read(read_end, 16).decode().strip()
            os.close(read_end)
            if not number:
                raise SystemExit("Xvfb did not start")
            self.display = f":{number}"
        else:
            lock = Path(f"/tmp/.X11-unix/X{self.display.lstrip(':')}")
            deadline = time.monotonic() + 10
            while not lock.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)


@dataclass(frozen=True)
class Word:
    text: str
    x: int  # the centre, in screen pixels
    y: int
    height: int


class Kiosk:
    """The real app on `display`, started as `companion run --simulate` starts it, in its own
    data directory. `pid` is the app's process (all its threads)."""

    def __init__(self, display: str, tmp: Path) -> None:
        self.display = display
        self.tmp = tmp
        data = tmp / f"data-{time.monotonic_ns()}"
        (data / "kivy").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
        env.pop("SDL_VIDEODRIVER", None)  # a real X window
        sock_path = tmp / f"notify-{time.monotonic_ns()}.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(sock_path))
        self.sock.settimeout(120)
        env.update(
            DISPLAY=display,
            PYTHONPATH=str(ROOT),
            COMPANION_DATA_DIR=str(data),
            KIVY_HOME=str(data / "kivy"),
            KIVY_NO_ARGS="1",
            KIVY_NO_FILELOG="1",
            GPIOZERO_PIN_FACTORY="mock",
            NOTIFY_SOCKET=str(sock_path),  # READY=1 once the first frame is on screen
        )
        self.err = open(tmp / "app-stderr.txt", "a")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--simulate"],
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=self.err,
            stderr=self.err,
        )
        self.pid = self.proc.pid
        try:
            while b"READY=1" not in self.sock.recv(4096):
                pass
        except OSError:
            self.stop()
            raise SystemExit("the app did not start: see " + str(tmp / "app-stderr.txt")) from None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.sock.close()
        self.err.close()

    # what a person does -----------------------------------------------------------------
    def _xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display}, check=True)

    def tap_at(self, x: int, y: int, settle: float = 1.0) -> None:
        self._xdotool("mousemove", "--sync", str(x), str(y), "click", "1")
        time.sleep(settle)

    def hold(self, text: str, seconds: float = 1.2, settle: float = 1.0) -> None:
        """A finger held on the first word that reads `text` (a confirmation that takes a
        hold, such as starting a game while others are unfinished)."""
        hit = self.find(text)
        if hit is None:
            raise SystemExit(f"no {text!r} on the screen to hold")
        self._xdotool("mousemove", "--sync", str(hit.x), str(hit.y), "mousedown", "1")
        time.sleep(seconds)
        self._xdotool("mouseup", "1")
        time.sleep(settle)

    def key(self, name: str, settle: float = 0.6) -> None:
        """A key on the simulated table's keyboard (n next, b bid, r reveal, l lay card,
        space a ball; see the README)."""
        self._xdotool("key", name)
        time.sleep(settle)

    def tap(
        self, text: str, settle: float = 1.0, timeout: float = 20, largest: bool = False
    ) -> Word:
        """Tap the first word on screen that reads `text` (case-insensitive; `largest`: the
        one in the largest type, a title), reading the screen again until it shows up."""
        deadline = time.monotonic() + timeout
        while True:
            hit = self.find(text, largest)
            if hit is not None:
                self.tap_at(hit.x, hit.y, settle)
                return hit
            if time.monotonic() > deadline:
                shown = " ".join(w.text for w in self.words())
                raise SystemExit(f"no {text!r} on the screen; it shows: {shown[:400]}")
            time.sleep(0.5)

    def find(self, text: str, largest: bool = False) -> Word | None:
        want = text.lower()
        hits = [w for w in self.words() if w.text.lower().strip(":.,") == want]
        if largest:
            hits.sort(key=lambda w: -w.height)
        return hits[0] if hits else None

    def shows(self, text: str) -> bool:
        return self.find(text) is not None

    # what the screen shows --------------------------------------------------------------
    def screenshot(self) -> np.ndarray:
        """The display as it is now, grey (from `xwd -root`)."""
        raw = subprocess.run(
            ["xwd", "-root", "-silent", "-display", self.display], capture_output=True, check=True
        ).stdout
        header = struct.unpack(">25I", raw[:100])
        size, width, height, per_line, ncolours = (header[i] for i in (0, 4, 5, 12, 19))
        start = size + 12 * ncolours
        pixels = np.frombuffer(raw[start : start + height * per_line], np.uint8)
        bgr = pixels.reshape(height, per_line // 4, 4)[:, :width, :3]
        return bgr.min(axis=2)  # white text stands out on any colour of button

    def words(self) -> list[Word]:
        """The words tesseract reads on the screen (light on dark, scaled up twice)."""
        out = self._tesseract(self.screenshot(), "11", 2, "tsv")
        found = []
        for line in out.splitlines()[1:]:
            f = line.split("\t")
            if len(f) == 12 and f[11].strip() and float(f[10]) > 30:
                left, top, width, height = (
                    int(v) - BORDER * (i < 2) for i, v in enumerate(f[6:10])
                )
                x, y = (left + width // 2) // 2, (top + height // 2) // 2
                found.append(Word(f[11].strip(), x, y, height // 2))
        return found

    def _tesseract(self, grey: np.ndarray, psm: str, scale: int, *config: str) -> str:
        import cv2

        big = cv2.resize(255 - grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        big = cv2.copyMakeBorder(big, *[BORDER] * 4, cv2.BORDER_REPLICATE)
        with tempfile.NamedTemporaryFile(suffix=".png", dir=self.tmp) as f:
            cv2.imwrite(f.name, big)
            return subprocess.run(
                ["tesseract", f.name, "-", "--psm", psm, *config], capture_output=True, text=True
            ).stdout
