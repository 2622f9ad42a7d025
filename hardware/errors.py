"""Hardware errors; each is a CompanionError that also inherits the builtin that fits."""

from __future__ import annotations

from companion.errors import CompanionError


class PinMapError(CompanionError, ValueError):
    """The pin map (pins.toml) is malformed: bad TOML, a wrong type or a pin used twice."""


class BadLine(CompanionError, ValueError):
    """A line from the serial sensor board that is not a valid protocol line.

    The reader logs it and skips it; one bad line never stops the game.
    """


class HardwareError(CompanionError, OSError):
    """A part of the table cannot be used (a pin factory missing, a device busy)."""
