"""What the game screen says when a sensor of the table floods it with readings, and when it
is calm again (the table's rate guard, hardware/rate_guard.py, decides)."""

from __future__ import annotations

_SENSORS = {"beam": "chute's beam", "serial": "chute's sensor board"}


def sensor_notice(part: str, why: str | None) -> str | None:
    if why is None:
        return None
    name = _SENSORS.get(part, part)
    return f"The {name} reports more balls than can pass: it is ignored; tap the balls in."


def sensor_calm(part: str) -> str:
    return f"The {_SENSORS.get(part, part)} is calm again: its readings count."
