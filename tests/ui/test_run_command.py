"""`companion run` as the README uses it, in real subprocesses."""

import os
import subprocess
import sys

import cv2
import pytest

pytestmark = pytest.mark.ui


def run(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "companion", "run", *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def test_screenshot_renders_the_start_screen_and_exits(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen"}
    out = tmp_path / "start.png"
    r = run("--screenshot", str(out), "--data-dir", str(tmp_path / "d"), env=env)
    assert r.returncode == 0, r.stderr
    img = cv2.imread(str(out))
    assert img.shape == (480, 800, 3) and img.std() > 20


def test_without_a_display_it_says_so_in_one_line_and_plays_the_demo(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"}
    }
    env["COMPANION_DATA_DIR"] = str(tmp_path / "d")
    r = run(env=env)
    first = r.stdout.splitlines()[0]
    assert first.startswith("companion: no display found"), r.stdout + r.stderr
    assert r.returncode == 0, r.stderr
    assert "win" in r.stdout.lower()
