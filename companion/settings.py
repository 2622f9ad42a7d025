"""User settings: timer lengths, volume, brightness, teaching aids. A JSON file, never lost.

A damaged settings file is set aside (renamed), never silently overwritten, and the defaults
are used so the table can still play.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from companion.files import write_atomically

MAX_BYTES = 64 * 1024  # a settings file is a few hundred bytes; more is not ours


@dataclass(frozen=True)
class Settings:
    phase_seconds: int = 30  # Laser planning/bids/demonstrations; learning mode doubles it
    learning_mode: bool = False  # 60 s everywhere instead of 30 s
    turn_timer_seconds: int = 0  # optional per-turn timer (0 = off) for Kritters and Elios
    volume: float = 0.6  # 0..1, buzzer loudness (duty cycle on a passive buzzer)
    brightness: float = 0.8  # 0..1, LED brightness
    mute: bool = False
    show_odds: bool = True  # Color Milk: show the chance of each prediction
    speak_cues: bool = False  # say "ten seconds", "Anna chooses" (espeak-ng), besides the buzzer
    results_bgstats: bool = False  # the results QR code carries the BG Stats play link, not text
    ask_threshold: float = 0.8  # below this classifier confidence, ask a person
    camera: str = "auto"  # "auto" (Pi camera, else webcam 0), "picamera", a webcam index,
    # a video file or stream URL, a folder of images, or "off"

    def validated(self) -> Settings:
        return _checked(asdict(self))[0]


_RANGES = {
    "phase_seconds": (5, 600),
    "turn_timer_seconds": (0, 3600),
    "volume": (0.0, 1.0),
    "brightness": (0.0, 1.0),
    "ask_threshold": (0.0, 1.0),
}
_WORDS = {"true": True, "on": True, "yes": True, "false": False, "off": False, "no": False}


def _checked(data: dict) -> tuple[Settings, list[str]]:
    """Settings from a JSON object: each value of the wrong type is the default instead (and
    named), numbers are kept in range. Unknown keys are ignored."""
    out, wrong = {}, []
    for f in fields(Settings):
        if f.name not in data:
            continue
        value, default = data[f.name], f.default
        if isinstance(default, bool):
            value = _WORDS.get(value.strip().lower()) if isinstance(value, str) else value
            ok = isinstance(value, bool)
        elif isinstance(default, int | float):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            ok = ok and value == value and abs(value) != float("inf")
            if ok:
                lo, hi = _RANGES[f.name]
                value = type(default)(min(hi, max(lo, value)))
        else:  # the camera: a word, a path or a webcam index
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                value = str(value)
            ok = isinstance(value, str) and 0 < len(value) <= 4096 and "\x00" not in value
        if ok:
            out[f.name] = value
        else:
            wrong.append(f.name)
    return Settings(**out), wrong


def load(path: Path) -> tuple[Settings, str | None]:
    """The settings and, if the file was unreadable, a message saying what was done."""
    if not path.exists():
        return Settings(), None
    if not path.is_file():
        return Settings(), f"{path.name} is not a file; defaults used"
    try:
        data = json.loads(path.read_bytes()[:MAX_BYTES])
        if not isinstance(data, dict):
            raise ValueError("not an object")
    except (ValueError, RecursionError, OSError) as exc:
        kept = path.with_suffix(".damaged.json")
        try:
            os.replace(path, kept)
        except OSError as why:  # a card that takes no writes: read it again next time
            return Settings(), f"settings file is damaged ({exc}) and was left as it is ({why})"
        return Settings(), f"settings file was damaged ({exc}); kept as {kept.name}, defaults used"
    settings, wrong = _checked(data)
    if wrong:
        return settings, f"settings {', '.join(wrong)} could not be used; defaults used for them"
    return settings, None


def save(path: Path, settings: Settings) -> None:
    """Atomic and synced: a power cut leaves the old file or the new one, never half.
    OSError if the card takes no writes (the settings stay in force until it does)."""
    write_atomically(path, json.dumps(asdict(settings.validated()), indent=2).encode())
