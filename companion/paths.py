"""Where the companion keeps its data: the platform's user data dir unless told otherwise."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

ENV_VAR = "COMPANION_DATA_DIR"


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """--data-dir wins, then $COMPANION_DATA_DIR, then the platform's user data dir."""
    if override:
        return Path(override).expanduser()
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("table-companion", appauthor=False))


def log_path(directory: Path) -> Path:
    return directory / "games.sqlite3"


def settings_path(directory: Path) -> Path:
    return directory / "settings.json"


def on_screen_path(directory: Path) -> Path:
    """The game last opened on the screen: the one to open again after a power cut."""
    return Path(directory) / "on-screen"


def calibration_path(directory: Path, table: str) -> Path:
    """The calibration of a table a game reads with a reader of its own, beside the ball
    camera's (vision.doctor.calibration_path)."""
    return Path(directory) / f"{table}-calibration.json"


@contextlib.contextmanager
def demo_dir(chosen: str | None, prefix: str) -> Iterator[Path]:
    """Where a demo keeps its game log: the directory asked for (kept afterwards), else a
    temporary one, removed when the demo ends."""
    if chosen:
        path = Path(chosen).expanduser()
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        yield Path(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
