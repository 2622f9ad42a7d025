"""Suite-wide set-up: headless Kivy in a throw-away home, gpiozero's mock pins, a temp data dir."""

import os
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import pytest  # noqa: E402


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data dir, also exported as $COMPANION_DATA_DIR for subprocesses."""
    d = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(d))
    return d
