"""Where the companion keeps its data: the platform's user data dir unless told otherwise."""

from __future__ import annotations

import os
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


def ring_calibration_path(directory: Path) -> Path:
    """The Laser ring's calibration, beside the ball camera's (vision.doctor.calibration_path)."""
    return Path(directory) / "ring-calibration.json"


def node_calibration_path(directory: Path) -> Path:
    """The Node table's calibration, beside the ball camera's."""
    return Path(directory) / "node-calibration.json"
