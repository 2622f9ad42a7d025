"""User settings: timer lengths, volume, brightness, teaching aids. A JSON file, never lost.

A damaged settings file is set aside (renamed), never silently overwritten, and the defaults
are used so the table can still play.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path


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
    ask_threshold: float = 0.8  # below this classifier confidence, ask a person
    camera: str = "auto"  # "auto" (Pi camera, else webcam 0), "picamera", a webcam index,
    # a video file or stream URL, a folder of images, or "off"

    def validated(self) -> Settings:
        clamp = lambda v, lo, hi: min(hi, max(lo, v))  # noqa: E731
        return replace(
            self,
            phase_seconds=int(clamp(self.phase_seconds, 5, 600)),
            turn_timer_seconds=int(clamp(self.turn_timer_seconds, 0, 3600)),
            volume=float(clamp(self.volume, 0.0, 1.0)),
            brightness=float(clamp(self.brightness, 0.0, 1.0)),
            ask_threshold=float(clamp(self.ask_threshold, 0.0, 1.0)),
        )


def load(path: Path) -> tuple[Settings, str | None]:
    """The settings and, if the file was unreadable, a message saying what was done."""
    if not path.exists():
        return Settings(), None
    try:
        data = json.loads(path.read_text())
        known = {f.name for f in fields(Settings)}
        return Settings(**{k: v for k, v in data.items() if k in known}).validated(), None
    except (ValueError, TypeError, AttributeError, RecursionError) as exc:  # not an object
        kept = path.with_suffix(".damaged.json")
        os.replace(path, kept)
        return Settings(), f"settings file was damaged ({exc}); kept as {kept.name}, defaults used"


def save(path: Path, settings: Settings) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings.validated()), indent=2))
    os.replace(tmp, path)  # atomic: a power cut leaves the old or the new file, never half
