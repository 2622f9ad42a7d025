"""Errors of the vision package, rooted in companion.errors.CompanionError."""

from __future__ import annotations

from companion.errors import CompanionError


class CameraError(CompanionError, OSError):
    """The camera cannot be opened or stopped delivering frames (unplugged, file gone)."""


class CalibrationError(CompanionError, ValueError):
    """A calibration file or calibration input is unusable. The previous file is kept."""
