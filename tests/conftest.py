"""Suite-wide set-up: headless Kivy in a throw-away home, gpiozero's mock pins, a temp data dir."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import pytest  # noqa: E402


def pytest_collection_modifyitems(items):
    """Files with slow tests run first: the suite's processes (pytest-xdist, a file at a time)
    then finish together, instead of one waiting for another's last long file."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: each file stays in order


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data dir, also exported as $COMPANION_DATA_DIR for subprocesses."""
    d = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(d))
    return d


DOCS_IMG = Path(__file__).resolve().parents[1] / "docs" / "img"


@pytest.fixture
def docs_shot(tmp_path):
    """shot(widget, name, size) renders `widget` to tmp_path/<name>.png and returns that path.

    With COMPANION_WRITE_DOCS=1 the PNG is also copied to docs/img/<name>.png, so the screen
    tests regenerate the screenshots the docs show.
    """
    from companion.ui.render import render_to_png

    def shot(widget, name: str, size=(800, 480)) -> Path:
        path = render_to_png(widget, tmp_path / f"{name}.png", size)
        if os.environ.get("COMPANION_WRITE_DOCS") == "1":
            DOCS_IMG.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS_IMG / f"{name}.png")
        return path

    return shot


@pytest.fixture(autouse=True)
def _quiet_kivy_clock():
    """Kivy's clock is one per process: screens a test leaves behind must not tick into the
    next test (their game logs are closed by then). Their animations go too: with their clock
    events cancelled they would never end, and a test waiting for animations to end (a
    scroll bar fading) waited out its time limit on every screen."""
    yield
    clock = sys.modules.get("kivy.clock")
    if clock is not None:
        for ev in clock.Clock.get_events():
            ev.cancel()
    animation = sys.modules.get("kivy.animation")
    if animation is not None:
        animation.Animation.cancel_all(None)
