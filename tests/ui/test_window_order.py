"""Importing the UI creates no window: `companion run` sets the window's size first, so the
window is made at that size (it was made at Kivy's default 800x600 by an import, then
drawn shifted on an 800x480 screen)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import companion.ui.app, companion.ui.sim_strip, companion.ui.widgets
print("kivy.core.window" in sys.modules)
from companion.ui.widgets import MIN_TOUCH  # asking for a size in pixels may make it
print(MIN_TOUCH >= 48)
"""


def test_importing_the_ui_creates_no_window():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["False", "True"]
