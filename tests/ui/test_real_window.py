"""The real app in a real X window on a display of exactly the Pi screen's 800x480 (Xvfb):
the window is the display, and on the home screen and every game's first screen the header
(title, Home, Undo) and the bottom row, the simulated table's strip included, are on it.

Two independent witnesses: the widgets' boxes from the running app, and what the display
shows (a screenshot of the X root window read back with tesseract)."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
from difflib import SequenceMatcher
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("window_driver.py")
SCREEN = (800, 480)
SLACK = 1  # px: rounding in dp sizes

pytestmark = [
    pytest.mark.ui,
    pytest.mark.slow,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "xwd", "tesseract")),
        reason="needs Xvfb, xwd and tesseract (`scripts/setup test` installs them)",
    ),
]


@pytest.fixture(scope="module")
def display():
    """An Xvfb of 800x480 on a display number it picks itself (no clash with other runs)."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 30)
        assert ready, "Xvfb did not start"
        number = os.read(read_end, 64).decode().strip()
        yield f":{number}"
    finally:
        os.close(read_end)
        proc.terminate()
        proc.wait(10)


class RunningApp:
    def __init__(self, display: str, data_dir: Path, *options: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
        env.pop("SDL_VIDEODRIVER", None)  # a real X window, not the offscreen driver
        env.update(
            DISPLAY=display,
            PYTHONPATH=str(ROOT),
            COMPANION_DATA_DIR=str(data_dir),
            KIVY_HOME=str(data_dir / "kivy"),
            KIVY_NO_ARGS="1",
            KIVY_NO_CONSOLELOG="1",
            KIVY_NO_FILELOG="1",
            GPIOZERO_PIN_FACTORY="mock",
        )
        (data_dir / "kivy").mkdir(parents=True, exist_ok=True)
        self.display = display
        self.stderr_path = data_dir.parent / "app-stderr.txt"
        self.stderr = open(self.stderr_path, "a")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, str(DRIVER), *options],
            env=env,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
        )

    def show(self, screen: str) -> dict:
        self.proc.stdin.write(screen + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        assert ready, f"the app did not show {screen}"
        line = self.proc.stdout.readline()
        assert line, "the app ended: " + self.stderr_path.read_text()[-2000:]
        answer = json.loads(line)
        assert "error" not in answer, answer["error"]
        return answer

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(10)
        finally:
            self.stderr.close()


@pytest.fixture(scope="module")
def app(display, tmp_path_factory):
    running = RunningApp(display, tmp_path_factory.mktemp("window") / "data", "--simulate")
    yield running
    assert running.stop() == 0


def screenshot(display: str) -> np.ndarray:
    """The X display as it is now, as a BGR image (read from `xwd -root`)."""
    raw = subprocess.run(
        ["xwd", "-root", "-silent", "-display", display], capture_output=True, check=True
    ).stdout
    header = struct.unpack(">25I", raw[:100])
    size, width, height, bits, per_line, ncolours = (header[i] for i in (0, 4, 5, 11, 12, 19))
    assert bits == 32, f"expected a 32-bit screen, got {bits} bits per pixel"
    start = size + 12 * ncolours
    pixels = np.frombuffer(raw[start : start + height * per_line], np.uint8)
    return pixels.reshape(height, per_line // 4, 4)[:, :width, :3].copy()  # BGRX, LSB first


def read_box(image: np.ndarray, box, tmp_path: Path, lines: int = 1) -> str:
    """What tesseract reads in one widget's box on the display (light text on a dark button
    or background; a single line unless `lines` says more)."""
    import cv2

    x0, y0, x1, y1 = (int(round(v)) for v in box)
    crop = image[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)]
    assert crop.size, f"the box {box} is not on the display"
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    big = cv2.resize(255 - grey, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "box.png"
    cv2.imwrite(str(path), cv2.copyMakeBorder(big, 12, 12, 12, 12, cv2.BORDER_REPLICATE))
    out = subprocess.run(
        ["tesseract", str(path), "stdout", "--psm", "7" if lines == 1 else "6"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    return " ".join(out.stdout.split())


def shows(words: str, read: str, margin: float = 0.8) -> bool:
    """The widget's words (known from the widget tree) are what tesseract read on the
    display, to a margin: the same pixels scaled for it differ by a rounding on another CPU
    (OpenCV's resize on arm64), enough to lose or change a letter ("| heck board")."""
    want, got = " ".join(words.lower().split()), " ".join(read.lower().split())
    n = len(want)
    return any(
        SequenceMatcher(None, want, got[i : i + k]).ratio() >= margin
        for k in (n - 1, n, n + 1)
        for i in range(max(1, len(got) - k + 1))
    )


def outside(boxes: list[dict], size) -> list[dict]:
    w, h = size
    return [
        b
        for b in boxes
        if b["box"][0] < -SLACK
        or b["box"][1] < -SLACK
        or b["box"][2] > w + SLACK
        or b["box"][3] > h + SLACK
    ]


def find(boxes: list[dict], cls: str, text: str) -> dict:
    hits = [b for b in boxes if b["cls"] == cls and b["text"] == text]
    assert hits, f"no {cls} {text!r} on screen"
    return hits[0]


def check_screen(app: RunningApp, screen: str, tmp_path: Path) -> dict:
    """The window is the display, every widget is on it, the header and the strip at the
    bottom are where they belong, and the display shows their words."""
    shown = app.show(screen)
    assert tuple(shown["window"]) == SCREEN, "the window is not the display"
    boxes = shown["boxes"]
    assert not outside(boxes, SCREEN), (screen, outside(boxes, SCREEN)[:5])
    bottom = find(boxes, "BigButton", "Next")  # the simulated table's strip, at the bottom
    assert SCREEN[1] - 80 < bottom["box"][3] <= SCREEN[1] + SLACK, bottom
    if screen == "home":
        header = [find(boxes, "Label", "Table Companion"), find(boxes, "BigButton", "Settings")]
    else:
        header = [find(boxes, "Label", shown["title"]), find(boxes, "BigButton", "Home")]
        header.append(find(boxes, "BigButton", "Undo"))
    assert all(b["box"][1] >= 0 and b["box"][3] <= 80 for b in header), (screen, header)

    # The display shows each of them where the app says it is.
    image = screenshot(app.display)
    assert image.shape[:2] == (SCREEN[1], SCREEN[0])
    for widget in [*header, bottom]:
        read = read_box(image, widget["box"], tmp_path)
        assert shows(widget["text"], read), (screen, widget, read)
    return shown


def test_home_and_every_game_fit_the_display(app, tmp_path):
    home = check_screen(app, "home", tmp_path)
    assert len(home["games"]) >= 5, home["games"]
    for name in home["games"]:
        check_screen(app, name, tmp_path)


def test_the_window_takes_the_size_asked_for(display, tmp_path):
    small = RunningApp(display, tmp_path / "data", "--simulate", "--size", "640x400")
    try:
        shown = small.show("home")
    finally:
        assert small.stop() == 0
    assert tuple(shown["window"]) == (640, 400)
    assert not outside(shown["boxes"], (640, 400)), outside(shown["boxes"], (640, 400))[:5]
